package mcpproxy_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/mcpproxy"
)

// TestNewErrorsChain checks that the errors of New keep their causes
// (errors.As and errors.Is see through them, also when a caller wraps them
// once more) and say "jsonmask: " once, at the start.
func TestNewErrorsChain(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		cfg   mcpproxy.Config
		cause func(error) bool // nil: a plain error, only its text is checked
	}{
		{"Mask", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {ResponseMask: []byte(`{"a":1}`)}}}, func(err error) bool {
			var me *jsonmask.MaskError
			return errors.As(err, &me) && me.Pointer == "/a"
		}},
		{"MaskDepth", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {ResponseMask: []byte(strings.Repeat(`{"a":`, 10001) + "true" + strings.Repeat("}", 10001))}}}, func(err error) bool {
			var me *jsonmask.MaskError
			return errors.As(err, &me) && errors.Is(err, jsonmask.ErrMaxDepth)
		}},
		{"Store", mcpproxy.Config{Store: filepath.Join(file, "vars")}, func(err error) bool {
			var pe *fs.PathError
			return errors.As(err, &pe)
		}},
		{"Encoding", mcpproxy.Config{Budget: 1, Encoding: "p50k"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mcpproxy.New(&tc.cfg)
			if err == nil {
				t.Fatal("no error")
			}
			for _, e := range []error{err, fmt.Errorf("mcp: %w", err)} {
				if tc.cause != nil && !tc.cause(e) {
					t.Errorf("the cause is lost: %#v", e)
				}
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "jsonmask: config: ") || strings.Count(msg, "jsonmask: ") != 1 {
				t.Errorf("message %q: want one \"jsonmask: \", at the start", msg)
			}
		})
	}
}
