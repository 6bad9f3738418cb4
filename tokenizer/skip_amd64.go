//go:build amd64 && !noasm

package tokenizer

// skipWhole is skipWholeGeneric, for now.
func skipWhole(src []byte, i, room, maxToken int) (int, bool) {
	return skipWholeGeneric(src, i, room, maxToken)
}
