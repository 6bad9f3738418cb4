package tokenizer

import "unicode/utf8"

// Surrogates says what a lone surrogate escape (a \uD800-\uDFFF not part of
// a pair) becomes when a string is unescaped. A surrogate pair is always
// its one code point, in four bytes of UTF-8.
type Surrogates uint8

const (
	// WTF8 keeps a lone surrogate as the three bytes of its code point (as
	// in WTF-8). Those bytes are invalid in raw UTF-8, which the scanner
	// rejects, so "\ud800" matches only "\ud800", never U+FFFD or anything
	// else: how keys are compared (SPEC M5).
	WTF8 Surrogates = iota
	// Replace makes a lone surrogate U+FFFD, as encoding/json does: for
	// values handed on as Go strings (toolresult's queries).
	Replace
)

// AppendUnescaped appends to dst the bytes that the string body b stands for
// (b without its quotes, already validated by the scanner): escapes decoded,
// everything else as is, lone surrogates as WTF8. It is how keys are
// compared (SPEC M5), on the mask's side and on the response's, so both
// sides must decode alike.
func AppendUnescaped(dst, b []byte) []byte {
	return AppendUnescapedAs(dst, b, WTF8)
}

// AppendUnescapedAs is AppendUnescaped with lone surrogates as lone says.
// A body cut short (a window's end: a last backslash, or a \u without its
// four digits) keeps its last bytes as they are.
func AppendUnescapedAs(dst, b []byte, lone Surrogates) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			j := i + 1
			for j < len(b) && b[j] != '\\' {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(b) {
			return append(dst, c) // cut short
		}
		e := b[i+1]
		if e != 'u' {
			dst = append(dst, unescapeByte(e))
			i += 2
			continue
		}
		r, ok := hex4(b, i+2)
		if !ok {
			return append(dst, b[i:]...) // cut short
		}
		i += 6
		if r >= 0xD800 && r < 0xDC00 && i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
			if lo, ok := hex4(b, i+2); ok && lo >= 0xDC00 && lo < 0xE000 {
				dst = utf8.AppendRune(dst, 0x10000+(r-0xD800)<<10+(lo-0xDC00))
				i += 6
				continue
			}
		}
		if r >= 0xD800 && r < 0xE000 {
			if lone == Replace {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
			}
			continue
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// hex4 is jsonwire.ParseHex4 on b[i:], kept here: through jsonwire (the
// slice it takes, its table of bytes) AppendUnescaped ran 2.2% more
// instructions on the strings of twitterescaped.json (callgrind, 2026-11-26).
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		v := hexVal[c]
		if v < 0 {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

func unescapeByte(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return e // '"', '\\', '/'
}
