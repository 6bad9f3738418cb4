//go:build amd64 && !noasm

package tokenizer

//go:noescape
func quoteBitsAVX2(src *byte, blocks int, out *quoteBlock)

// quoteBits is quoteBitsGeneric, with the AVX2 kernel where it runs. out
// holds at most indexBlocks blocks: one call stays short.
func quoteBits(src []byte, out []quoteBlock) {
	if !hasAVX2 || len(out) == 0 {
		quoteBitsGeneric(src, out)
		return
	}
	_ = src[len(out)*64-1]
	quoteBitsAVX2(&src[0], len(out), &out[0])
}
