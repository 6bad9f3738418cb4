package tokenizer

// blockMasks are the bitmasks of one 64-byte block, bit i for byte i: what
// the trusted scans look for, found 64 bytes at a time.
type blockMasks struct {
	quote, backslash, open, close, space uint64
}

// classifyGeneric computes the masks a byte at a time: the reference that the
// assembly kernel is tested and fuzzed against (it is also what runs where
// there is no kernel, though there the word-at-a-time loops run instead).
func classifyGeneric(b *[64]byte) (m blockMasks) {
	for i, c := range b {
		bit := uint64(1) << i
		switch {
		case c == '"':
			m.quote |= bit
		case c == '\\':
			m.backslash |= bit
		case c == '{' || c == '[':
			m.open |= bit
		case c == '}' || c == ']':
			m.close |= bit
		case c <= ' ':
			m.space |= bit
		}
	}
	return m
}

// strings returns the bytes of the block that lie inside strings (opening
// quote included, closing quote not), given inStr, all ones when the block
// starts inside a string, and escaped, whether a backslash before the block
// escapes its first byte; and whether the next block's first byte is escaped.
func (m *blockMasks) strings(inStr uint64, escaped bool) (strs uint64, carry bool) {
	esc, carry := escapedBytes(m.backslash, escaped)
	return prefixXor(m.quote&^esc) ^ inStr, carry
}

const oddBits = 0xAAAAAAAAAAAAAAAA

// escapedBytes returns, for a block's backslash mask, the mask of the bytes
// that a backslash escapes, given whether the block's first byte is escaped by
// a backslash at the end of the block before; and whether the next block's
// first byte is. This is simdjson's escape scanner: a run of backslashes
// escapes the byte after it when the run is odd.
func escapedBytes(backslash uint64, carry bool) (escaped uint64, nextCarry bool) {
	var in uint64
	if carry {
		in = 1
	}
	if backslash == 0 {
		return in, false
	}
	potential := backslash &^ in
	maybe := potential << 1
	code := ((maybe | oddBits) - potential) ^ oddBits
	escaped = code ^ (backslash | in)
	escape := code & backslash
	return escaped, escape>>63 != 0
}

// prefixXor returns the mask whose bit i is the parity of the bits 0..i of x:
// from a mask of quotes, the bytes inside strings (opening quote included).
func prefixXor(x uint64) uint64 {
	x ^= x << 1
	x ^= x << 2
	x ^= x << 4
	x ^= x << 8
	x ^= x << 16
	x ^= x << 32
	return x
}
