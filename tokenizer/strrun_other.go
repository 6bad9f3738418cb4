//go:build !amd64 || noasm

package tokenizer

func stringRun(src []byte, stopBackslash bool) int { return stringRunGeneric(src, stopBackslash) }

// stringValueEnd is stringEnd for Members' string value: there is no kernel
// to call at once here.
func (s *Scanner) stringValueEnd(src []byte, i, j int, trusted bool) int {
	return s.stringEnd(src, i, j, trusted)
}
