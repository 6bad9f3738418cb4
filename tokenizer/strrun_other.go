//go:build !amd64 || noasm

package tokenizer

func stringRun(src []byte, stopBackslash bool) int { return stringRunGeneric(src, stopBackslash) }
