package mcpproxy_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestToolMaskKeys: a tool's mask given by fields, by mask_file (relative
// to the config file) and by a JSON mask with wildcards and
// drop_mismatched, applied through jsonmask mcp to the test server's
// "small" result, whose dropped values hold the canary (SPEC G11, P2).
func TestToolMaskKeys(t *testing.T) {
	for _, c := range []struct {
		name, tool, want string
	}{
		{"Fields", `{"fields": "id,owner(name)"}`, `{"id":"a1","owner":{"name":"Ana"}}`},
		{"MaskFile", `{"mask_file": "masks/small.json"}`, `{"id":"a1","status":"open"}`},
		// "*" keeps any key's name member; secret, a string where the mask
		// has an object, is dropped with drop_mismatched alone.
		{"WildcardsDropMismatched", `{"response_mask": {"*": {"name": true}}, "wildcards": true, "drop_mismatched": true}`, `{"owner":{"name":"Ana"}}`},
		{"Trusted", `{"response_mask": {"id": true}, "trusted": true}`, `{"id":"a1"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "masks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "masks", "small.json"), []byte(`{"id": true, "status": true}`), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "mcp.json")
			if err := os.WriteFile(path, []byte(`{"tools": {"small": `+c.tool+`}}`), 0o644); err != nil {
				t.Fatal(err)
			}
			r := dial(t, path).call(t, "small", nil) // no canary
			if got := only(t, r); got != c.want {
				t.Fatalf("text %s, want %s", got, c.want)
			}
		})
	}
}
