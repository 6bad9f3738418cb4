package mcpproxy

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONStringMembers: a string member that holds JSON, at any depth, is
// read as JSON (SPEC P3, C11) after the mask: the model gets it as data,
// within the budget, and structuredContent holds it as an object; nothing
// the mask drops gets through, inside the string or beside it.
func TestJSONStringMembers(t *testing.T) {
	inner := `{"rows":[` + strings.Repeat(`{"n":1,"s":"row"},`, 80) + `{"n":2}]}`
	for _, tc := range []struct {
		name, tool, res, want string
	}{
		{"Masked", "m", `{"content":[],"structuredContent":{"keep":` + jstr(inner) + `,"drop":` + jstr(`{"s":"`+canary+`","pad":"`+strings.Repeat("x", 1100)+`"}`) + `}}`,
			`{"keep":` + inner + `}`},
		{"Text", "m", `{"content":[{"type":"text","text":` + jstr(`{"keep":{"deep":[`+jstr(inner)+`]},"drop":"`+canary+`"}`) + `}]}`,
			`{"keep":{"deep":[` + inner + `]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.call("1", tc.tool)
			got := h.server(result("1", tc.res))
			var msg struct {
				Result struct {
					StructuredContent json.RawMessage
				}
			}
			if err := json.Unmarshal([]byte(got), &msg); err != nil {
				t.Fatal(err)
			}
			if string(msg.Result.StructuredContent) != tc.want {
				t.Fatalf("structuredContent %.300s\nwant %.300s", msg.Result.StructuredContent, tc.want)
			}
		})
	}
}
