package tokenizer

import (
	"math/rand/v2"
	"testing"
)

// TestClassify compares the kernel (where there is one) with the generic
// code on random blocks rich in the bytes that matter.
func TestClassify(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const alphabet = "\"\\{}[] \t\n\r\x00\x1f!aZ\x7f\x80\xff\x5b\x7b\x3a,0"
	var b [64]byte
	for range 100000 {
		for i := range b {
			if rng.IntN(2) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = byte(rng.IntN(256))
			}
		}
		var got blockMasks
		classify(&b, &got)
		if want := classifyGeneric(&b); got != want {
			t.Fatalf("classify(%q) = %+v, want %+v", b, got, want)
		}
	}
	t.Logf("AVX2 kernel: %v", hasAVX2)
}

// TestEscapedBytes compares the escape scanner with a byte-by-byte one on
// random backslash patterns, carry in and out.
func TestEscapedBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200000 {
		bs := rng.Uint64() & rng.Uint64()
		if rng.IntN(3) == 0 {
			bs |= rng.Uint64()
		}
		carry := rng.IntN(2) == 0
		var want uint64
		esc := carry
		for i := range 64 {
			if esc {
				want |= 1 << i
				esc = false
				continue
			}
			if bs>>i&1 != 0 {
				esc = true
			}
		}
		got, next := escapedBytes(bs, carry)
		if got != want || next != esc {
			t.Fatalf("escapedBytes(%064b, %v) = %064b, %v; want %064b, %v", bs, carry, got, next, want, esc)
		}
	}
}
