package jsonwire

import (
	"math/bits"
	"unicode/utf8"
)

// The two dialects of quoting. AppendQuote is the house's: what a mask key,
// a schema or a message we write holds, escaped no more than JSON requires.
// AppendMarshalString is encoding/json's, byte for byte, for the Go values
// that fallback encodes as json.Marshal would.

// AppendQuote appends s as a JSON string that unescapes to s again: '"',
// '\\' and the control bytes escaped (\b, \f, \n, \r, \t short, the others
// as \u00XX), the rest as it is. s may be WTF-8, as the tokenizer unescapes a
// lone surrogate escape (\ud800): such a surrogate is written back as the
// escape it came from. Any other byte that is not part of valid UTF-8 is
// written as \ufffd, so that the output is always valid JSON.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for len(s) > 0 {
		if n := quotePlainLen(s); n > 0 {
			dst = append(dst, s[:n]...)
			if s = s[n:]; len(s) == 0 {
				break
			}
		}
		switch c := s[0]; {
		case c < utf8.RuneSelf:
			dst = appendEscapedASCII(dst, c)
		case c == 0xED && len(s) >= 3 && s[1]&0xE0 == 0xA0 && s[2]&0xC0 == 0x80:
			// A surrogate, U+D800 to U+DFFF, in the three bytes of its code point.
			dst = AppendEscape(dst, rune(c&0x0F)<<12|rune(s[1]&0x3F)<<6|rune(s[2]&0x3F))
			s = s[2:]
		default:
			dst = append(dst, `\ufffd`...)
		}
		s = s[1:]
	}
	return append(dst, '"')
}

// quotePlainLen returns how many bytes at the start of s AppendQuote writes
// as they are. Plain ASCII goes a word at a time; a word that holds a byte
// to stop at gives that byte from its flags at once (in JSON text a '"'
// comes every few bytes: the word is not read again byte by byte). A
// non-ASCII byte starts a run of valid UTF-8 sequences, taken a sequence at
// a time while they last (text in most scripts); the last few bytes, less
// than a word, go one at a time.
func quotePlainLen(s string) int {
	i, lastWord := 0, len(s)-8 // a word fits at i while i <= lastWord
	for {
		for i <= lastWord && quoteStops(load8(s[i:])) == 0 {
			i += 8
		}
		if i > lastWord {
			break
		}
		// The lowest flag is exact (a borrow only flags bytes above a true
		// one): a control byte, '"', '\\', or a non-ASCII byte.
		i += bits.TrailingZeros64(quoteStops(load8(s[i:]))) / 8
		if s[i] < utf8.RuneSelf {
			return i
		}
		for i < len(s) && s[i] >= utf8.RuneSelf {
			n := seqLen(s, i)
			if n == 0 {
				return i
			}
			i += n
		}
	}
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if c < ' ' || c == '"' || c == '\\' {
				return i
			}
			i++
		} else if n := seqLen(s, i); n > 0 {
			i += n
		} else {
			return i
		}
	}
	return len(s)
}

// plain marks the ASCII bytes that encoding/json writes as they are: all but
// the control bytes below 0x20, the quote, the backslash and the HTML
// specials <, > and & (DEL stays as it is).
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendMarshalString appends s as a JSON string, escaped as encoding/json's
// Marshal escapes it: \" \\ \b \f \n \r \t, other control bytes and <, >, &
// as \u00XX, U+2028 and U+2029 as \u2028 and \u2029, and each byte that is
// not part of valid UTF-8 as \ufffd.
//
// What goes as it is goes in runs, checked in line: plain ASCII 8 bytes at
// a time, and 3-byte sequences (most of CJK) without decoding the rune. The
// rest, a byte at a time, is rare.
func AppendMarshalString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				if !plain[c] {
					break
				}
				i++
				for i+8 <= len(s) && stops(load8(s[i:])) == 0 {
					i += 8
				}
				continue
			}
			if c&0xF0 != 0xE0 || i+3 > len(s) {
				break
			}
			t := s[i : i+3]
			if t[1]&0xC0 != 0x80 || t[2]&0xC0 != 0x80 {
				break
			}
			// RFC 3629: no overlong form after 0xE0, no surrogate after
			// 0xED; and U+2028, U+2029 are escaped.
			if (c <= 0xE2 || c == 0xED) && (c == 0xE0 && t[1] < 0xA0 || c == 0xED && t[1] > 0x9F ||
				c == 0xE2 && t[1] == 0x80 && t[2]&^1 == 0xA8) {
				break
			}
			i += 3
		}
		if i == len(s) {
			break
		}
		c := s[i]
		dst = append(dst, s[start:i]...)
		switch n := seqLen(s, i); {
		case c < utf8.RuneSelf:
			dst = appendEscapedASCII(dst, c)
		case n == 0: // not UTF-8: one byte goes
			dst = append(dst, `\ufffd`...)
		case n == 3 && c == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8: // U+2028, U+2029
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xF])
			i += 2
		default: // a 2- or 4-byte sequence
			i += n
			start = i - n
			continue
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendEscapedASCII appends the escape of c, an ASCII byte that a string
// does not hold as it is: \" \\ \b \f \n \r \t, or \u00XX.
func appendEscapedASCII(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// seqLen returns the length of the valid UTF-8 sequence that starts at
// s[i], a byte of 0x80 or more, or 0 if none does: the ranges of RFC 3629,
// section 4, which leave out overlong forms, surrogates and code points past
// U+10FFFF, as utf8.DecodeRune does.
func seqLen(s string, i int) int {
	c := s[i]
	n, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c < 0xC2:
		return 0
	case c < 0xE0:
		n = 2
	case c < 0xF0:
		n = 3
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c < 0xF5:
		n = 4
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 0
	}
	if i+n > len(s) || s[i+1] < lo || s[i+1] > hi {
		return 0
	}
	for j := i + 2; j < i+n; j++ {
		if s[j]&0xC0 != 0x80 {
			return 0
		}
	}
	return n
}

// Word-at-a-time tests over 8 bytes loaded little-endian: the high bit of
// each byte that matches is set, and no bit is set in a word without one.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// quoteStops flags what AppendQuote does not write as it is: control bytes,
// '"', '\\', and the bytes of multi-byte sequences.
func quoteStops(w uint64) uint64 {
	return ((w-0x20*lsb)&^w | zeros(w^'\\'*lsb) | zeros(w^'"'*lsb) | w) & msb
}

// load8 returns the first 8 bytes of s, little-endian.
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// zeros flags the zero bytes of w.
func zeros(w uint64) uint64 { return (w - lsb) &^ w & msb }

// stops flags what a string cannot hold as it is: control bytes, '"',
// '\\', '<', '>', '&', and the bytes of multi-byte sequences. '<' and '>'
// differ in bit 1 only, '"' and '&' in bit 2 only: one test for each pair.
func stops(w uint64) uint64 {
	return ((w-0x20*lsb)&^w | zeros(w^'\\'*lsb) | zeros((w|0x02*lsb)^'>'*lsb) | zeros((w|0x04*lsb)^'&'*lsb) | w) & msb
}
