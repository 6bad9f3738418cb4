//go:build !amd64 || noasm

package tokenizer

func quietBlocks(src, out []byte, copy bool, st *quietState) (n, w int) {
	return quietBlocksGeneric(src, out, copy, st)
}

func compactChecked(src, out []byte, st *quietState) (w int) {
	return compactCheckedGeneric(src, out, st)
}

func quietSkip(src []byte, st *quietState) (n int) {
	n, _ = quietBlocksGeneric(src, nil, false, st)
	return n
}
