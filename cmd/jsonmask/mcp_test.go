package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMCP runs jsonmask mcp in this process with small servers from the
// shell: its usage, its configuration errors, and that it relays and exits
// with the server's status. The proxy itself is tested in package mcpproxy,
// with a go-sdk server and client.
func TestMCP(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh and cat")
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"budget": 25000, "store": "vars", "tools": {"search": {"response_mask": {"id": true}, "budget": 7000, "arrays": true}}}`)
	typo := write("typo.json", `{"budget": 25000, "tool": {}}`)
	badMask := write("badmask.json", `{"tools": {"search": {"response_mask": {"id": false}}}}`)
	badBudget := write("badbudget.json", `{"budget": -1}`)
	messages := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		status int
		stdout string // a prefix of standard output
		stderr string // a part of standard error
	}{
		{"Help", []string{"-h"}, "", 0, "usage: jsonmask mcp", ""},
		{"NoCommand", nil, "", 2, "", "jsonmask: the server's command is missing: jsonmask mcp [-config FILE] [--] COMMAND [ARG ...]\nrun 'jsonmask mcp -h' for usage\n"},
		{"EmptyCommand", []string{"--"}, "", 2, "", "the server's command is missing"},
		{"FlagsOnly", []string{"-config", good}, "", 2, "", "the server's command is missing"},
		// Without "--" (the MCP Inspector's CLI drops it): the command starts
		// at the first argument that is not a flag of jsonmask mcp, and
		// keeps its own flags and "--".
		{"NoDash", []string{"sh", "-c", "exit 4"}, "", 4, "", ""},
		{"NoDashWithFlags", []string{"-config", good, "sh", "-c", "exit $#", "sh", "-config", "--", "x"}, "", 3, "", ""},
		{"BadFlag", []string{"-budget", "3", "--", "cat"}, "", 2, "", "flag provided but not defined: -budget"},
		{"NoConfig", []string{"-config", filepath.Join(dir, "nope.json"), "--", "cat"}, "", 2, "", "nope.json: no such file or directory"},
		{"UnknownKey", []string{"-config", typo, "--", "cat"}, "", 2, "", `config: unknown key "tool", at offset`},
		{"BadMask", []string{"-config", badMask, "--", "cat"}, "", 2, "", `config: tools.search.response_mask: mask member "/id" must be true or an object, got false`},
		{"BadBudget", []string{"-config", badBudget, "--", "cat"}, "", 2, "", "config: budget must be at least 0, got -1"},
		{"BadGrace", []string{"-grace", "0s", "--", "cat"}, "", 2, "", "the grace period must be positive"},
		{"NoServer", []string{"--", filepath.Join(dir, "no-such-server")}, "", 1, "", "jsonmask: mcp: " + filepath.Join(dir, "no-such-server") + ": no such file or directory"},
		{"Relays", []string{"-config", good, "--", "cat"}, messages, 0, messages, ""},
		{"ServersStatus", []string{"--", "sh", "-c", "echo on stderr >&2; exit 5"}, "", 5, "", "on stderr\n"},
		{"FlagsOfTheServer", []string{"--", "sh", "-c", "exit $#", "sh", "-config", "x", "--"}, "", 3, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(append([]string{"mcp"}, tc.args...), strings.NewReader(tc.stdin), &stdout, &stderr)
			if status != tc.status || !strings.HasPrefix(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Fatalf("status %d, stdout %q, stderr %q", status, stdout.String(), stderr.String())
			}
			onePrefix(t, stderr.String())
			if tc.name == "Relays" && stdout.String() != messages {
				t.Fatalf("stdout %q", stdout.String())
			}
		})
	}
}
