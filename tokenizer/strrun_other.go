//go:build !amd64 || noasm

package tokenizer

func stringRun(src []byte, stopBackslash bool) int { return stringRunGeneric(src, stopBackslash) }

func stringShort(src []byte, stopBackslash bool) int { return stringShortGeneric(src, stopBackslash) }

// stringValueEnd is stringEnd for Members' string value: there is no kernel
// to call at once here.
func (s *Scanner) stringValueEnd(src []byte, i, j int, trusted bool) int {
	return s.stringEnd(src, i, j, trusted)
}

// keyRest is stringRest for Members' key: there is no kernel here.
func (s *Scanner) keyRest(src []byte, j int) (int, bool) { return s.stringRest(src, j) }
