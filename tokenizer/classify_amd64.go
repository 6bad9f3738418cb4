//go:build amd64 && !noasm

package tokenizer

//go:noescape
func classifyAVX2(b *[64]byte, m *blockMasks)

// classify computes a block's masks with AVX2. Callers call it only where
// hasAVX2 is true: a branch here would keep it from inlining in the block
// loops, which costs the trusted scans up to 8% (callgrind, canada/drop).
func classify(b *[64]byte, m *blockMasks) { classifyAVX2(b, m) }
