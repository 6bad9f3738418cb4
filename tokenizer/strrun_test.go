package tokenizer

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// stringRunBytes is stringRun's definition, a byte at a time: from a byte
// that starts a character, the last one that starts a character before the
// first byte that stops the scan, or before the end of the whole blocks.
func stringRunBytes(src []byte) int {
	m := min(len(src)/64, maxKernelBlocks) * 64
	last := 0
	for i := 0; i < m; {
		last = i
		switch c := src[i]; {
		case c == '"' || c < 0x20 || c >= 0x80:
			return i
		case c == '\\':
			if i+1 >= m {
				return i
			}
			e := src[i+1]
			if !simpleEscape[e] && e != 'u' {
				return i
			}
			if e != 'u' {
				i += 2
				continue
			}
			for k := 2; k < 6; k++ {
				if i+k >= m || hexVal[src[i+k]] < 0 {
					return i
				}
			}
			i += 6
		default:
			i++
		}
	}
	return last
}

// checkStringRun compares stringRun, with the kernel (where the CPU has it)
// and its Go twin, with the byte-at-a-time definition.
func checkStringRun(t testing.TB, src []byte) {
	t.Helper()
	want := stringRunBytes(src)
	for _, wide := range []bool{true, false} {
		if got := stringRun(src, wide); got != want {
			t.Fatalf("stringRun(%s, wide %v) = %d, want %d", clip(src), wide, got, want)
		}
	}
}

// escapedText returns n bytes of string content rich in what stringRun looks
// at: escapes, good and bad, \u escapes cut short, quotes, control and
// non-ASCII bytes, every so often.
func escapedText(rng *rand.Rand, n int) []byte {
	pieces := []string{`\u00e9`, `\u65E5`, `\uD83D\uDE00`, `\n`, `\"`, `\\`, `\/`, `\t`, `\b`, `\f`, `\r`,
		"abc", "x", " ", "日本", "é"}
	rare := []string{`"`, `\x`, `\u12`, `\u12G4`, "\x00", "\x1f", "\x7f", "\xff", `\`, `\U0041`, `\u"`}
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

func TestStringRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 20000 {
		checkStringRun(t, escapedText(rng, rng.IntN(400)))
	}
	// Longer than one kernel call.
	long := bytes.Repeat([]byte(`\u00e9abc\n`), maxKernelBlocks*64/10+50)
	checkStringRun(t, long)
	checkStringRun(t, append(long, '"'))
	t.Logf("AVX-512 kernel: %v", hasAVX512)
}

// valueRuns reads doc as one value with Value, in windows cut by splits
// (sizes 1 to 256, cycling; none: one window), and returns where the value
// ended, the copy and the error. run says whether str checks escaped text
// with stringRun (kernel or twin, wide) or a byte at a time.
func valueRuns(doc, splits []byte, copy, run, wide bool) (int, []byte, error) {
	var s Scanner
	s.noKernel, s.forceRun, s.noWide = !run, run, !wide
	s.Reset(0)
	var out []byte
	off, k := 0, 0
	for off < len(doc) {
		size := len(doc)
		if len(splits) > 0 {
			size = int(splits[k%len(splits)]) + 1
			k++
		}
		w := doc[off:min(off+size, len(doc))]
		s.Base = int64(off)
		s.Out = out
		i, done, err := s.Value(w, 0, copy)
		out = s.Out
		if err != nil || done {
			return off + i, out, err
		}
		off += len(w)
	}
	return -1, out, nil
}

// checkValueRuns fails unless Value gives the same end, copy and error for
// doc with stringRun (kernel and twin) as without, whole and cut by splits.
func checkValueRuns(t testing.TB, doc, splits []byte) {
	t.Helper()
	for _, copy := range []bool{false, true} {
		for _, sp := range [][]byte{nil, splits} {
			wantEnd, wantOut, wantErr := valueRuns(doc, sp, copy, false, false)
			for _, wide := range []bool{true, false} {
				end, out, err := valueRuns(doc, sp, copy, true, wide)
				if end != wantEnd || !bytes.Equal(out, wantOut) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("copy %v splits %v wide %v: doc %s\nrun:  %d %s %v\nbyte: %d %s %v",
						copy, sp, wide, clip(doc), end, clip(out), err, wantEnd, clip(wantOut), wantErr)
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
		doc, err := os.ReadFile("../bench/testdata/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
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
