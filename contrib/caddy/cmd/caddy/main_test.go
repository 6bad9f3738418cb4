package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the command itself when the tests ask for it: the test
// binary is this main with the same imports, so the tests run the
// command as users do, without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("JSONMASK_CADDY_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// caddy runs the command with args in dir and returns its output.
func caddy(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JSONMASK_CADDY_RUN_MAIN=1", "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "HOME="+dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestListModules: the binary has jsonmask's module beside the standard
// ones that it works with.
func TestListModules(t *testing.T) {
	out, err := caddy(t, t.TempDir(), "list-modules")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, m := range []string{"http.handlers.jsonmask", "http.handlers.reverse_proxy", "http.handlers.encode"} {
		if !strings.Contains(out, m+"\n") {
			t.Errorf("%s is not in list-modules", m)
		}
	}
}

// TestValidate: `caddy validate` adapts the README's Caddyfile and
// provisions it, reading the mask file relative to the working
// directory, and refuses a mask file that is not a mask.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "masks"), 0o755); err != nil {
		t.Fatal(err)
	}
	const caddyfile = `{
	admin off
	persist_config off
}
:8080 {
	bind 127.0.0.1
	encode
	route /v1/* {
		jsonmask {
			mask_file masks/items.json
			arrays
			strict
		}
		reverse_proxy 127.0.0.1:9000
	}
}
`
	if err := os.WriteFile(filepath.Join(dir, "Caddyfile"), []byte(caddyfile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, mask string
		ok         bool
		msg        string
	}{
		{"Valid", `{"items": {"id": true}}`, true, "Valid configuration"},
		{"BadMask", `{"items": {"id": 1}}`, false, `provision http.handlers.jsonmask: mask_file masks/items.json: mask member`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, "masks", "items.json"), []byte(c.mask), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := caddy(t, dir, "validate", "--config", "Caddyfile", "--adapter", "caddyfile")
			if (err == nil) != c.ok || !strings.Contains(out, c.msg) {
				t.Fatalf("err %v, want ok %v and %q in\n%s", err, c.ok, c.msg, out)
			}
		})
	}
}
