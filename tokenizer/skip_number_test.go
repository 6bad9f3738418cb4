package tokenizer

import (
	"strings"
	"testing"
)

// TestSkipNumberRuns checks the kernels' digit runs (16 bytes a compare
// where 16 remain, a word or a byte at a time after) against the twin and
// value (checkSkip, checkCopy): integer, fraction and exponent digits of
// every length from 1 to 40, ended by each byte that may follow a number,
// and by the bytes next to the digits ('/' and ':'), which no reader may
// take; whole, with bytes after, and cut by the window's end.
func TestSkipNumberRuns(t *testing.T) {
	digits := strings.Repeat("1234567890", 5)
	for _, form := range []struct{ name, num string }{
		{"int", "9D"}, {"negative", "-9D"}, {"frac", "0.D"}, {"exp", "1e-D"}, {"all", "-1D.D5E+D"},
	} {
		t.Run(form.name, func(t *testing.T) {
			for n := 1; n <= 40; n++ {
				num := strings.ReplaceAll(form.num, "D", digits[:n])
				for _, c := range []struct {
					end   string
					valid bool
				}{
					{",0]", true}, {"]", true}, {" ]", true}, {"\n]", true},
					{"/]", false}, {":]", false}, {"a]", false}, {".]", false},
				} {
					doc, valid := "["+num+c.end, c.valid
					a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if got, ok := checkSkip(t, a); ok != valid || ok && got != len(doc) {
						t.Fatalf("skipWhole(%q) = %d %v, want valid %v", doc, got, ok, valid)
					}
					checkCopy(t, a)
					a.src = []byte(doc + strings.Repeat(" ", 20))
					checkSkip(t, a)
					checkCopy(t, a)
					if c.end != ",0]" {
						continue
					}
					for cut := 1; cut < len(doc); cut++ {
						a.src = []byte(doc[:cut])
						if _, ok := checkSkip(t, a); ok {
							t.Fatalf("skipWhole(%q) took a cut value", a.src)
						}
						checkCopy(t, a)
					}
				}
			}
		})
	}
}
