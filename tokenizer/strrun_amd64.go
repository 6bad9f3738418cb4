//go:build amd64 && !noasm

package tokenizer

//go:noescape
func stringRunAVX512(src *byte, blocks int, stopBackslash bool) (n int)

//go:noescape
func stringRunAVX2(src *byte, blocks int, stopBackslash bool) (n int)

//go:noescape
func stringShortAVX512(src *byte, blocks int, stopBackslash bool) (n int)

//go:noescape
func stringShortAVX2(src *byte, blocks int, stopBackslash bool) (n int)

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

// stringShort is stringShortGeneric (stringRun, a short string first in one
// step), with the AVX-512 kernel where it runs, else the AVX2 one (unless a
// test asks for the twin).
func stringShort(src []byte, stopBackslash bool) int {
	blocks := min(len(src)/64, maxKernelBlocks)
	switch {
	case forceTwins || blocks == 0:
		return stringShortGeneric(src, stopBackslash)
	case hasAVX512:
		return stringShortAVX512(&src[0], blocks, stopBackslash)
	case hasAVX2:
		return stringShortAVX2(&src[0], blocks, stopBackslash)
	}
	return stringShortGeneric(src, stopBackslash)
}

// keyRest is stringRest for Members' key, whose content goes on at src[j],
// where plainEnd stopped short of a closing quote (a key in most scripts, or
// escaped). Where a block remains and a kernel runs, stringShort checks the
// rest to the first backslash, and a quote where it stops ends a key that is
// not Escaped; anything else goes on by stringRest from where it stopped, a
// character's start with no escape before it (so Escaped stays exact).
func (s *Scanner) keyRest(src []byte, j int) (int, bool) {
	if j <= len(src)-64 && (hasAVX2 || forceTwins) {
		if j += stringShort(src[j:], true); src[j] == '"' {
			return j + 1, false
		}
	}
	return s.stringRest(src, j)
}

// stringValueEnd is stringEnd for Members' string value at src[i], whose
// content goes on at src[j], where the word loop stopped short of a closing
// quote: most often at a byte from 0x80 (a name, a word in most scripts) or
// a backslash. Where a block remains and a kernel runs, the kernel
// (stringShort's: a short string in one 32-byte step, else stringRun's
// blocks) checks the rest at once, and the closing quote where it stops ends
// the string: two calls where stringEnd, stringRest, str and stringRun made
// five; 89 instructions a string on flow-document, of which the step is 42
// (callgrind, AVX2). Anything else (the window or the blocks end, an error)
// goes on by stringEnd from where the kernel stopped, a character's start.
// The twins (tests) take the kernels' place. In trusted mode the string ends
// where quotedEnd ends it, as in stringEnd.
func (s *Scanner) stringValueEnd(src []byte, i, j int, trusted bool) int {
	if trusted { // as stringEnd: one call fewer
		if j = quotedEnd(src, j); j == 0 || j-i > s.maxToken {
			return 0
		}
		return j
	}
	if j <= len(src)-64 {
		blocks := min((len(src)-j)>>6, maxKernelBlocks)
		switch {
		case forceTwins:
			j += stringShortGeneric(src[j:], false)
		case hasAVX512:
			j += stringShortAVX512(&src[j], blocks, false)
		case hasAVX2:
			j += stringShortAVX2(&src[j], blocks, false)
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
