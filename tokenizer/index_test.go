package tokenizer

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refTrustedScalarEnd is what trustedStringEnd and trustedBareScalarEnd must
// return for the scalar at src[i], a byte at a time: a string to the first
// quote no backslash escapes; a number to the first ',', '}', ']' or
// whitespace, 0 when a control byte that is not whitespace comes first (the
// trusted scans take those); a literal when it is whole and one of those
// bytes follows; 0 when the window ends first, the scalar is
// longer than maxToken, or src[i] starts no scalar.
func refTrustedScalarEnd(src []byte, i, maxToken int) int {
	j := 0
	switch valueKind[src[i]] {
	case String:
		for k := i + 1; k < len(src); k++ {
			if src[k] == '\\' {
				k++
			} else if src[k] == '"' {
				j = k + 1
				break
			}
		}
	case True, False, Null:
		// Only the literal itself, then where a trusted scan ends it.
		for _, lit := range []string{"true", "false", "null"} {
			if k := i + len(lit); bytes.HasPrefix(src[i:], []byte(lit)) && k < len(src) && endsTrustedScalar(src[k]) {
				j = k
			}
		}
	case Number:
		for k := i + 1; k < len(src); k++ {
			if c := src[k]; c <= ' ' || c == ',' || c == '}' || c == ']' {
				if endsTrustedScalar(c) {
					j = k
				}
				break
			}
		}
	}
	if j-i > maxToken {
		return 0
	}
	return j
}

// trustedEndAt calls the trusted scalar end the member loop calls.
func trustedEndAt(s *Scanner, src []byte, i int) int { return s.scalarEnd(src, i, true) }

// checkTrustedEnds reads the scalars of src at the positions of order, in
// that order, with one Scanner, as the member loop does within a window
// (the quote index built for one is read by the next), and compares each
// with the reference.
func checkTrustedEnds(t *testing.T, s *Scanner, src []byte, order []int, maxToken int) {
	t.Helper()
	for _, i := range order {
		if got, want := trustedEndAt(s, src, i), refTrustedScalarEnd(src, i, maxToken); got != want {
			t.Fatalf("src %q\nscalar at %d (%q): end %d, want %d", src, i, src[i], got, want)
		}
	}
}

// scalarStarts returns the positions in src of the bytes that start a
// string, a number or a literal.
func scalarStarts(src []byte) []int {
	var at []int
	for i, c := range src {
		if k := valueKind[c]; k != None && k != ObjectStart && k != ArrayStart {
			at = append(at, i)
		}
	}
	return at
}

func TestTrustedScalarEnd(t *testing.T) {
	long := strings.Repeat("x", 150)
	docs := map[string]string{
		"short strings":          `{"a":"b","cc":"dd","e":1,"f":true,"g":null,"h":false}`,
		"escaped quotes":         `{"a\"b":"c\\\"d\\","e":"` + long + `\"` + long + `"}`,
		"backslash at 63":        strings.Repeat(" ", 62) + `"\"` + strings.Repeat("y", 70) + `"`,
		"quote at a block's end": `"` + strings.Repeat("z", 62) + `"` + `"` + strings.Repeat("w", 64) + `",1`,
		"long strings":           `["` + long + `","` + long + long + `","` + long + `"]`,
		"unterminated":           `{"a":"b","c":"` + long,
		"backslash last":         `{"a":"` + long + `\`,
		"pretty":                 "{\n  \"a\" : 12345,\n  \"b\" : \"" + long + "\",\n  \"c\" : -1.5e+3\n}",
		"numbers and controls":   "[1\x01,2\t,3 ,4\n,5\x7f,tru,nul]",
		"not ASCII":              `{"é":"名前 über","x":"` + strings.Repeat("日本", 40) + `"}`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			eachKernelSet(t, func(t *testing.T) {
				src := []byte(doc)
				starts := scalarStarts(src)
				for _, maxToken := range []int{1 << 62, 9, 70} {
					var s Scanner
					s.Reset(0)
					s.SetMaxToken(maxToken)
					checkTrustedEnds(t, &s, src, starts, maxToken)
					// Backwards, so that the index is rebuilt for each.
					back := append([]int(nil), starts...)
					for a, b := 0, len(back)-1; a < b; a, b = a+1, b-1 {
						back[a], back[b] = back[b], back[a]
					}
					checkTrustedEnds(t, &s, src, back, maxToken)
				}
			})
		})
	}
}

// TestQuoteIndexForgotten reads a window, then other bytes in the same
// memory, as a stream does with its buffer: SetBase must forget the index of
// the first, whose quotes are not where the second's are.
func TestQuoteIndexForgotten(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		first := `["` + strings.Repeat("a", 20) + `","` + strings.Repeat("b", 200) + `"]`
		second := `["` + strings.Repeat("c", 40) + `","` + strings.Repeat("d", 180) + `"]`
		buf := []byte(first)
		var s Scanner
		s.Reset(0)
		s.SetBase(0)
		checkTrustedEnds(t, &s, buf, scalarStarts(buf), 1<<62)
		copy(buf, second)
		s.SetBase(int64(len(first)))
		checkTrustedEnds(t, &s, buf, scalarStarts(buf), 1<<62)
	})
}

func TestQuoteBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("\"\\ab{}[],: \n\x00\xff")
	src := make([]byte, 64*indexBlocks)
	for range 2000 {
		for k := range src {
			src[k] = alphabet[r.IntN(len(alphabet))]
		}
		n := 1 + r.IntN(indexBlocks)
		want := make([]quoteBlock, n)
		quoteBitsGeneric(src, want)
		eachKernelSet(t, func(t *testing.T) {
			got := make([]quoteBlock, n)
			quoteBits(src, got)
			for k := range got {
				if got[k] != want[k] {
					t.Fatalf("block %d of %q: %+v, want %+v", k, src[64*k:64*k+64], got[k], want[k])
				}
			}
		})
	}
}

// FuzzTrustedScalarEnd checks the trusted member loop's scalar ends (the
// quote index, its AVX2 kernel and its Go twin) against the byte-at-a-time
// reference, for any bytes, reading the scalars in the order the fuzzer
// picks with one Scanner (so that an index built for one is read by the
// others), under any token limit; and quoteBits against its twin.
func FuzzTrustedScalarEnd(f *testing.F) {
	for _, seed := range []string{
		`{"a":"b","c\"d":"e\\","f":12,"g":true}`,
		strings.Repeat(" ", 62) + `"\"` + strings.Repeat("y", 70) + `"`,
		`["` + strings.Repeat(`ab\"cd\\`, 30) + `",1,"x"]`,
	} {
		f.Add([]byte(seed), []byte{0, 3, 1, 200}, uint16(0))
	}
	f.Fuzz(func(t *testing.T, doc, order []byte, limit uint16) {
		if n := len(doc) / 64; n > 0 {
			n = min(n, indexBlocks)
			want, got := make([]quoteBlock, n), make([]quoteBlock, n)
			quoteBitsGeneric(doc, want)
			quoteBits(doc, got)
			if !slices.Equal(got, want) {
				t.Fatalf("quoteBits(%q) = %v, want %v", doc, got, want)
			}
		}
		starts := scalarStarts(doc)
		if len(starts) == 0 {
			return
		}
		var at []int
		for _, o := range order {
			at = append(at, starts[int(o)%len(starts)])
		}
		at = append(at, starts...)
		maxToken := 1 << 62
		if limit != 0 {
			maxToken = int(limit)
		}
		for _, k := range kernelSets {
			if !k.available() {
				continue
			}
			withKernels(k, func() {
				var s Scanner
				s.Reset(0)
				s.SetMaxToken(maxToken)
				checkTrustedEnds(t, &s, doc, at, maxToken)
			})
		}
	})
}
