package stream

import (
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// TestCheckCopyChunks masks documents whose kept container spans several of
// opCheckCopy's parts (checkChunk bytes, each checked by sc, then copied by
// cp with AppendChecked), valid and with a bad byte planted at and around
// each part's end, with opCheckCopy in memory (Append) and window by window
// (Write), and wants what opCopy (one scanner) gives in memory: the output,
// or the error with its offset and pointer.
func TestCheckCopyChunks(t *testing.T) {
	elem := "{\n    \"s\": \"a \\\"b\\\" \\\\ c  \\u00e9 日本  \",\n    \"n\": -12.5e3,\n    \"a\": [ true , null , {} , [ ] ],\n    \"t\": \"x\ty\"\n  }"
	elem = strings.ReplaceAll(elem, "\t", " ") // a tab in a string is not valid
	var b strings.Builder
	b.WriteString("[\n  ")
	for b.Len() < 3*checkChunk+checkChunk/2 {
		b.WriteString(elem + ",\n  ")
	}
	b.WriteString("\"last\"\n]")
	prefix := `{"drop": [1, "x"], "keep": `
	doc := prefix + b.String() + `, "tail": {"y": 2}}`
	start := len(prefix)
	prog, err := compile.Compile([]byte(`{"keep": true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(c bool) { checkCopy = c }(checkCopy)
	check := func(name string, src []byte) {
		t.Helper()
		var m Machine
		checkCopy = false // opCopy: one scanner checks and copies
		m.Reset(prog, Config{})
		want := dropResult(m.Append(nil, src))
		checkCopy = true // opCheckCopy, on any CPU (AppendChecked has its twin)
		m.Reset(prog, Config{})
		if got := dropResult(m.Append(nil, src)); got != want {
			t.Fatalf("%s: Append with opCheckCopy:\n%.300s\nwith opCopy:\n%.300s", name, got, want)
		}
		m.Reset(prog, Config{})
		var windows [][]byte
		for i := 0; i < len(src); i += 4096 {
			windows = append(windows, src[i:min(i+4096, len(src))])
		}
		if got := dropResult(writeAll(&m, windows...)); got != want {
			t.Fatalf("%s: Write in 4 KiB windows with opCheckCopy:\n%.300s\nAppend with opCopy:\n%.300s", name, got, want)
		}
	}
	check("valid", []byte(doc))
	for k := 1; k <= 3; k++ {
		for d := -3; d <= 3; d++ {
			p := start + k*checkChunk + d
			for _, c := range []byte{0x01, 'x', '}', '"', '\\'} {
				src := []byte(doc)
				src[p] = c
				check(string(rune('0'+k))+"/"+string(rune('3'+d))+"/"+string(c), src)
			}
		}
	}
}
