package tokenizer

import (
	"fmt"
	"strings"
	"testing"
)

// tokenForms are documents whose longest token is the string s, begun
// where the block of the string before it (p bytes of it) puts it: the
// kernels check the length of a string that ends in a block only where
// it may be long (strLoop's blocks, strStopLong), none in the first block
// after its quote or in the block after a chain (strShort). Each form
// reaches s by another way: a chain of `","`, of `":"` to a value or from
// a value to a key, ": " before a value, '{' and '[' before it (its first
// block at its quote), and s after an escape or a UTF-8 sequence (the
// block after them is strLoop's).
var tokenForms = []struct {
	name string
	doc  func(p, s string) string
}{
	{"array-chain", func(p, s string) string { return `["` + p + `","` + s + `"]` }},
	{"key-value-chain", func(p, s string) string { return `{"` + p + `":"` + s + `","":""}` }},
	{"value-key-chain", func(p, s string) string { return `{"":"` + p + `","` + s + `":""}` }},
	{"key-space-value", func(p, s string) string { return `{"` + p + `": "` + s + `"}` }},
	{"key-first", func(p, s string) string { return `{"` + s + `":"` + p + `"}` }},
	{"value-first", func(p, s string) string { return `[` + strings.Repeat(" ", len(p)) + `"` + s + `"]` }},
	{"after-escape", func(p, s string) string { return `["` + p + `\n` + s + `"]` }},
	{"after-utf8", func(p, s string) string { return `["` + p + `é` + s + `"]` }},
	{"after-escape-key", func(p, s string) string { return `{"` + p + `\t` + s + `":1}` }},
}

// TestSkipTokenLimits checks the token limit on strings of 0 to 200 bytes
// begun at every offset of the block before them, by every way: with
// maxToken one byte under the longest token the value is refused, with the
// token's length and one more it is taken (checkSkip: kernel, twin, value
// and SkipValue agree; checkCopy: the copy kernel too). The kernels run
// only from skipMinToken on; smaller limits are value's (as without AVX2).
func TestSkipTokenLimits(t *testing.T) {
	for _, f := range tokenForms {
		t.Run(f.name, func(t *testing.T) {
			for n := 0; n <= 200; n++ {
				s := strings.Repeat("s", n)
				for q := 0; q <= 65; q++ {
					doc := f.doc(strings.Repeat("p", q), s)
					long := longestToken(doc)
					for _, limit := range []int{long - 1, long, long + 1, skipMinToken} {
						if limit < skipMinToken {
							continue
						}
						a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: limit}
						end, ok := checkSkip(t, a)
						if want := limit >= long; ok != want || ok && end != len(doc) {
							t.Fatalf("skipWhole(%q) limit %d (longest token %d) = %d %v, want %v", doc, limit, long, end, ok, want)
						}
						checkCopy(t, a)
					}
				}
			}
		})
	}
}

// longestToken is the length of doc's longest string with its quotes, or
// of its longest number (doc's strings hold no quote; escapes count as
// their bytes).
func longestToken(doc string) int {
	long := 0
	for i := 0; i < len(doc); i++ {
		j := i
		switch {
		case doc[i] == '"':
			j = i + 1 + strings.IndexByte(doc[i+1:], '"') + 1
		case doc[i] >= '0' && doc[i] <= '9':
			for j < len(doc) && doc[j] >= '0' && doc[j] <= '9' {
				j++
			}
		default:
			continue
		}
		long = max(long, j-i)
		i = j - 1
	}
	return long
}

// TestSkipTokenLimitsWindows reads the long-string forms in two windows cut
// at every length with the limit just under and at the longest token: the
// kernel taking over at a cut between tokens, value elsewhere, agree with
// value alone.
func TestSkipTokenLimitsWindows(t *testing.T) {
	for _, f := range tokenForms {
		for _, n := range []int{30, 62, 63, 64, 95, 126, 127, 128, 160} {
			doc := f.doc(strings.Repeat("p", 7), strings.Repeat("s", n))
			long := longestToken(doc)
			for _, limit := range []int{long - 1, long} {
				if limit < skipMinToken {
					continue
				}
				t.Run(fmt.Sprintf("%s/%d/limit-%d", f.name, n, limit), func(t *testing.T) {
					a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: limit}
					for cut := 1; cut < len(doc); cut++ {
						checkSkipWindows(t, a, []byte{byte(cut - 1), 255})
					}
				})
			}
		}
	}
}

// TestSkipKernelMinToken checks that below skipMinToken the kernels take
// nothing (value reads), and from it on they run where there is a kernel.
func TestSkipKernelMinToken(t *testing.T) {
	doc := []byte(`{"a":"b"}`)
	kernel := skipKernelRuns(1 << 30)
	for _, limit := range []int{1, skipMinToken - 1, skipMinToken} {
		want := kernel && limit >= skipMinToken
		if _, ok, _ := skipWhole(doc, 0, DefaultMaxDepth, limit, skipFrom{}); ok != want {
			t.Errorf("skipWhole limit %d = %v, want %v", limit, ok, want)
		}
		if _, _, ok, _ := copyWhole(make([]byte, 0, 64), doc, 0, DefaultMaxDepth, limit, skipFrom{}); ok != want {
			t.Errorf("copyWhole limit %d = %v, want %v", limit, ok, want)
		}
		if skipKernelRuns(limit) != want {
			t.Errorf("skipKernelRuns(%d) = %v, want %v", limit, skipKernelRuns(limit), want)
		}
	}
}
