//go:build !amd64 || noasm

package tokenizer

// skipWhole is skipWholeGeneric where there is no kernel.
func skipWhole(src []byte, i, room, maxToken int) (int, bool) {
	return skipWholeGeneric(src, i, room, maxToken)
}
