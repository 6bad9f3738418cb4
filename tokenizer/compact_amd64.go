//go:build amd64 && !noasm

package tokenizer

//go:noescape
func compactAVX2(out *byte, b *[64]byte, keep uint64, t *compactTables) int

// compactShuffle is compactShuffleGeneric with the kernel; callers call it
// only where hasAVX2 is true (PSHUFB is SSSE3, which every AVX2 CPU has).
func compactShuffle(out []byte, b *[64]byte, keep uint64) int {
	_ = out[63]
	return compactAVX2(&out[0], b, keep, &compactTab)
}
