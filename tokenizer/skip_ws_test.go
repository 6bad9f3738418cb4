package tokenizer

import (
	"fmt"
	"strings"
	"testing"
)

// wsPlaces are containers with a run of whitespace at every kind of place
// between tokens, where W stands: the kernel meets each from a different
// state (after '{' or '[', a key, ':', ',', before a close, in arrays of
// objects, where it learns and compares the separator).
var wsPlaces = []struct{ name, json string }{
	{"after-open-object", `{W"a":1}`},
	{"after-key", `{"a"W:1}`},
	{"after-colon", `{"a":W1}`},
	{"after-comma-object", `{"a":1,W"b":2}`},
	{"object-separators", `{"a":1,W"b":2,W"c":{"d":W1,W"e":2},W"f":3,W"g":4}`},
	{"before-close-object", `{"a":1W}`},
	{"empty-object", `{W}`},
	{"after-open-array", `[W1]`},
	{"after-comma-array", `[1,W2,W3,W4]`},
	{"before-close-array", `[1W]`},
	{"empty-array", `[W]`},
	{"array-of-objects", `[W{"a":1},W{"b":W[W]},W{}W]`},
	{"everywhere", `{W"a"W:W[W{W"b"W:W"c"W}W,W1W,Wtrue]W,W"d":W{}W}`},
}

// wsRuns makes a run of n whitespace bytes of each kind: spaces after a
// newline (pretty-printed JSON), tabs, and a mix of all four.
func wsRuns(n int) map[string]string {
	mixed := strings.Repeat(" \t\r\n", n/4+1)[:n]
	runs := map[string]string{"spaces": strings.Repeat(" ", n), "tabs": strings.Repeat("\t", n), "mixed": mixed}
	if n > 0 {
		runs["newline-spaces"] = "\n" + strings.Repeat(" ", n-1)
	}
	return runs
}

// TestSkipWhitespace checks the kernels' whitespace (32 bytes a step where
// 32 remain, a byte or a word at a time after) against the twin and value
// (checkSkip, checkCopy): runs of every length from 0 to 70 at every kind of
// place, whole, with bytes after the value, and cut inside or just after a
// run (the window ending in whitespace); and the same runs with a byte that
// is not JSON whitespace at its end or inside it (form feed, vertical tab,
// NUL, bytes that share whitespace's low nibble, no-break space), which
// every reader must refuse.
func TestSkipWhitespace(t *testing.T) {
	for _, p := range wsPlaces {
		t.Run(p.name, func(t *testing.T) {
			for n := 0; n <= 70; n++ {
				for kind, run := range wsRuns(n) {
					doc := strings.ReplaceAll(p.json, "W", run)
					a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if end, ok := checkSkip(t, a); !ok || end != len(doc) {
						t.Fatalf("%s run %d: skipWhole(%q) = %d %v, want %d", kind, n, doc, end, ok, len(doc))
					}
					checkCopy(t, a)
					for pad := 1; pad <= 33; pad += 8 {
						a.src = []byte(doc + strings.Repeat(" ", pad))
						if end, ok := checkSkip(t, a); !ok || end != len(doc) {
							t.Fatalf("%s run %d: skipWhole(%q) = %d %v, want %d", kind, n, a.src, end, ok, len(doc))
						}
						checkCopy(t, a)
					}
					// Cut inside the first run and up to 40 bytes after it.
					first := strings.Index(p.json, "W")
					for cut := first; cut <= min(first+n+40, len(doc)-1); cut++ {
						a.src = []byte(doc[:cut])
						if _, ok := checkSkip(t, a); ok {
							t.Fatalf("%s run %d: skipWhole(%q) took a cut value", kind, n, a.src)
						}
						checkCopy(t, a)
					}
					if n == 0 {
						continue
					}
					for _, bad := range []byte{'\f', '\v', 0, 0x19, 0x29, 0x2a, 0x89, 0xa0, 0x1d, 0x8d} {
						for _, at := range []int{n - 1, n / 2} {
							r := []byte(run)
							r[at] = bad
							// The bad run first, and last (after runs the
							// kernel learns as separators).
							last := strings.LastIndex(p.json, "W")
							for _, doc := range []string{
								strings.ReplaceAll(strings.Replace(p.json, "W", string(r), 1), "W", run),
								strings.ReplaceAll(p.json[:last], "W", run) + string(r) + strings.ReplaceAll(p.json[last+1:], "W", run),
							} {
								a := skipArgs{src: []byte(doc + "  "), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
								if _, ok := checkSkip(t, a); ok {
									t.Fatalf("%s run %d with %#x at %d: skipWhole(%q) took it", kind, n, bad, at, doc)
								}
								checkCopy(t, a)
							}
						}
					}
				}
			}
		})
	}
}

// TestSkipWhitespaceWindows reads pretty-printed arrays of objects in two
// windows cut at every length (checkSkipWindows, checkCopyWindows,
// checkSkipResume), so that a window ends in every run and the kernel
// takes over after it.
func TestSkipWhitespaceWindows(t *testing.T) {
	for _, indent := range []int{2, 17, 40} {
		t.Run(fmt.Sprintf("indent=%d", indent), func(t *testing.T) {
			in := "\n" + strings.Repeat(" ", indent)
			doc := "[" + in + `{"a":` + in + "1," + in + `"b":"c"}` + "," + in + `{"a":2}` + in + "]"
			a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
			for n := 1; n < len(doc); n++ {
				checkSkipResume(t, a, n)
				checkSkipWindows(t, a, []byte{byte(n - 1), 255})
				checkCopyWindows(t, a, []byte{byte(n - 1), 255})
			}
		})
	}
}
