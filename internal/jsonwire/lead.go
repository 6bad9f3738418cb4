package jsonwire

import "bytes"

// BOM is the UTF-8 byte-order mark, which may begin a body or a mask
// (SPEC B1, M8) and is not part of the JSON.
const BOM = "\xEF\xBB\xBF"

// IsSpace reports whether c is JSON whitespace (RFC 8259, section 2):
// space, tab, line feed or carriage return.
func IsSpace(c byte) bool { return c <= ' ' && space[c] }

var space = [' ' + 1]bool{' ': true, '\t': true, '\n': true, '\r': true}

// LeadLen returns the length of the lead at the start of b (SPEC B1): a
// byte-order mark, if b starts with one, then JSON whitespace. The byte at
// b[LeadLen(b)], if any, decides how a body is treated. A caller that reads a
// body in pieces asks CutBOM first whether its first piece may be the start
// of a byte-order mark.
func LeadLen(b []byte) int {
	i := 0
	if len(b) >= len(BOM) && string(b[:len(BOM)]) == BOM {
		i = len(BOM)
	}
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// CutBOM reports whether b, the start of a body, is shorter than a
// byte-order mark and may be the start of one: a caller that reads the body
// in pieces reads on before it calls LeadLen.
func CutBOM(b []byte) bool { return len(b) < len(BOM) && string(b) == BOM[:len(b)] }

// TrimLead returns b without its lead (LeadLen).
func TrimLead(b []byte) []byte { return b[LeadLen(b):] }

// Trim returns b without its lead and the whitespace after its end: JSON
// data as it is embedded as a member's value.
func Trim(b []byte) []byte {
	b = TrimLead(b)
	for len(b) > 0 && IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// StringLead returns the first character of a JSON string's content (as
// written, without its quotes: escapes not yet decoded) that is not
// whitespace or a byte-order mark, decoding escapes on the way: the byte
// itself when it is ASCII, NonASCII when it is not, and 0 when the content
// holds none, or none yet (it may be a piece cut within an escape). It
// tells text that may hold JSON ('{' or '[') without decoding all of it.
func StringLead(content []byte) byte {
	for i := 0; i < len(content); {
		c := content[i]
		switch {
		case IsSpace(c):
			i++
		case c == BOM[0] && bytes.HasPrefix(content[i:], []byte(BOM)):
			i += len(BOM)
		case c >= 0x80:
			return NonASCII
		case c != '\\':
			return c
		case i+1 >= len(content):
			return 0
		case content[i+1] == 'n' || content[i+1] == 't' || content[i+1] == 'r':
			i += 2
		case content[i+1] != 'u':
			return content[i+1] // '"', '\\', '/', 'b', 'f': escapes of no JSON's first byte
		default:
			r, ok := ParseHex4(content[i+2:])
			switch {
			case !ok:
				return 0
			case r < 0x80 && IsSpace(byte(r)) || r == 0xFEFF:
				i += 6
			case r < 0x80:
				return byte(r)
			default:
				return NonASCII
			}
		}
	}
	return 0
}

// NonASCII is what StringLead returns for a first character past ASCII.
const NonASCII = 0x80
