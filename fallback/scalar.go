package fallback

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The scalars as encoding/json writes them (Marshal, which escapes HTML).

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes that a string holds as they are: all but the
// control bytes below 0x20, the quote, the backslash and the HTML specials
// <, > and & (DEL stays as it is, as in encoding/json).
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as a JSON string, escaped as encoding/json escapes
// it: \" \\ \b \f \n \r \t, other control bytes and <, >, & as \u00XX,
// U+2028 and U+2029 as \u2028 and \u2029, and each byte that is not part of
// valid UTF-8 as \ufffd.
//
// What goes as it is goes in runs, checked in line: plain ASCII 8 bytes at
// a time, and 3-byte sequences (most of CJK) without decoding the rune. The
// rest, a byte at a time, is rare.
func appendString(dst []byte, s string) []byte {
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
				for i+8 <= len(s) {
					w := s[i : i+8]
					if stops(uint64(w[0])|uint64(w[1])<<8|uint64(w[2])<<16|uint64(w[3])<<24|
						uint64(w[4])<<32|uint64(w[5])<<40|uint64(w[6])<<48|uint64(w[7])<<56) != 0 {
						break
					}
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
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < utf8.RuneSelf:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
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

// zeros flags the zero bytes of w.
func zeros(w uint64) uint64 { return (w - lsb) &^ w & msb }

// stops flags what a string cannot hold as it is: control bytes, '"',
// '\\', '<', '>', '&', and the bytes of multi-byte sequences. '<' and '>'
// differ in bit 1 only, '"' and '&' in bit 2 only: one test for each pair.
func stops(w uint64) uint64 {
	return ((w-0x20*lsb)&^w | zeros(w^'\\'*lsb) | zeros((w|0x02*lsb)^'>'*lsb) | zeros((w|0x04*lsb)^'&'*lsb) | w) & msb
}

// keyOf returns the key that a mask sees for a Go string written by
// appendString: the string, unescaped, is the Go string with each byte that
// is not part of valid UTF-8 replaced by U+FFFD.
func keyOf(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// appendFloat appends f as encoding/json writes a float of the given bits:
// like ECMAScript's Number to string, fixed notation from 1e-6 to 1e21,
// exponent notation outside, with an exponent of at least two digits
// shortened to one ("1e-7", not "1e-07"). NaN and the infinities have no
// JSON form: the caller rejects them.
func appendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// validNumber reports whether s is a JSON number (RFC 8259, section 6).
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	default:
		return false
	}
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		for i += 2; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	if i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if s[i] == '+' || s[i] == '-' {
			i++
		}
		if i == len(s) || !isDigit(s[i]) {
			return false
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
