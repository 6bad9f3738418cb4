//go:build amd64 && !noasm

package tokenizer

//go:noescape
func stringRunAVX512(src *byte, blocks int, stopBackslash bool) (n int)

//go:noescape
func stringRunAVX2(src *byte, blocks int, stopBackslash bool) (n int)

// stringRun is stringRunGeneric, with the AVX-512 kernel where it runs, else
// the AVX2 one (unless a test asks for the twin).
func stringRun(src []byte, stopBackslash bool) int {
	blocks := min(len(src)/64, maxKernelBlocks)
	switch {
	case forceTwins || blocks == 0:
		return stringRunGeneric(src, stopBackslash)
	case hasAVX512:
		return stringRunAVX512(&src[0], blocks, stopBackslash)
	case hasAVX2:
		return stringRunAVX2(&src[0], blocks, stopBackslash)
	}
	return stringRunGeneric(src, stopBackslash)
}
