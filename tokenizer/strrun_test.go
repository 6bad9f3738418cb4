package tokenizer

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/corpus"
)

// stringRunBytes is stringRun's definition, a character at a time: from a
// byte that starts a character, the start of the character that holds the
// first byte that stops the scan (or, for a byte flagged by the UTF-8 check
// that starts a character, of the one before it), or of the last character
// in the whole blocks.
func stringRunBytes(src []byte, stopBackslash bool) int {
	m := min(len(src)/64, maxKernelBlocks) * 64
	bad8 := make([]bool, m)
	var p1, p2, p3 byte
	for i, c := range src[:m] {
		bad8[i] = utf8Error(p3, p2, p1, c)
		p3, p2, p1 = p2, p1, c
	}
	prev := 0 // the start of the character before i
	for i := 0; i < m; {
		c := src[i]
		switch {
		case bad8[i]:
			return prev
		case c == '"' || c < 0x20:
			return i
		}
		n := 1 // the character's length
		if c == '\\' {
			if stopBackslash {
				return i
			}
			if i+1 >= m || bad8[i+1] || !simpleEscape[src[i+1]] && src[i+1] != 'u' {
				return i
			}
			if n = 2; src[i+1] == 'u' {
				for n = 2; n < 6; n++ {
					if i+n >= m || bad8[i+n] || hexVal[src[i+n]] < 0 {
						return i
					}
				}
			}
		}
		for ; i+n < m && src[i+n]&0xC0 == 0x80; n++ {
			if bad8[i+n] {
				return i
			}
		}
		prev, i = i, i+n
	}
	return prev
}

// checkStringRun compares stringRun and stringShort, with the kernels
// (where the CPU has them) and their Go twins, with the byte-at-a-time
// definition.
func checkStringRun(t testing.TB, src []byte) {
	t.Helper()
	for _, stop := range []bool{false, true} {
		want := stringRunBytes(src, stop)
		for _, k := range []kernelSet{kernelsAVX2, kernelsAVX512, kernelsTwins} {
			var got, short int
			withKernels(k, func() { got, short = stringRun(src, stop), stringShort(src, stop) })
			if got != want {
				t.Fatalf("%s: stringRun(%s, stopBackslash %v) = %d, want %d", k.name, clip(src), stop, got, want)
			}
			if short != want {
				t.Fatalf("%s: stringShort(%s, stopBackslash %v) = %d, want %d", k.name, clip(src), stop, short, want)
			}
		}
	}
}

// escapedText returns n bytes of string content rich in what stringRun looks
// at: escapes, good and bad, \u escapes cut short, quotes, control and
// non-ASCII bytes, every so often.
func escapedText(rng *rand.Rand, n int) []byte {
	pieces := []string{`\u00e9`, `\u65E5`, `\uD83D\uDE00`, `\n`, `\"`, `\\`, `\/`, `\t`, `\b`, `\f`, `\r`,
		"abc", "x", " ", "日本", "é", "😀", "\u00e9", "ü"}
	rare := []string{`"`, `\x`, `\u12`, `\u12G4`, "\x00", "\x1f", "\x7f", "\xff", `\`, `\U0041`, `\u"`,
		"\x80", "\xe6\x97", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xc3", `\é`}
	var b []byte
	for len(b) < n {
		if rng.IntN(40) == 0 {
			b = append(b, rare[rng.IntN(len(rare))]...)
		} else {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
	}
	return b[:n]
}

// TestUTF8Lookup checks the lookup check against the standard library on
// short runs of the bytes that matter: it flags a byte of a run (made
// complete by ASCII after it) exactly when the run is not valid UTF-8.
func TestUTF8Lookup(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	alphabet := []byte{'A', 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed,
		0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xff}
	for range 500000 {
		b := make([]byte, 1+rng.IntN(6), 10)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		b = append(b, 'A', 'A', 'A')
		var p1, p2, p3 byte
		flagged := false
		for _, c := range b {
			flagged = flagged || utf8Error(p3, p2, p1, c)
			p3, p2, p1 = p2, p1, c
		}
		if flagged == utf8.Valid(b) {
			t.Fatalf("%x: flagged %v, valid %v", b, flagged, utf8.Valid(b))
		}
	}
}

func TestStringRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 20000 {
		checkStringRun(t, escapedText(rng, rng.IntN(400)))
	}
	// Longer than one kernel call.
	long := bytes.Repeat([]byte(`\u00e9a日本\n`), maxKernelBlocks*64/16+50)
	checkStringRun(t, long)
	checkStringRun(t, append(long, '"'))
	t.Logf("AVX-512 kernel: %v", hasAVX512)
}

// valueRuns reads doc as one value with SkipValue or AppendValue, in windows
// cut by splits as eachWindow does, and returns where the value ended, the
// copy and the error. Under kernelsNone, str checks escaped and non-ASCII
// text a byte at a time; under the others, with stringRun (kernel or twin).
func valueRuns(doc, splits []byte, copy bool, k kernelSet) (end int, out []byte, err error) {
	withKernels(k, func() { end, out, err = valueRunsNow(doc, splits, copy) })
	return end, out, err
}

func valueRunsNow(doc, splits []byte, copy bool) (int, []byte, error) {
	var s Scanner
	s.Reset(0)
	return scanRun(&s, doc, splits, 0, func(out, w []byte) ([]byte, int, bool, error) {
		if copy {
			return s.AppendValue(out, w, 0)
		}
		i, done, err := s.SkipValue(w, 0)
		return out, i, done, err
	})
}

// tokensRun reads doc token by token with Next, in windows cut by splits
// as valueRuns does, under kernel set k, and returns what it read: every
// token's kind, place, key and escape flags, and the error.
func tokensRun(doc, splits []byte, k kernelSet) (got string) {
	withKernels(k, func() { got = tokensRunNow(doc, splits) })
	return got
}

func tokensRunNow(doc, splits []byte) string {
	var s Scanner
	s.Reset(0)
	var b bytes.Buffer
	eachWindow(doc, splits, func(off int, w []byte) bool {
		s.SetBase(int64(off))
		for i := 0; i < len(w); {
			tok, j, err := s.Next(w, i)
			if err != nil {
				b.WriteString(err.Error())
				return true
			}
			if tok.Kind == None {
				break
			}
			fmt.Fprintf(&b, "%c%d-%d:%v%v%v ", tok.Kind, off+tok.Start, off+tok.End, tok.Key, tok.Escaped, tok.More)
			i = j
		}
		return false
	})
	return b.String()
}

// checkValueRuns fails unless Value gives the same end, copy (unless an
// error) and error for doc with stringRun (kernel and twin) as without,
// whole and cut by splits; and Next the same tokens.
func checkValueRuns(t testing.TB, doc, splits []byte) {
	t.Helper()
	runSets := []kernelSet{kernelsAVX2, kernelsAVX512, kernelsTwins}
	for _, sp := range [][]byte{nil, splits} {
		want := tokensRun(doc, sp, kernelsNone)
		for _, k := range runSets {
			if got := tokensRun(doc, sp, k); got != want {
				t.Fatalf("splits %v %s: doc %s\nrun:  %s\nbyte: %s", sp, k.name, clip(doc), clip([]byte(got)), clip([]byte(want)))
			}
		}
	}
	for _, copy := range []bool{false, true} {
		for _, sp := range [][]byte{nil, splits} {
			wantEnd, wantOut, wantErr := valueRuns(doc, sp, copy, kernelsNone)
			for _, k := range runSets {
				end, out, err := valueRuns(doc, sp, copy, k)
				// On error, what AppendValue appended is not to be used
				// (the copy kernel hands over at its last checkpoint, past
				// where value alone stopped appending).
				if end != wantEnd || wantErr == nil && !bytes.Equal(out, wantOut) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("copy %v splits %v %s: doc %s\nrun:  %d %s %v\nbyte: %d %s %v",
						copy, sp, k.name, clip(doc), end, clip(out), err, wantEnd, clip(wantOut), wantErr)
				}
			}
		}
	}
}

// TestValueStringRun checks that str's verdict, end and error do not depend
// on stringRun: on documents of escaped strings, good and bad, and on the
// corpus.
func TestValueStringRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var doc []byte
		doc = append(doc, '[')
		for range 1 + rng.IntN(4) {
			doc = append(doc, '"')
			doc = append(doc, escapedText(rng, rng.IntN(300))...)
			doc = append(doc, `",`...)
		}
		doc = append(doc, `0]`...)
		checkValueRuns(t, doc, []byte{byte(rng.IntN(256)), byte(rng.IntN(256))})
	}
	for _, name := range []string{"twitterescaped", "twitter", "conversation_items"} {
		doc := corpus.File(t, name+".json")
		checkValueRuns(t, doc, []byte{200, 7, 255, 64})
	}
}

// clip quotes b, or its ends when it is long.
func clip(b []byte) string {
	if len(b) <= 400 {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q...(%d bytes)...%q", b[:200], len(b)-400, b[len(b)-200:])
}

// TestStringShort checks stringShort, whose kernels end a short string in
// one step, on short strings in most scripts, good and bad UTF-8, escapes
// and control bytes, with the quote at every place in the step's reach and
// past it: checkStringRun, for stopBackslash false and true. It fails
// unless the step ends most of the strings that it may end (shortStep).
func TestStringShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 32))
	ended := 0
	for range 100000 {
		b := shortText(rng)
		if shortStep(b[:shortReach]) >= 0 {
			ended++
		}
		checkStringRun(t, b)
	}
	if ended < 30000 {
		t.Fatalf("the step ends %d strings of 100000", ended)
	}
	for q := range shortReach + 2 {
		for _, fill := range []string{"a", "é", "日", "😀", "\xe6\x97", "\\n", `\u00e9`, "\x01", "\xff", "\xed\xa0\x80", "\xc0\xaf"} {
			b := []byte(strings.Repeat(fill, shortReach+4))[:q]
			b = append(b, `"`+strings.Repeat("x", 100)...)
			checkStringRun(t, b)
			b[0] = '\xc3'
			checkStringRun(t, b)
		}
	}
}

// shortText returns a string's content of 0 to 40 bytes, most often valid
// text in most scripts, then a quote (or not), then bytes to fill a block and
// more.
func shortText(rng *rand.Rand) []byte {
	var b []byte
	if rng.IntN(4) == 0 {
		b = escapedText(rng, rng.IntN(shortReach+8))
	} else {
		pieces := []string{"a", " ", "ü", "é", "日本", "語", "😀", "in", "\u00e9"}
		for n := rng.IntN(12); len(b) < n; {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
	}
	if rng.IntN(8) != 0 {
		b = append(b, '"')
	}
	for len(b) < 64+rng.IntN(80) {
		b = append(b, "\"a\xe6, \\"[rng.IntN(6)])
	}
	return b
}

// FuzzStringShort is FuzzStringRun for the first step of stringShort's
// kernels: the input, a quote, then quotes and ASCII to fill two blocks.
func FuzzStringShort(f *testing.F) {
	for _, seed := range []string{"über in", "日本語", "\xe6\x97", `a\"b`, "\xed\xa0\x80", "x\x01", "\xc3"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		doc = append(doc, '"')
		for len(doc) < 128 {
			doc = append(doc, `"a"`...)
		}
		checkStringRun(t, doc)
	})
}

// TestEscClass checks the escape classes of the string kernels' table
// lookups against simpleEscape and hexVal, for every byte, and the tables
// against the kernels' copies: stringRun's kernels and twin agree only if
// those are the same bytes (TestStringRun).
func TestEscClass(t *testing.T) {
	for c := range 256 {
		k := escClass(byte(c))
		if esc, want := k&0x0f != 0, simpleEscape[c] || c == 'u'; esc != want {
			t.Errorf("%q: may follow a backslash %v, want %v", rune(c), esc, want)
		}
		if hex, want := k&0x30 != 0, hexVal[c] >= 0; hex != want {
			t.Errorf("%q: hex %v, want %v", rune(c), hex, want)
		}
		if u := k&0x80 != 0; u != (c == 'u') {
			t.Errorf("%q: 'u' %v", rune(c), u)
		}
	}
}
