//go:build !amd64 || noasm

package tokenizer

func classify(b *[64]byte, m *blockMasks) { *m = classifyGeneric(b) }
