package mcpproxy_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultTokens is what a result costs the model: the tokens of every text
// in its content, and of its structuredContent as JSON.
func resultTokens(t *testing.T, r *mcp.CallToolResult) int {
	t.Helper()
	n := 0
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			n += tokens(t, tc.Text)
		}
	}
	if r.StructuredContent != nil {
		b, _ := json.Marshal(r.StructuredContent)
		n += tokens(t, string(b))
	}
	return n
}

// TestRealShapes: results shaped as real servers send them (SPEC P3, here
// server-filesystem's) stay within the budget as a whole: a text that
// repeats structuredContent goes, a {"content": "<text>"} wrapper around
// JSON is that JSON, around plain text it is plaintext (once), media stay
// media, and text items kept beside the data count against the budget.
func TestRealShapes(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcp.json")
	os.WriteFile(cfg, []byte(`{"budget": 2000, "store": "vars", "tools": {
		"fs_json_masked": {"response_mask": {"items": {"id": true}}}}}`), 0o644)
	c := dial(t, cfg)

	t.Run("JSONInAString", func(t *testing.T) {
		for _, tool := range []string{"fs_json", "fs_json_masked"} {
			r := c.call(t, tool, nil)
			text := only(t, r)
			if n := resultTokens(t, r); n > 2000 {
				t.Fatalf("%s: %d tokens at a budget of 2000", tool, n)
			}
			if !strings.Contains(text, "items: Array<{id: string") {
				t.Fatalf("%s: the schema is not the file's JSON: %.600s", tool, text)
			}
		}
	})
	t.Run("PlainText", func(t *testing.T) {
		r := c.call(t, "fs_text", nil)
		if got := only(t, r); got != proseText || r.StructuredContent != nil {
			t.Fatalf("%d bytes of text (want %d), structuredContent %v", len(got), len(proseText), r.StructuredContent != nil)
		}
	})
	t.Run("Media", func(t *testing.T) {
		r := c.call(t, "fs_image", nil)
		if len(r.Content) != 1 || r.StructuredContent != nil {
			t.Fatalf("%d items, structuredContent %v", len(r.Content), r.StructuredContent != nil)
		}
		img, ok := r.Content[0].(*mcp.ImageContent)
		if !ok || string(img.Data) != imageBytes {
			t.Fatalf("the image is not as the server sent it: %T", r.Content[0])
		}
	})
	t.Run("ProseBeside", func(t *testing.T) {
		r := c.call(t, "prose_plus", nil)
		if n := resultTokens(t, r); n > 2000 || len(r.Content) != 2 {
			t.Fatalf("%d tokens at a budget of 2000, %d items", n, len(r.Content))
		}
	})
}
