package tokenizer

import "math/bits"

// escapedQuoteGeneric scans the whole 64-byte blocks of src, the content of a
// string from a byte that no backslash escapes, for the first quote that no
// backslash escapes (a backslash escapes the byte after it). It returns that
// quote's index; or, when the blocks hold none, the index after them and
// whether a backslash at their end escapes the byte there.
//
// It is the Go twin of the AVX-512 and AVX2 kernels, and what runs where
// neither does: quotedEnd calls escapedQuote on any CPU.
func escapedQuoteGeneric(src []byte) (int, bool) {
	n, carry := 0, false
	for ; n+64 <= len(src); n += 64 {
		var m blockMasks
		if b := (*[64]byte)(src[n : n+64]); hasAVX2 {
			classify(b, &m)
		} else {
			m = classifyGeneric(b)
		}
		var esc uint64
		esc, carry = escapedBytes(m.backslash, carry)
		if q := m.quote &^ esc; q != 0 {
			return n + bits.TrailingZeros64(q), false
		}
	}
	return n, carry
}
