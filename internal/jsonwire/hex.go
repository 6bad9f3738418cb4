package jsonwire

// hexDigits are the digits of the \uXXXX escapes we write, lowercase as
// encoding/json writes them.
const hexDigits = "0123456789abcdef"

// ParseHex4 returns the value of the four hexadecimal digits (either case)
// that b starts with, as in a \uXXXX escape, and false if b does not start
// with four.
func ParseHex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		v := hexValue[c]
		if v == 0xFF {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for i := range 10 {
		t['0'+i] = byte(i)
	}
	for i := range 6 {
		t['a'+i], t['A'+i] = byte(10+i), byte(10+i)
	}
	return t
}()

// AppendEscape appends the escape \uXXXX of r, a code unit up to U+FFFF,
// with lowercase digits.
func AppendEscape(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}
