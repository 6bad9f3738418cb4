package tokenizer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// oracle says whether doc is valid JSON by RFC 8259 and RFC 3629, with the
// standard library, which shares no code with the scanner. (encoding/json
// alone lets invalid UTF-8 through; a byte >= 0x80 can only be valid inside a
// string, so utf8.Valid on the whole document is the missing half.)
func oracle(doc []byte) bool { return json.Valid(doc) && utf8.Valid(doc) }

// byValue scans doc as one top-level value with Peek and SkipValue or
// AppendValue, window by window, and returns the compacted copy.
func byValue(doc []byte, window int, copy bool) ([]byte, error) {
	return byValueAt(doc, windowEnds(len(doc), window), copy)
}

// windowEnds returns where the windows of size window end in a document of
// n bytes.
func windowEnds(n, window int) []int {
	var ends []int
	for off := window; off < n; off += window {
		ends = append(ends, off)
	}
	return append(ends, n)
}

// byValueAt is byValue with windows that end at ends, the last being
// len(doc).
func byValueAt(doc []byte, ends []int, copy bool) ([]byte, error) {
	var s Scanner
	s.Reset(0)
	var out []byte
	started, done := false, false
	for k := range ends {
		off := 0
		if k > 0 {
			off = ends[k-1]
		}
		w := doc[off:ends[k]]
		s.SetBase(int64(off))
		i := 0
		for i < len(w) {
			var err error
			if done || !started {
				var k Kind
				if k, i, err = s.Peek(w, i); err != nil {
					return out, err
				}
				if k == None {
					break
				}
				started = true
			}
			if copy {
				out, i, done, err = s.AppendValue(out, w, i)
			} else {
				i, done, err = s.SkipValue(w, i)
			}
			if err != nil {
				return out, err
			}
		}
	}
	s.SetBase(0)
	return out, s.End(len(doc))
}

// byToken scans doc with Next, window by window, and returns the tokens'
// bytes, pieces joined, without whitespace or punctuation.
func byToken(doc []byte, window int) ([]byte, error) {
	return byTokenAt(doc, windowEnds(len(doc), window))
}

// byTokenAt is byToken with windows that end at ends, the last being
// len(doc).
func byTokenAt(doc []byte, ends []int) ([]byte, error) {
	var s Scanner
	s.Reset(0)
	var out []byte
	for k := range ends {
		off := 0
		if k > 0 {
			off = ends[k-1]
		}
		w := doc[off:ends[k]]
		s.SetBase(int64(off))
		for i := 0; i < len(w); {
			t, j, err := s.Next(w, i)
			if err != nil {
				return out, err
			}
			if t.Kind == None {
				break
			}
			out = append(out, w[t.Start:t.End]...)
			i = j
		}
	}
	s.SetBase(0)
	return out, s.End(len(doc))
}

func suiteFiles(t *testing.T) map[string][]byte {
	files, _ := filepath.Glob("../testdata/jsontestsuite/test_parsing/*.json")
	if len(files) < 300 {
		t.Fatalf("JSONTestSuite: %d files", len(files))
	}
	docs := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(f)] = b
	}
	return docs
}

// TestAgainstOracle checks every JSONTestSuite file, and damaged variants of
// the valid ones, with both ways of scanning at several window sizes: valid
// exactly when the standard library says so, and AppendValue's copy is
// json.Compact's output.
func TestAgainstOracle(t *testing.T) { eachKernelSet(t, testAgainstOracle) }

func testAgainstOracle(t *testing.T) {
	docs := suiteFiles(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for name, doc := range docs {
		if !strings.HasPrefix(name, "y_") {
			continue
		}
		for k := range 8 {
			d := append([]byte{}, doc...)
			if len(d) > 0 {
				i := rng.IntN(len(d))
				const noise = "{}[]\",:\\ 0e-.tfnu\x00\x7f\x80\xc2\xe0\xed\xf4\xff"
				d[i] = noise[rng.IntN(len(noise))]
			}
			docs[name+"/damaged"+string(rune('0'+k))] = d
		}
	}
	for name, doc := range docs {
		want := oracle(doc)
		if strings.HasPrefix(name, "n_") || strings.HasPrefix(name, "y_") && !strings.Contains(name, "/") {
			if want != strings.HasPrefix(name, "y_") {
				t.Fatalf("%s: the oracle disagrees with JSONTestSuite", name)
			}
		}
		var compact bytes.Buffer
		if want {
			json.Compact(&compact, doc)
		}
		for _, window := range []int{1, 2, 3, 5, 8, 13, len(doc) + 1} {
			out, err := byValue(doc, window, true)
			if (err == nil) != want {
				t.Errorf("%s: AppendValue at window %d: err %v, valid %v", name, window, err, want)
			} else if want && !bytes.Equal(out, compact.Bytes()) {
				t.Errorf("%s: AppendValue at window %d copied %q, want %q", name, window, out, compact.Bytes())
			}
			if _, err := byToken(doc, window); (err == nil) != want {
				t.Errorf("%s: Next at window %d: err %v, valid %v", name, window, err, want)
			}
		}
	}
}

// TestErrorOffsets checks that errors point at the byte at fault, at every
// window size.
func TestErrorOffsets(t *testing.T) { eachKernelSet(t, testErrorOffsets) }

func testErrorOffsets(t *testing.T) {
	for _, c := range []struct {
		doc    string
		offset int64
		msg    string
	}{
		{`{"a":1,}`, 7, `invalid character '}' looking for beginning of object key string`},
		{`[1,2,]`, 5, `invalid character ']' looking for beginning of value`},
		{`{"a" 1}`, 5, `invalid character '1' after object key`},
		{`[1 2]`, 3, `invalid character '2' after array element`},
		{`{"a":1 "b"}`, 7, `invalid character '"' after object key:value pair`},
		{`"ab` + "\x01" + `"`, 3, `invalid character '\x01' in string literal`},
		{`"a\qb"`, 3, `invalid character 'q' in string escape code`},
		{`"\u12G4"`, 5, `invalid character 'G' in \u hexadecimal character escape`},
		{"\"\xe0\x80\x80\"", 1, `invalid UTF-8 byte '\xe0' in string`},
		{"\"\xed\xa0\x80\"", 1, `invalid UTF-8 byte '\xed' in string`},
		{"\"\xf4\x90\x80\x80\"", 1, `invalid UTF-8 byte '\xf4' in string`},
		{"\"\xc0\xaf\"", 1, `invalid UTF-8 byte '\xc0' in string`},
		{`[-]`, 2, `invalid character ']' in numeric literal`},
		{`[1.]`, 3, `invalid character ']' after decimal point in numeric literal`},
		{`[1e+]`, 4, `invalid character ']' in exponent of numeric literal`},
		{`[nul]`, 4, `invalid character ']' in literal null (expecting 'l')`},
		{`[1] 2`, 4, `invalid character '2' after top-level value`},
		{`[[1]`, 4, `unexpected end of JSON input`},
		{`"abc`, 4, `unexpected end of JSON input`},
	} {
		for _, window := range []int{1, 2, 3, 100} {
			_, err := byValue([]byte(c.doc), window, false)
			te, ok := err.(*Error)
			if !ok || te.Offset != c.offset || te.Msg != c.msg {
				t.Errorf("%q at window %d: %v, want %q at offset %d", c.doc, window, err, c.msg, c.offset)
			}
		}
	}
}

// TestSWAR compares the word-at-a-time tests with byte-by-byte ones on every
// byte value in every position.
func TestSWAR(t *testing.T) {
	naive := func(w [8]byte, f func(byte) bool) int {
		for i, c := range w {
			if f(c) {
				return i
			}
		}
		return 8
	}
	first := func(m uint64) int {
		for i := range 8 {
			if m>>(8*i+7)&1 != 0 {
				return i
			}
		}
		return 8
	}
	// stringStops, exhaustively: every byte at every position among plain
	// bytes, and pairs of the bytes around its bounds, where a borrow from one
	// byte could flag the next.
	edges := []byte{0x00, 0x01, 0x02, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xa0, 0xa1, 0xa2, 0xfe, 0xff}
	for p := range 8 {
		for c := range 256 {
			for _, d := range append(edges, 'a') {
				w := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
				w[p] = byte(c)
				if p < 7 {
					w[p+1] = d
				}
				x := binary.LittleEndian.Uint64(w[:])
				if got, want := first(stringStops(x)), naive(w, func(c byte) bool { return !plain[c] }); got != want {
					t.Fatalf("stringStops(%q) = %d, want %d", w, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var w [8]byte
		for i := range w {
			w[i] = byte(rng.IntN(256))
			switch rng.IntN(4) {
			case 0:
				w[i] = 'a'
			case 1:
				w[i] = byte('0' + rng.IntN(10))
			}
		}
		x := uint64(0)
		for i := 7; i >= 0; i-- {
			x = x<<8 | uint64(w[i])
		}
		if got, want := first(stringStops(x)), naive(w, func(c byte) bool { return !plain[c] }); got != want {
			t.Fatalf("stringStops(%q) = %d, want %d", w, got, want)
		}
		if got, want := first(quoteOrBackslash(x)), naive(w, func(c byte) bool { return c == '"' || c == '\\' }); got != want {
			t.Fatalf("quoteOrBackslash(%q) = %d, want %d", w, got, want)
		}
		if got, want := first(nonDigits(x)), naive(w, func(c byte) bool { return !isDigit(c) }); got != want {
			t.Fatalf("nonDigits(%q) = %d, want %d", w, got, want)
		}
		if got, want := first(structural(x)), naive(w, func(c byte) bool { return strings.IndexByte(`"\{}[]`, c) >= 0 }); got != want {
			t.Fatalf("structural(%q) = %d, want %d", w, got, want)
		}
	}
}

// TestAllHex checks allHex on every byte value in every position among digits,
// and on random words.
func TestAllHex(t *testing.T) {
	naive := func(w [4]byte) bool {
		for _, c := range w {
			if hexVal[c] < 0 {
				return false
			}
		}
		return true
	}
	check := func(w [4]byte) {
		if got := allHex(binary.LittleEndian.Uint32(w[:])); got != naive(w) {
			t.Fatalf("allHex(%q) = %v", w, got)
		}
	}
	for pos := range 4 {
		for c := range 256 {
			for _, fill := range []byte{'0', '9', 'a', 'f', 'A', 'F'} {
				w := [4]byte{fill, fill, fill, fill}
				w[pos] = byte(c)
				check(w)
			}
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		check([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
	}
}

// TestRuneLen compares the UTF-8 automaton with the standard library on every
// sequence of up to three bytes and on random longer ones.
func TestRuneLen(t *testing.T) {
	check := func(b []byte) {
		r, size := utf8.DecodeRune(b)
		want := size
		if r == utf8.RuneError && size <= 1 || size == 1 {
			want = 0
		}
		if got := runeLen(b); got != want {
			t.Fatalf("runeLen(% x) = %d, want %d", b, got, want)
		}
	}
	for a := 0x80; a < 0x100; a++ {
		for b := range 0x100 {
			check([]byte{byte(a), byte(b)})
			for _, c := range []byte{0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0} {
				check([]byte{byte(a), byte(b), c})
				check([]byte{byte(a), byte(b), c, 0x80})
			}
		}
	}
}

// valueEnd returns the offset where the top-level value of doc ends, scanned
// with SkipValue, or with SkipTrusted, at the given window size.
func valueEnd(t *testing.T, doc []byte, window int, trusted bool) int {
	var s Scanner
	s.Reset(0)
	started := false
	for off := 0; off < len(doc); off += window {
		w := doc[off:min(off+window, len(doc))]
		for i := 0; i < len(w); {
			var err error
			if !started {
				var k Kind
				if k, i, err = s.Peek(w, i); err != nil || k == None {
					break
				}
				started = true
			}
			var done bool
			if trusted {
				i, done, err = s.SkipTrusted(w, i)
			} else {
				i, done, err = s.SkipValue(w, i)
			}
			if err != nil {
				t.Fatalf("%q: %v", doc, err)
			}
			if done {
				return off + i
			}
		}
	}
	return -1
}

// TestTrustedSkip checks that on valid input a trusted skip ends exactly where
// a validating one does, at every window size.
func TestTrustedSkip(t *testing.T) { eachKernelSet(t, testTrustedSkip) }

func testTrustedSkip(t *testing.T) {
	n := 0
	for name, doc := range suiteFiles(t) {
		k := valueKind[firstNonSpace(doc)]
		if !strings.HasPrefix(name, "y_") || k != ObjectStart && k != ArrayStart && k != String {
			continue
		}
		n++
		want := valueEnd(t, doc, len(doc), false)
		for _, window := range []int{1, 2, 7, len(doc)} {
			if got := valueEnd(t, doc, window, true); got != want {
				t.Errorf("%s at window %d: trusted skip ends at %d, want %d", name, window, got, want)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d documents", n)
	}
}

func firstNonSpace(doc []byte) byte {
	for _, c := range doc {
		if !space[c] {
			return c
		}
	}
	return 0
}

// TestMultibyteRuns checks strings made of runs of multibyte text and of \u
// escapes, which the string scanner checks a word at a time: random runs of
// valid sequences, the edges of each lead byte's range, broken, cut and stray
// bytes, and broken and cut escapes, in values and keys, against the oracle,
// with the same verdict and error at every window.
func TestMultibyteRuns(t *testing.T) { eachKernelSet(t, testMultibyteRuns) }

func testMultibyteRuns(t *testing.T) {
	pieces := []string{
		"a", "é", "ß", "\u07ff", "\u0800", "日本語", "\ud7ff", "\ue000", "\uffff", "😋", "\U0010ffff",
		"\xc2\x80", "\xdf\xbf", "\xe1\x80\x80", "\xec\xbf\xbf", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
		"\xe0\xa0\x80", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
		// invalid: overlong, surrogate, out of range, cut, stray
		"\xc0\xaf", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
		"\xe3\x81", "\xe3", "\xc3", "\x80", "\xbf", "\xff", "\xe3\xc1\x81", "\xe3\x81\xc1", "\xc3\xc3", "\xe3\x81\x22",

		// escapes, which the scanner also takes in runs: valid, then broken and cut
		`\u00e9`, `\uD83D\uDE0B`, `\ud800`, `\n`, `\\`, `\/`, `\u12G4`, `\uzzzz`, `\u12`, `\u`, `\`, `\x`,
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		var sb strings.Builder
		for range 1 + rng.IntN(12) {
			p := pieces[rng.IntN(len(pieces))]
			switch rng.IntN(6) { // mostly valid text, as in real documents
			case 0, 1, 2:
				p = pieces[rng.IntN(11)]
			case 3:
				p = pieces[len(pieces)-12+rng.IntN(6)]
			}
			sb.WriteString(p)
		}
		text := sb.String()
		for _, doc := range [][]byte{[]byte(`["` + text + `"]`), []byte(`{"` + text + `":1}`)} {
			want := oracle(doc)
			var firstErr string
			for _, window := range []int{1, 2, 3, 4, 5, 7, len(doc)} {
				out, err := byValue(doc, window, true)
				if (err == nil) != want {
					t.Fatalf("%q at window %d: err %v, valid %v", doc, window, err, want)
				}
				if err == nil && !bytes.Equal(out, doc) {
					t.Fatalf("%q at window %d: copied %q", doc, window, out)
				}
				if err != nil {
					if firstErr == "" {
						firstErr = err.Error()
					} else if err.Error() != firstErr {
						t.Fatalf("%q at window %d: %v, at another window %v", doc, window, err, firstErr)
					}
				}
			}
		}
	}
}

// TestLiterals checks true, false and null, whole, cut at every byte, with
// every byte changed, and followed by other bytes, against the oracle at
// every window: the whole-literal comparison must agree with the byte loop.
func TestLiterals(t *testing.T) {
	var variants []string
	for _, lit := range []string{"true", "false", "null"} {
		for n := 0; n <= len(lit); n++ {
			variants = append(variants, lit[:n])
			for _, c := range []byte("etrufalsn\"0 ]x\x00\xff") {
				variants = append(variants, lit[:n]+string(c)+lit[min(n+1, len(lit)):], lit[:n]+string(c))
			}
		}
		variants = append(variants, lit+lit, lit+"e", strings.ToUpper(lit))
	}
	for _, v := range variants {
		for _, doc := range []string{"[" + v + "]", "[" + v + ",1]", "{\"k\":" + v + "}", v} {
			want := oracle([]byte(doc))
			for window := 1; window <= len(doc); window++ {
				if _, err := byValue([]byte(doc), window, true); (err == nil) != want {
					t.Fatalf("%q at window %d: err %v, valid %v", doc, window, err, want)
				}
			}
		}
	}
}

// TestNumberSeparators reads arrays of numbers whose whitespace after each
// ',' Value remembers, once checked, and compares a word at a time: the same
// run again, longer, shorter, cut by the window, followed by a byte that is
// not whitespace or not a number. Valid ones must copy as json.Compact does;
// the broken ones must fail where the byte at fault is, at every window.
func TestNumberSeparators(t *testing.T) {
	indent := func(n int) string { return ", \n" + strings.Repeat(" ", n) }
	valid := []string{
		"[1" + strings.Repeat(indent(8)+"2", 6) + "]",
		"[1" + indent(8) + "2" + indent(8) + "3" + indent(12) + "4" + indent(8) + "5" + indent(4) + "6" + indent(8) + "7]",
		"[1" + indent(8) + "2" + indent(8) + "3" + indent(20) + "4" + indent(20) + "5" + indent(8) + "6" + indent(8) + "7]",
		"[1" + indent(8) + "2" + indent(8) + `"x"` + indent(8) + "[3" + indent(8) + "4]" + indent(8) + "true" + indent(8) + "-5e3]",
		"[0.5,\t1.5,\t2.5,\t-3,\r\n4,\r\n5,\r\n6,\r\n7, 8, 9,  10,  11 ,\n12]",
		`{"a":[1` + indent(8) + "2" + indent(8) + "3]" + `,"b":[4` + indent(8) + "5" + indent(8) + "6]}",
	}
	for _, doc := range valid {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(doc)); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		for window := 1; window <= len(doc)+1; window++ {
			for _, copy := range []bool{true, false} {
				out, err := byValue([]byte(doc), window, copy)
				if err != nil || copy && !bytes.Equal(out, want.Bytes()) {
					t.Errorf("%q at window %d, copy %v: %q, %v; want %q", doc, window, copy, out, err, want.Bytes())
				}
			}
		}
	}
	for _, c := range []struct {
		doc, fault, msg string // fault: the bytes from the one at fault, last in doc
	}{
		// The run matches, then a control byte that is not whitespace.
		{"[1" + indent(8) + "2" + indent(8) + "\x0b3]", "\x0b", `invalid character '\v' looking for beginning of value`},
		// The run matches, then more whitespace and a stray ','.
		{"[1" + indent(8) + "2" + indent(10) + ",3]", ",3", `invalid character ',' looking for beginning of value`},
		// The run matches, then a broken number.
		{"[1" + indent(8) + "2" + indent(8) + "-x]", "x", `invalid character 'x' in numeric literal`},
		{"[1" + indent(8) + "2" + indent(8) + "]", "]", `invalid character ']' looking for beginning of value`},
	} {
		offset := int64(strings.LastIndex(c.doc, c.fault))
		for window := 1; window <= len(c.doc)+1; window++ {
			_, err := byValue([]byte(c.doc), window, window%2 == 0)
			if te, ok := err.(*Error); !ok || te.Offset != offset || te.Msg != c.msg {
				t.Errorf("%q at window %d: %v, want %q at offset %d", c.doc, window, err, c.msg, offset)
			}
		}
	}
}
