package stream

import (
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// boundaryCanary is put in every value the masks of TestWindowBoundary drop.
const boundaryCanary = "CANARY"

// nestedDrop is a container n deep, objects and arrays in turn, indented
// as a pretty-printer would, with the canary at every level.
func nestedDrop(n int) string {
	var b strings.Builder
	for k := range n {
		if k%2 == 0 {
			b.WriteString("{\n  \"c\": \"" + boundaryCanary + "\",\n  \"v\": ")
		} else {
			b.WriteString("[\n    \"" + boundaryCanary + "\", 12.5e3,\n    ")
		}
	}
	b.WriteString(`"` + boundaryCanary + `"`)
	for k := n - 1; k >= 0; k-- {
		if k%2 == 0 {
			b.WriteString("\n}")
		} else {
			b.WriteString(", null ]")
		}
	}
	return b.String()
}

// TestWindowBoundary masks documents whose dropped and kept containers a
// window's end cuts at every byte (checkSplits: whole, in two windows cut
// at every byte, a byte at a time), and wants in-memory's result each way:
// the output, or the error with its offset and pointer; and never the
// canary of a dropped value, on success or error. The containers start at
// depth 1 and deeper, nest up to the nesting limit and one past it, hold
// errors (so that some cuts fall just before them), run over NDJSON lines
// and up to a MaxInput limit.
func TestWindowBoundary(t *testing.T) {
	deep := nestedDrop(12)
	kept := strings.ReplaceAll(deep, boundaryCanary, "kept")
	line := strings.ReplaceAll(deep, "\n", " ") // NDJSON: one line
	for _, c := range []struct {
		name, mask string
		cfg        Config
		doc        string
		fails      bool // in default mode: an error
	}{
		{"dropped-depth1", `{"keep":true}`, Config{}, `{"drop": ` + deep + `, "keep": [1, {"a": 2}]}`, false},
		{"dropped-last", `{"keep":true}`, Config{}, `{"keep": 1, "drop": ` + deep + "}\n", false},
		{"dropped-depth3", `{"a":{"b":{"keep":true}}}`, Config{}, `{"a": {"b": {"drop": ` + deep + `, "keep": "k"}, "x": ` + deep + `}}`, false},
		{"dropped-in-elements", `{"rows":{"id":true}}`, Config{}, `{"rows": [{"id": 1, "d": ` + deep + `}, {"d": ` + deep + `, "id": 2}]}`, false},
		{"kept-depth1", `{"keep":true}`, Config{}, `{"keep": ` + kept + `, "drop": ` + deep + `}`, false},
		{"kept-depth3", `{"a":{"b":{"keep":true}}}`, Config{}, `{"a": {"b": {"keep": ` + kept + `, "drop": "` + boundaryCanary + `"}}}`, false},
		{"kept-checked", `{"keep":true}`, Config{}, `{"keep": [` + kept + `, ` + kept + `]}`, false},
		{"limit-exact", `{"keep":true}`, Config{MaxDepth: 13}, `{"drop": ` + deep + `, "keep": 1}`, false},
		{"limit-over", `{"keep":true}`, Config{MaxDepth: 12}, `{"drop": ` + deep + `, "keep": 1}`, true},
		{"kept-limit-over", `{"keep":true}`, Config{MaxDepth: 12}, `{"keep": ` + kept + `}`, true},
		{"error-in-dropped", `{"keep":true}`, Config{}, `{"keep": 1, "drop": ` + strings.Replace(deep, "12.5e3", "12.5e", 1) + `}`, true},
		{"error-in-kept", `{"keep":true}`, Config{}, `{"keep": ` + strings.Replace(kept, `"c"`, `c`, 1) + `}`, true},
		{"error-cut-token", `{"keep":true}`, Config{}, `{"keep": 1, "drop": ` + strings.Replace(deep, "null", "nul", 1) + `}`, true},
		{"error-at-end", `{"keep":true}`, Config{}, `{"keep": 1, "drop": ` + deep, true},
		{"ndjson", `{"keep":true}`, Config{NDJSON: true}, `{"drop": ` + line + `, "keep": 1}` + "\n" + `{"keep": 2, "drop": ` + line + "}\n\n" + `{"drop": ` + line + `}`, false},
		{"max-input-inside", `{"keep":true}`, Config{MaxInput: 60}, `{"keep": 1, "drop": ` + deep + `}`, true},
		{"max-input-end", `{"keep":true}`, Config{MaxInput: int64(len(`{"keep": 1, "drop": ` + deep + `}`))}, `{"keep": 1, "drop": ` + deep + `}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, trusted := range []bool{false, true} {
				cfg := c.cfg
				cfg.Trusted = trusted
				prog, err := compile.Compile([]byte(c.mask), compile.Options{Wildcards: true})
				if err != nil {
					t.Fatal(err)
				}
				var m Machine
				m.Reset(prog, cfg)
				want := dropResult(m.Append(nil, []byte(c.doc)))
				if fails := strings.HasPrefix(want, "error: "); !trusted && fails != c.fails {
					t.Fatalf("in memory: %s, want an error %v", want, c.fails)
				}
				if strings.Contains(want, boundaryCanary) {
					t.Fatalf("trusted %v: in memory, the canary leaked: %s", trusted, want)
				}
				checkSplits(t, c.mask, cfg, c.doc, want)
			}
		})
	}
}
