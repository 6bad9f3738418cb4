package jsonwire

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
