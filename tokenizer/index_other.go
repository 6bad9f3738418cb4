//go:build !amd64 || noasm

package tokenizer

func quoteBits(src []byte, out []quoteBlock) { quoteBitsGeneric(src, out) }
