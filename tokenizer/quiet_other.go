//go:build !amd64 || noasm

package tokenizer

// hasAVX512 is false where there is no kernel: the Go twin runs.
const hasAVX512 = false

func quietBlocks(src, out []byte, copy, _ bool, st *quietState) (n, w int) {
	return quietBlocksGeneric(src, out, copy, st)
}

func escapedQuote(src []byte, _ bool) (int, bool) { return escapedQuoteGeneric(src) }

func stringRun(src []byte, stopBackslash, _ bool) int {
	return stringRunGeneric(src, stopBackslash)
}
