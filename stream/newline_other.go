//go:build !amd64 || noasm

package stream

// hasNewline reports whether p holds a '\n'.
func hasNewline(p []byte) bool { return newlineGo(p) }

// useAVX2 is false: there is no kernel.
const useAVX2 = false
