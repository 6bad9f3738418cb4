//go:build !amd64 || noasm

package tokenizer

func escapedQuote(src []byte) (int, bool) { return escapedQuoteGeneric(src) }
