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

// stringValueEnd is stringEnd for Members' string value at src[i], whose
// content goes on at src[j], where the word loop stopped short of a closing
// quote: most often at a byte from 0x80 (a name, a word in most scripts) or
// a backslash. Where a block remains and a kernel runs, the kernel checks
// the rest at once, and the closing quote where it stops ends the string:
// two calls where stringEnd, stringRest, str and stringRun made five, about
// 280 instructions a string on flow-document (drop12). Anything else (the
// window or the blocks end, an error, the twins) goes on by stringEnd from
// where the kernel stopped, a character's start. In trusted mode the string
// ends where quotedEnd ends it, as in stringEnd.
func (s *Scanner) stringValueEnd(src []byte, i, j int, trusted bool) int {
	if trusted { // as stringEnd: one call fewer
		if j = quotedEnd(src, j); j == 0 || j-i > s.maxToken {
			return 0
		}
		return j
	}
	if j <= len(src)-64 && !forceTwins {
		blocks := min((len(src)-j)>>6, maxKernelBlocks)
		switch {
		case hasAVX512:
			j += stringRunAVX512(&src[j], blocks, false)
		case hasAVX2:
			j += stringRunAVX2(&src[j], blocks, false)
		}
		if j < len(src) && src[j] == '"' {
			if j-i >= s.maxToken {
				return 0
			}
			return j + 1
		}
	}
	return s.stringEnd(src, i, j, trusted)
}
