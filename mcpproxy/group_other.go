//go:build !unix

package mcpproxy

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// signalGroup signals the server alone: SIGKILL kills it, other signals
// are not delivered where there are none.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		cmd.Process.Kill()
		return
	}
	cmd.Process.Signal(os.Interrupt)
}
