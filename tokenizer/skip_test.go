package tokenizer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// skipArgs is one call of skipWhole, as SkipValue makes it for a Scanner
// Reset with maxDepth, limited to maxToken, depth containers deep.
type skipArgs struct {
	src                       []byte
	i                         int
	maxDepth, depth, maxToken int
}

func (a skipArgs) String() string {
	return fmt.Sprintf("src %q i %d maxDepth %d depth %d maxToken %d", a.src, a.i, a.maxDepth, a.depth, a.maxToken)
}

// scanner returns a fresh Scanner where SkipValue would offer src[i] to
// skipWhole: a value is expected, depth containers deep.
func (a skipArgs) scanner() *Scanner {
	var s Scanner
	s.Reset(a.maxDepth)
	s.SetMaxToken(a.maxToken)
	for range a.depth {
		if err := s.push(false, 0); err != nil {
			panic(err)
		}
	}
	s.state = stValue
	return &s
}

// checkSkip checks skipWhole (the kernel where it runs), its twin and value
// on one call: what the kernel takes, the twin takes with the same end, and
// where the kernel runs the two agree exactly, checkpoint included; what the
// twin takes, value takes with the same end; and SkipValue gives what value
// gives, end, verdict, error and, unless it is an error, the grammar state
// after (to resume in the next window). It returns the twin's verdict.
func checkSkip(t *testing.T, a skipArgs) (int, bool) {
	t.Helper()
	room := a.maxDepth - a.depth
	tEnd, tOK, tCk := skipWholeGeneric(a.src, a.i, room, a.maxToken, skipFrom{})
	kEnd, kOK, kCk := skipWhole(a.src, a.i, room, a.maxToken, skipFrom{})
	if kOK && (!tOK || kEnd != tEnd) || skipKernelRuns(a.maxToken) && (kOK != tOK || !kOK && kCk != tCk) {
		t.Fatalf("%v: kernel %d %v %+v, twin %d %v %+v", a, kEnd, kOK, kCk, tEnd, tOK, tCk)
	}
	v := a.scanner()
	vEnd, vDone, vErr := v.value(a.src, a.i, false)
	if tOK && (!vDone || vErr != nil || vEnd != tEnd) {
		t.Fatalf("%v: twin %d %v, value %d %v %v", a, tEnd, tOK, vEnd, vDone, vErr)
	}
	s := a.scanner()
	sEnd, sDone, sErr := s.SkipValue(a.src, a.i)
	if sEnd != vEnd || sDone != vDone || fmt.Sprint(sErr) != fmt.Sprint(vErr) {
		t.Fatalf("%v: SkipValue %d %v %v, value %d %v %v", a, sEnd, sDone, sErr, vEnd, vDone, vErr)
	}
	if vErr == nil && (s.depth != v.depth || s.state != v.state || s.inValue != v.inValue || s.base != v.base) {
		t.Fatalf("%v: after SkipValue depth %d state %d inValue %v base %d; after value %d %d %v %d",
			a, s.depth, s.state, s.inValue, s.base, v.depth, v.state, v.inValue, v.base)
	}
	return tEnd, tOK
}

// checkSkipWindows checks that SkipValue, which hands a value the kernel
// did not take to value at its checkpoint, reads the value at src[i] in
// windows cut by splits as value alone does: the same end and error, and
// the same grammar state after.
func checkSkipWindows(t *testing.T, a skipArgs, splits []byte) {
	t.Helper()
	doc := a.src[a.i:]
	s, v := a.scanner(), a.scanner()
	sEnd, _, sErr := scanRun(s, doc, splits, 0, func(out, w []byte) ([]byte, int, bool, error) {
		i, done, err := s.SkipValue(w, 0)
		return out, i, done, err
	})
	vEnd, _, vErr := scanRun(v, doc, splits, 0, func(out, w []byte) ([]byte, int, bool, error) {
		i, done, err := v.value(w, 0, false)
		return out, i, done, err
	})
	if sEnd != vEnd || fmt.Sprint(sErr) != fmt.Sprint(vErr) {
		t.Fatalf("%v splits %v: SkipValue end %d err %v, value end %d err %v", a, splits, sEnd, sErr, vEnd, vErr)
	}
	if vErr == nil && (s.depth != v.depth || s.state != v.state || s.inValue != v.inValue || s.base != v.base) {
		t.Fatalf("%v splits %v: after SkipValue depth %d state %d inValue %v base %d; after value %d %d %v %d",
			a, splits, s.depth, s.state, s.inValue, s.base, v.depth, v.state, v.inValue, v.base)
	}
}

// checkSkipDoc checks a value, doc, that skipWhole must take (valid) or
// refuse: whole, with 1 to 40 bytes after it, and cut at every length,
// under every kernel set; and read in two windows cut at every length, by
// SkipValue as by value, the kernel taking over from the cut where it falls
// between two tokens. Each is also copied, by AppendValue as by value
// (checkCopy, checkCopyWindows).
func checkSkipDoc(t *testing.T, doc string, valid bool) {
	t.Helper()
	eachKernelSet(t, func(t *testing.T) {
		a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
		if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
			t.Fatalf("skipWhole(%q) = %d %v, want valid %v", doc, end, ok, valid)
		}
		checkCopy(t, a)
		for n := 1; n <= 40; n++ {
			a.src = []byte(doc + strings.Repeat(" ]", n)[:n])
			if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
				t.Fatalf("skipWhole(%q) = %d %v, want valid %v", a.src, end, ok, valid)
			}
			checkCopy(t, a)
		}
		for n := 1; n < len(doc); n++ {
			a.src = []byte(doc[:n])
			if _, ok := checkSkip(t, a); ok {
				t.Fatalf("skipWhole(%q) took a cut value", a.src)
			}
			checkCopy(t, a)
		}
		a.src = []byte(doc)
		for n := 1; n < len(doc); n++ {
			checkSkipResume(t, a, n)
			checkSkipWindows(t, a, []byte{byte(n - 1), 255})
			checkCopyWindows(t, a, []byte{byte(n - 1), 255})
		}
	})
}

// long puts 70 bytes of plain text on each side of s, so that the string's
// content is read in blocks.
func long(s string) string {
	pad := strings.Repeat("ghijklmnop", 7) // no hex digits, so that \u123 stays short
	return pad + s + pad
}

var skipScalars = []struct {
	name  string
	json  string
	valid bool
}{
	{"string/empty", `""`, true},
	{"string/plain", `"abc def"`, true},
	{"string/escapes", `"\"\\\/\b\f\n\r\t"`, true},
	{"string/u-escapes", `"\u00e9\uD83D\uDE00\uABCD\uabcd"`, true},
	{"string/del", "\"\x7f\"", true},
	{"string/utf8", `"é日本😀"`, true},
	{"string/utf8-edges", "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"", true},
	{"string/bad-escape", `"\x"`, false},
	{"string/bad-escape-quote-end", `"\"`, false},
	{"string/bad-hex", `"\u12G4"`, false},
	{"string/short-hex", `"\u123"`, false},
	{"string/control-01", "\"a\x01\"", false},
	{"string/control-1f", "\"\x1f\"", false},
	{"string/newline", "\"a\nb\"", false},
	{"string/tab", "\"a\tb\"", false},
	{"string/nul", "\"\x00\"", false},
	{"string/overlong2", "\"\xc0\xaf\"", false},
	{"string/overlong2-c1", "\"\xc1\xbf\"", false},
	{"string/overlong3", "\"\xe0\x80\xaf\"", false},
	{"string/overlong3-9f", "\"\xe0\x9f\xbf\"", false},
	{"string/surrogate", "\"\xed\xa0\x80\"", false},
	{"string/surrogate-high", "\"\xed\xbf\xbf\"", false},
	{"string/overlong4", "\"\xf0\x8f\xbf\xbf\"", false},
	{"string/too-large", "\"\xf4\x90\x80\x80\"", false},
	{"string/f5", "\"\xf5\x80\x80\x80\"", false},
	{"string/ff", "\"\xff\"", false},
	{"string/lone-continuation", "\"\x80\"", false},
	{"string/cut-2", "\"\xc3(\"", false},
	{"string/cut-3", "\"\xe6\x97\"", false},
	{"string/cut-4", "\"\xf0\x9f\x98\"", false},
	{"string/extra-continuation", "\"\xc3\xa9\x80\"", false},
	{"number/zero", `0`, true},
	{"number/minus-zero", `-0`, true},
	{"number/int", `1234567890`, true},
	{"number/negative", `-17`, true},
	{"number/frac", `1.5`, true},
	{"number/exp", `1e5`, true},
	{"number/exp-plus", `1E+5`, true},
	{"number/exp-minus", `-0.0e-0`, true},
	{"number/long", `123456789012345678.123456789012345678e123456`, true},
	{"number/leading-zero", `01`, false},
	{"number/minus", `-`, false},
	{"number/dot-end", `1.`, false},
	{"number/dot-start", `.5`, false},
	{"number/exp-end", `1e`, false},
	{"number/exp-sign-end", `1e+`, false},
	{"number/plus", `+1`, false},
	{"number/minus-minus", `--1`, false},
	{"number/hex", `0x1`, false},
	{"number/dot-exp", `1.e5`, false},
	{"number/minus-letter", `-a`, false},
	{"literal/true", `true`, true},
	{"literal/false", `false`, true},
	{"literal/null", `null`, true},
	{"literal/tru", `tru`, false},
	{"literal/nul", `nul`, false},
	{"literal/fals", `fals`, false},
	{"literal/truex", `truex`, false},
	{"literal/nulll", `nulll`, false},
	{"literal/True", `True`, false},
}

var skipContainers = []struct {
	name  string
	json  string
	valid bool
}{
	{"empty-object", `{}`, true},
	{"empty-array", `[]`, true},
	{"object", `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, true},
	{"array", `[1,"a",{},[],[[]],{"x":{}}]`, true},
	{"whitespace", "{ \t\n\r\"a\" \t\n\r: \t\n\r[ \t\n\r1 \t\n\r, \t\n\r2 \t\n\r] \t\n\r}", true},
	{"indented", "{\n    \"a\": [\n        1,\n        2\n    ],\n    \"b\": {\n        \"c\": \"d\"\n    }\n}", true},
	{"numbers", `[0,-1,2.5,3e4,-5.5E-6, 7 ,8]`, true},
	{"trailing-comma-object", `{"a":1,}`, false},
	{"trailing-comma-array", `[1,]`, false},
	{"leading-comma", `[,1]`, false},
	{"no-colon", `{"a" 1}`, false},
	{"number-key", `{1:2}`, false},
	{"no-comma-object", `{"a":1 "b":2}`, false},
	{"no-comma-array", `[1 2]`, false},
	{"array-closed-by-brace", `[}`, false},
	{"object-closed-by-bracket", `{]`, false},
	{"mismatch-inner", `{"a":[}]}`, false},
	{"colon-in-array", `[1:2]`, false},
	{"double-colon", `{"a"::1}`, false},
	{"missing-value", `{"a":}`, false},
	{"bare-word", `[x]`, false},
	{"form-feed", "[\f1]", false},
	{"nbsp", "[\xc2\xa01]", false},
	{"key-escape", `{"a\"b":1}`, true},
	{"key-bad-utf8", "{\"\xff\":1}", false},
}

// TestSkipWhole checks skipWhole, its twin, value and SkipValue against each
// other (checkSkip) on valid and invalid values of every kind, whole, with
// bytes after them and cut at every length: each scalar in an array and as
// a member, short and in a string read in blocks.
func TestSkipWhole(t *testing.T) {
	for _, c := range skipContainers {
		t.Run(c.name, func(t *testing.T) { checkSkipDoc(t, c.json, c.valid) })
	}
	for _, c := range skipScalars {
		t.Run(c.name, func(t *testing.T) {
			forms := []struct{ name, doc string }{
				{"element", "[" + c.json + "]"},
				{"member", `{"key": ` + c.json + `}`},
				{"between", "[1," + c.json + ",2]"},
			}
			if c.json[0] == '"' {
				s := `"` + long(c.json[1:len(c.json)-1]) + `"`
				forms = append(forms, struct{ name, doc string }{"long-element", "[" + s + "]"}, struct{ name, doc string }{"long-key", "{" + s + ":0}"})
			}
			for _, f := range forms {
				t.Run(f.name, func(t *testing.T) { checkSkipDoc(t, f.doc, c.valid) })
			}
		})
	}
}

// TestSkipWholeDepth checks the depth limits: 64 containers open at once
// at most (the kernel's stack), and no more than the Scanner's maxDepth.
func TestSkipWholeDepth(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(strings.Repeat(`[{"a":`, n/2) + strings.Repeat("[", n%2) + "0" + strings.Repeat("]", n%2) + strings.Repeat("}]", n/2))
	}
	for _, c := range []struct {
		n, maxDepth, depth int
		ok                 bool
	}{
		{63, 0, 0, true}, {64, 0, 0, true}, {65, 0, 0, false},
		{64, 0, 5, true}, {64, 68, 4, true}, {64, 68, 5, false},
		{9, 10, 0, true}, {10, 10, 0, true}, {11, 10, 0, false},
		{7, 10, 3, true}, {8, 10, 3, false}, {1, 10, 9, true}, {1, 10, 10, false},
	} {
		t.Run(fmt.Sprintf("n=%d/maxDepth=%d/depth=%d", c.n, c.maxDepth, c.depth), func(t *testing.T) {
			eachKernelSet(t, func(t *testing.T) {
				maxDepth := c.maxDepth
				if maxDepth == 0 {
					maxDepth = DefaultMaxDepth
				}
				a := skipArgs{src: nest(c.n), maxDepth: maxDepth, depth: c.depth, maxToken: 100}
				if end, ok := checkSkip(t, a); ok != c.ok || ok && end != len(a.src) {
					t.Fatalf("skipWhole = %d %v, want %v", end, ok, c.ok)
				}
			})
		})
	}
}

// TestSkipWholeTokenLimit checks the token limit at ± 1: a string (key or
// value, short or read in blocks) or number of exactly maxToken bytes is
// taken, one byte longer is not.
func TestSkipWholeTokenLimit(t *testing.T) {
	for _, c := range []struct{ name, token, doc string }{
		{"string", `"abcdefghij"`, `[%s]`},
		{"string-escaped", `"ab\u00e9\n日本"`, `[%s]`},
		{"string-long", `"` + long(`\"é`) + `"`, `[%s]`},
		{"key", `"abcdefghij"`, `{%s:1}`},
		{"key-long", `"` + long("日本") + `"`, `{%s:1}`},
		{"number", `-12345.678e+90`, `[%s]`},
		{"number-in-array", `12345`, `[1,%s,2]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			eachKernelSet(t, func(t *testing.T) {
				doc := []byte(fmt.Sprintf(c.doc, c.token))
				for _, d := range []int{-1, 0, 1} {
					a := skipArgs{src: doc, maxDepth: DefaultMaxDepth, maxToken: len(c.token) + d}
					if _, ok := checkSkip(t, a); ok != (d >= 0) {
						t.Fatalf("maxToken %d, token of %d bytes: took %v", a.maxToken, len(c.token), ok)
					}
				}
			})
		})
	}
}

// checkSkipResume reads the value at src[i] with value in a first window of
// cut bytes, and, where that window ends between two of its tokens, checks
// that the kernel and its twin agree on the rest of src, from the Scanner's
// state there (as skipInside calls them), checkpoint included.
func checkSkipResume(t *testing.T, a skipArgs, cut int) {
	t.Helper()
	doc := a.src[a.i:]
	if cut <= 0 || cut >= len(doc) {
		return
	}
	v := a.scanner()
	if _, done, err := v.value(doc[:cut], 0, false); done || err != nil || v.state > stNext {
		return
	}
	d := v.depth - v.base
	if d <= 0 || d > maxSkipDepth {
		return
	}
	var stack uint64
	for k := range d {
		l := v.depth - 1 - k
		stack |= v.kinds[l>>6] >> (l & 63) & 1 << k
	}
	from := skipFrom{stack, d, skipEntry[v.state]}
	rest := doc[cut:]
	tEnd, tOK, tCk := skipWholeGeneric(rest, 0, v.maxDepth-v.base, v.maxToken, from)
	kEnd, kOK, kCk := skipWhole(rest, 0, v.maxDepth-v.base, v.maxToken, from)
	if kOK && (!tOK || kEnd != tEnd) || skipKernelRuns(v.maxToken) && (kOK != tOK || !kOK && kCk != tCk) {
		t.Fatalf("%v cut %d from %+v: kernel %d %v %+v, twin %d %v %+v", a, cut, from, kEnd, kOK, kCk, tEnd, tOK, tCk)
	}
}

// skipSeeds are values for FuzzSkipWhole: the tables' (whitespace runs,
// UTF-8 sequences in text and number forms among them), and containers of up to 2 KB
// from the corpus.
func skipSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	for _, c := range skipContainers {
		seeds = append(seeds, []byte(c.json))
	}
	for _, c := range skipScalars {
		seeds = append(seeds, []byte(`{"k":[`+c.json+`]}`))
	}
	for _, p := range wsPlaces {
		seeds = append(seeds, []byte(strings.ReplaceAll(p.json, "W", "\n"+strings.Repeat(" ", 30))))
	}
	for _, q := range utf8Sequences {
		seeds = append(seeds, []byte(`["`+strings.Repeat("日本", 3)+q.seq+strings.Repeat("語", 12)+`"]`))
	}
	every := 0
	utf8BlockDocs(func(doc string, _ bool) { // UTF-8 at every offset of the blocks (skip_utf8block_test.go)
		if every++; every%61 == 0 {
			seeds = append(seeds, []byte(doc))
		}
	})
	for _, in := range strInserts { // the member chains and the \u runs (skip_str8_test.go)
		seeds = append(seeds,
			[]byte(`{"ab":"cd","e":"`+in.seq+`","fg": "h`+in.seq+`", "i": 1,"j":["k","`+in.seq+`"]}`),
			[]byte(`["`+strings.Repeat(`\u30a2`, 7)+in.seq+strings.Repeat(`\u00E9`, 3)+`"]`))
	}
	for i, st := range sepStyles { // separators of 17 to 32 bytes and more, tried after opens and before closes (skip_sep_test.go)
		seeds = append(seeds, []byte(prettyDoc(st, 3+2*i)))
	}
	for _, f := range mantissaForms { // the mantissa by masks (skip_number9_test.go)
		num := strings.ReplaceAll(f.num, "D", "1234")
		seeds = append(seeds, []byte("[-65.613616999999977,"+num+",43.4,\n        "+num+", \n        0.5]"))
	}
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github_events", "update-center", "flow_document", "mesh.pretty"} {
		doc := corpus.File(tb, name+".json")
		n := 0
		for i := 1; i < len(doc) && n < 4; i++ {
			if doc[i] != '{' && doc[i] != '[' {
				continue
			}
			if end, ok, _ := skipWholeGeneric(doc, i, maxSkipDepth, 1<<30, skipFrom{}); ok && end-i >= 100 && end-i <= 2048 {
				seeds = append(seeds, doc[i:end])
				i, n = end, n+1
			}
		}
	}
	return seeds
}

// FuzzSkipWhole checks the kernel, its twin, value and SkipValue against
// each other (checkSkip) for any bytes, start, limits and depth; the copy
// kernel and AppendValue against value with copy (checkCopy); SkipValue and
// AppendValue against value over windows cut by splits (checkSkipWindows,
// checkCopyWindows); and the
// kernel against its twin from a window's cut (checkSkipResume).
func FuzzSkipWhole(f *testing.F) {
	for _, seed := range skipSeeds(f) {
		f.Add(seed, uint16(0), uint16(0), uint8(0), uint8(0), []byte{})
		f.Add(append(bytes.Clone(seed), " ,]"...), uint16(0), uint16(20), uint8(12), uint8(3), []byte{40, 7})
	}
	f.Fuzz(checkWhole)
}

// checkWhole is the body of FuzzSkipWhole and FuzzWholeGo: the value at
// start (a container, or nothing is checked) by every check of skip and copy,
// whole, over windows cut by splits and resumed at each cut.
func checkWhole(t *testing.T, src []byte, start, maxToken uint16, maxDepth, depth uint8, splits []byte) {
	if len(src) == 0 {
		return
	}
	a := skipArgs{src: src, i: int(start) % len(src), maxDepth: int(maxDepth), maxToken: int(maxToken)}
	if a.src[a.i] != '{' && a.src[a.i] != '[' {
		return
	}
	if a.maxDepth == 0 {
		a.maxDepth = DefaultMaxDepth
	}
	a.depth = min(int(depth), a.maxDepth)
	if a.maxToken == 0 {
		a.maxToken = 1 << 30
	}
	checkSkip(t, a)
	checkCopy(t, a)
	checkSkipWindows(t, a, splits)
	checkCopyWindows(t, a, splits)
	for _, c := range splits {
		checkSkipResume(t, a, int(c))
	}
}
