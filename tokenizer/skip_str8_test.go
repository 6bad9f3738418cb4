package tokenizer

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// validJSON is the verdict of a reference that does not share our code:
// encoding/json's grammar, and UTF-8 that it does not check.
func validJSON(doc string) bool {
	return json.Valid([]byte(doc)) && utf8.ValidString(doc)
}

// checkSkipVerdict runs checkSkip and checkCopy on doc and compares the
// verdict with validJSON's.
func checkSkipVerdict(t *testing.T, doc string) {
	t.Helper()
	a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
	valid := validJSON(doc)
	if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
		t.Fatalf("skipWhole(%q) = %d %v, want valid %v", doc, end, ok, valid)
	}
	checkCopy(t, a)
}

// strInserts are the sequences TestSkipStringLengths puts in a string: an
// escape of each kind, a bad one, control bytes, and UTF-8 valid, overlong,
// surrogate and cut.
var strInserts = []struct{ name, seq string }{
	{"escape-n", `\n`},
	{"escape-quote", `\"`},
	{"escape-backslash", `\\`},
	{"escape-u", `\u12aB`},
	{"escape-u-bad-G", `\u12G4`},
	{"escape-u-short", `\u12a`},
	{"escape-x", `\x`},
	{"backslashes-3-quote", `\\\"`},
	{"control-1f", "\x1f"},
	{"control-01", "\x01"},
	{"del", "\x7f"},
	{"two-byte", "é"},
	{"three-byte", "日"},
	{"four-byte", "😀"},
	{"overlong", "\xc0\x80"},
	{"surrogate", "\xed\xa0\x80"},
	{"cut", "\xe6\x97"},
	{"lone-continuation", "\x80"},
}

// TestSkipStringLengths puts each insert at every position of an ASCII
// string of every length from 0 to 200, as a value and as a key: the
// kernels' blocks (32 bytes, the \u run's 32) meet it at every offset and
// with every number of bytes left. Kernel, twin, value, SkipValue and the
// copy agree (checkSkip, checkCopy), and with encoding/json's verdict.
func TestSkipStringLengths(t *testing.T) {
	filler := strings.Repeat("abcdefghij klmnopq/rstuvwxyz ", 8)
	for _, in := range strInserts {
		t.Run(in.name, func(t *testing.T) {
			for n := 0; n <= 200; n++ {
				for p := 0; p <= n; p += 1 + n/64 {
					content := filler[:p] + in.seq + filler[p:n]
					checkSkipVerdict(t, `["`+content+`"]`)
					checkSkipVerdict(t, `{"`+content+`":1}`)
				}
			}
		})
	}
}

// TestSkipEscapeRuns checks runs of 1 to 12 \uXXXX escapes (the kernel takes
// up to 5 at a time by the block) after 0 to 40 bytes of text, before 0 to
// 40 more, and with one byte of the run made something else at every place:
// a letter past 'f' or before 'a' in each case, the bytes beside the digits
// and the letters, a quote, a backslash, a control byte, a byte from 0x80.
// Each is cut by the window's end at every byte of the run too.
func TestSkipEscapeRuns(t *testing.T) {
	hex := []string{"30a2", "00FF", "d83D", "9fAf", "0000", "ffff", "7e5b", "ABCD"}
	bad := []byte{'g', 'G', '@', '`', '/', ':', '"', '\\', 0x01, 0x80, 'u', ' '}
	for k := 1; k <= 12; k++ {
		var run strings.Builder
		for j := range k {
			run.WriteString(`\u` + hex[j%len(hex)])
		}
		r := run.String()
		for _, before := range []int{0, 1, 5, 26, 31, 32, 40} {
			for _, after := range []int{0, 1, 6, 25, 26, 40} {
				pre, post := strings.Repeat("x", before), strings.Repeat("y", after)
				checkSkipVerdict(t, `["`+pre+r+post+`"]`)
				checkSkipVerdict(t, `{"`+pre+r+post+`":[]}`)
				if after != 6 {
					continue
				}
				for i := range len(r) {
					for _, b := range bad {
						m := []byte(r)
						m[i] = b
						checkSkipVerdict(t, `["`+pre+string(m)+post+`"]`)
					}
				}
				doc := `["` + pre + r + post + `"]`
				for cut := 2 + before; cut < len(doc); cut++ {
					a := skipArgs{src: []byte(doc[:cut]), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if _, ok := checkSkip(t, a); ok {
						t.Fatalf("skipWhole(%q) took a cut value", a.src)
					}
					checkCopy(t, a)
				}
			}
		}
	}
}

// TestSkipEscapeRunsWindows reads runs of escapes in two windows cut at
// every length: the kernel resumes after the cut as value does.
func TestSkipEscapeRunsWindows(t *testing.T) {
	doc := `{"a":"` + strings.Repeat(`\u65e5\u672C`, 9) + `","b":["x\u00e9` + strings.Repeat(`\u0041`, 7) + `"]}`
	checkSkipDoc(t, doc, true)
	checkSkipDoc(t, strings.Replace(doc, `\u672C`, `\u672X`, 5), false)
}

// TestSkipMemberChains checks the kernels' `"key":"`, `"key": "` and `","`
// steps, which go from one string to the next within a block, and the step
// from `"key":` to a value of another kind: objects of three members
// and arrays of three strings, each key and value 0 to 40 bytes long, so
// that the step meets the block's end at every offset; with the strings'
// neighbours made something else (a space, the wrong bracket, a number, a
// bad byte in the next string), with every kind of insert in the second
// string, and cut by the window's end after the first string.
func TestSkipMemberChains(t *testing.T) {
	text := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH", 2)
	for k := 0; k <= 40; k++ {
		for v := 0; v <= 40; v++ {
			key, val := text[:k], text[k:k+v]
			docs := []string{
				`{"` + key + `":"` + val + `","` + val + `":"` + key + `","z":"` + val + `"}`,
				`["` + key + `","` + val + `","` + key + `"]`,
				`[{"` + key + `":"` + val + `"},["` + val + `","` + key + `"]]`,
				`{"` + key + `":"` + val + `",` + `"":1}`,
				`{"` + key + `":"` + val + `": "x"}`,
				`{"` + key + `": "` + val + `","a":"b"}`,
				`{"` + key + `":"` + val + `" ,"a":"b"}`,
				`{"` + key + `":"` + val + `","a":"b"]`,
				`["` + key + `","` + val + `"}`,
				`["` + key + `":"` + val + `"]`,
				`{"` + key + `","` + val + `"}`,
				`{"` + key + `":"` + val + "\x01" + `"}`,
				`{"` + key + `":"` + val + `\u00e9\n"}`,
				`{"` + key + `":"` + val + `\u00g9"}`,
				`["` + key + `","` + val + "é" + `"]`,
				`["` + key + `","` + val + "\xff" + `"]`,
				`{"` + key + `": "` + val + `", "` + val + `": "` + key + `"}`,
				`{"` + key + `":  "` + val + `"}`,
				`{"` + key + `": ` + "\t" + `"` + val + `"}`,
				`{"` + key + `":1,"` + val + `":{"` + key + `":[]}}`,
				`{"` + key + `": 1, "` + val + `": true}`,
				`{"` + key + `":` + "\n" + `"` + val + `"}`,
				`{"` + key + `": }`,
				`{"` + key + `":}`,
				`{"` + key + `" : "` + val + `"}`,
				`{"` + key + `": "` + val + `\"x"}`,
			}
			for _, doc := range docs {
				checkSkipVerdict(t, doc)
			}
			for _, doc := range []string{docs[0], docs[16]} {
				for cut := 2 + k; cut < min(len(doc), 2+k+v+12); cut++ {
					a := skipArgs{src: []byte(doc[:cut]), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if _, ok := checkSkip(t, a); ok {
						t.Fatalf("skipWhole(%q) took a cut value", a.src)
					}
					checkCopy(t, a)
				}
			}
		}
	}
}

// TestSkipMemberChainsLimits checks the token limit on strings that the
// chained steps end: a key or a value one byte over the limit is refused
// wherever it falls (the other strings are empty).
func TestSkipMemberChainsLimits(t *testing.T) {
	for n := 0; n <= 34; n++ {
		s := strings.Repeat("k", n)
		for _, doc := range []string{`{"` + s + `":"","":""}`, `{"":"` + s + `","":""}`, `["` + s + `",""]`, `["","` + s + `",""]`} {
			for _, limit := range []int{n + 1, n + 2, n + 3} {
				a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: limit}
				_, ok := checkSkip(t, a)
				want := limit >= n+2 // a string of n bytes is n+2 long with its quotes, the others 2
				if ok != want {
					t.Fatalf("skipWhole(%q) limit %d = %v, want %v", doc, limit, ok, want)
				}
				checkCopy(t, a)
			}
		}
	}
}

// TestSkipMemberChainsWindows reads a document of short members in two
// windows cut at every length, so that SkipValue resumes the kernel from
// the checkpoint that `","` writes.
func TestSkipMemberChainsWindows(t *testing.T) {
	checkSkipDoc(t, `{"a":"b","cd":"ef","g":["h","ij",""],"k":{"l":"m","":""},"n":"o"}`, true)
	checkSkipDoc(t, `{"a":"b","cd":"ef","g":["h","ij",""],"k":{"l":"m","":""},"n":"o",}`, false)
	checkSkipDoc(t, `{"a": "b", "cd": "ef", "g": ["h", "ij"], "k": {"l": 1, "": ""}}`, true)
}
