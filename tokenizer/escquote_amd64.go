//go:build amd64 && !noasm

package tokenizer

//go:noescape
func escapedQuoteAVX512(src *byte, blocks int, carry bool) (n int, escaped bool)

//go:noescape
func escapedQuoteAVX2(src *byte, blocks int, carry bool) (n int, escaped bool)

// escapedQuote is escapedQuoteGeneric, with the AVX-512 kernel where it
// runs, else the AVX2 one (unless a test asks for the twin), at most
// maxKernelBlocks a call.
func escapedQuote(src []byte) (n int, escaped bool) {
	avx512 := hasAVX512
	if forceTwins || !avx512 && !(hasAVX2 && cpuAVX2BMI) {
		return escapedQuoteGeneric(src)
	}
	for blocks := len(src) / 64; blocks > 0; {
		c := min(blocks, maxKernelBlocks)
		var dn int
		var esc bool
		if avx512 {
			dn, esc = escapedQuoteAVX512(&src[n], c, escaped)
		} else {
			dn, esc = escapedQuoteAVX2(&src[n], c, escaped)
		}
		n, blocks, escaped = n+dn, blocks-c, esc
		if dn < c*64 {
			break // found
		}
	}
	return n, escaped
}
