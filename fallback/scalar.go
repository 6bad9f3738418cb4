package fallback

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The scalars as encoding/json writes them (Marshal, which escapes HTML);
// strings are jsonwire.AppendMarshalString's.

// keyOf returns the key that a mask sees for a Go string written by
// jsonwire.AppendMarshalString: the string, unescaped, is the Go string with
// each byte that is not part of valid UTF-8 replaced by U+FFFD.
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
