//go:build unix

package mcpproxy

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd start in a process group of its own, so that the
// server and whatever it starts (npx, sh -c) are signalled as a whole.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
}

// signalGroup sends sig to the process group that the server leads; when
// the group is gone (or was never made), to the server alone.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	pid := cmd.Process.Pid
	if syscall.Kill(-pid, sig) != nil {
		cmd.Process.Signal(sig)
	}
}
