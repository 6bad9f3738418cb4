package jsonmask_test

import (
	"testing"

	"github.com/jsonmask/jsonmask"
)

// diagnoseSeeds are documents that end inside a token, a number at the
// very end of a document or a line, byte-order marks, and lines that pass
// through: where a walker over whole texts has to stop asking its scanner.
var diagnoseSeeds = []string{
	`{"id":1,"items":[{"price":{"amount":3,"currency":"CANARY"}}],"note":"CANARY"}`,
	`{"id":1`, `{"id":"ab`, `{"id":"a\`, `{"id":tru`, `{"id":-`, `{"id":1.`, `{"id":1e`,
	`1`, ` 1`, `1 `, `-0.5e3`, `"s`, `[1,2`, `[1, tru`, `[{"a":1},{"a":"x`,
	`{"a":{"b":[1,2,{"c":"d"}]},"e":null}`, "\xEF\xBB\xBF{\"id\":2}",
	"{\"id\":1}\n{\"id\":\"x", "{\"id\":1}\n1", "1\n2", "{\"id\":1}\n\n[3", "\n\n",
	`{"":1,"*":{"a":[]}}`, `{"id":{"x":1},"items":"s"}`,
}

// FuzzDiagnostics: on any document, under masks and options (NDJSON,
// arrays, A6, wildcards, trusted input), Explain and Paths end, without a
// panic; where the input is checked, Explain fails exactly where Append
// does, with its error, and counts Append's output. The walker reads whole
// texts with a scanner made for windows: a token cut by the end of the text
// must end it (the loop that stalled mcpproxy's sameJSON, 82a3678).
func FuzzDiagnostics(f *testing.F) {
	for _, s := range diagnoseSeeds {
		for _, o := range []uint8{0, 1, 2, 4, 8, 16, 31} {
			f.Add([]byte(s), o)
		}
	}
	masks := []string{`{"id":true,"items":{"price":{"amount":true}}}`, `{"*":{"a":true},"id":true}`}
	f.Fuzz(func(t *testing.T, doc []byte, o uint8) {
		trusted := o&16 != 0
		m, err := jsonmask.Compile([]byte(masks[o>>5&1]), jsonmask.WithNDJSON(o&1 != 0), jsonmask.WithArrays(o&2 != 0),
			jsonmask.WithDropMismatched(o&4 != 0), jsonmask.WithWildcards(o&8 != 0), jsonmask.WithTrustedInput(trusted))
		if err != nil {
			t.Fatal(err)
		}
		out, aerr := m.Append(nil, doc)
		x, xerr := m.Explain(doc)
		m.Paths(doc)
		if trusted {
			return // Explain checks what Append skips unchecked
		}
		if (aerr == nil) != (xerr == nil) || aerr != nil && aerr.Error() != xerr.Error() {
			t.Fatalf("Append: %v; Explain: %v", aerr, xerr)
		}
		if aerr == nil && x.BytesOut != int64(len(out)) {
			t.Fatalf("Explain says %d bytes out; Append %d", x.BytesOut, len(out))
		}
	})
}
