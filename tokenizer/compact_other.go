//go:build !amd64 || noasm

package tokenizer

func compactShuffle(out []byte, b *[64]byte, keep uint64) int {
	return compactShuffleGeneric(out, b, keep)
}
