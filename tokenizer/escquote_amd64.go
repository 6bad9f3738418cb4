//go:build amd64 && !noasm

package tokenizer

//go:noescape
func escapedQuoteAVX512(src *byte, blocks int, carry bool) (n int, escaped bool)

// escapedQuote is escapedQuoteGeneric, with the AVX-512 kernel where it
// runs, at most maxKernelBlocks a call.
func escapedQuote(src []byte) (n int, escaped bool) {
	if !hasAVX512 {
		return escapedQuoteGeneric(src)
	}
	for blocks := len(src) / 64; blocks > 0; {
		c := min(blocks, maxKernelBlocks)
		dn, esc := escapedQuoteAVX512(&src[n], c, escaped)
		n, blocks, escaped = n+dn, blocks-c, esc
		if dn < c*64 {
			break // found
		}
	}
	return n, escaped
}
