package jsonwire

// KindName returns the name, as JSON Schema's "type" keyword and our
// diagnostics spell it, of the kind of value whose first byte is c:
// "object", "array", "string", "number", "boolean" or "null"; "" for a byte
// that starts no value.
func KindName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return ""
}
