//go:build !amd64 || noasm

package tokenizer

// hasAVX2 is false where there is no kernel: the word-at-a-time loops run.
const hasAVX2 = false

func classify(b *[64]byte, m *blockMasks) { *m = classifyGeneric(b) }
