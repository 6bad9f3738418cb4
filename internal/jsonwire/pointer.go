package jsonwire

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// AppendPointerToken appends tok escaped as a JSON Pointer reference token
// (RFC 6901, section 3): "~" as "~0", "/" as "~1".
func AppendPointerToken[S ~string | ~[]byte](dst []byte, tok S) []byte {
	start := 0
	for i := 0; i < len(tok); i++ {
		switch tok[i] {
		case '~':
			dst = append(append(dst, tok[start:i]...), '~', '0')
			start = i + 1
		case '/':
			dst = append(append(dst, tok[start:i]...), '~', '1')
			start = i + 1
		}
	}
	return append(dst, tok[start:]...)
}

// EscapePointerToken returns tok escaped as a JSON Pointer reference token;
// tok itself, without allocating, when it holds neither "~" nor "/".
func EscapePointerToken(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return string(AppendPointerToken(make([]byte, 0, len(tok)+4), tok))
}

// UnescapePointerToken decodes a JSON Pointer reference token: "~1" is "/",
// "~0" is "~", in that order of reading, so "~01" is "~1". A "~" followed by
// anything else is not valid (RFC 6901, section 3): ok is false.
func UnescapePointerToken(tok string) (_ string, ok bool) {
	i := strings.IndexByte(tok, '~')
	if i < 0 {
		return tok, true
	}
	b := make([]byte, 0, len(tok))
	for ; i >= 0; i = strings.IndexByte(tok, '~') {
		if i+1 == len(tok) || tok[i+1] != '0' && tok[i+1] != '1' {
			return "", false
		}
		b = append(b, tok[:i]...)
		b = append(b, "~/"[tok[i+1]-'0'])
		tok = tok[i+2:]
	}
	return string(append(b, tok...)), true
}

// maxQuotedPointer is the longest pointer that an error message prints
// whole (SPEC V3).
const maxQuotedPointer = 200

// QuotePointer returns ptr as error messages print it (SPEC V3), quoted as
// Go's %q quotes a string: control bytes, U+2028, U+2029 and invalid UTF-8
// escaped, so that no key can break a log line or send a terminal escape.
// A pointer longer than 200 bytes is shortened to its head, "…" and its
// tail, cut where characters start; the error's Pointer field keeps it whole.
func QuotePointer(ptr string) string {
	if len(ptr) > maxQuotedPointer {
		head, tail := maxQuotedPointer/2, len(ptr)-(maxQuotedPointer/2-len("…"))
		for head > 0 && !utf8.RuneStart(ptr[head]) {
			head--
		}
		for tail < len(ptr) && !utf8.RuneStart(ptr[tail]) {
			tail++
		}
		ptr = ptr[:head] + "…" + ptr[tail:]
	}
	return strconv.Quote(ptr)
}
