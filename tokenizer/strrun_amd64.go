//go:build amd64 && !noasm

package tokenizer

//go:noescape
func stringRunAVX512(src *byte, blocks int, stopBackslash bool) (n int)

// stringRun is stringRunGeneric, with the AVX-512 kernel where it runs.
func stringRun(src []byte, stopBackslash bool) int {
	if !hasAVX512 {
		return stringRunGeneric(src, stopBackslash)
	}
	if blocks := min(len(src)/64, maxKernelBlocks); blocks > 0 {
		return stringRunAVX512(&src[0], blocks, stopBackslash)
	}
	return 0
}
