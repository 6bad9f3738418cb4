//go:build amd64 && !noasm

package tokenizer

//go:noescape
func classifyAVX2(b *[64]byte, m *blockMasks)

// classify computes a block's masks, with AVX2 where it runs.
func classify(b *[64]byte, m *blockMasks) {
	if !hasAVX2 {
		*m = classifyGeneric(b)
		return
	}
	classifyAVX2(b, m)
}
