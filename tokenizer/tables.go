package tokenizer

// plain marks the bytes that a string may hold as they are: printable ASCII
// other than '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// space marks JSON whitespace (RFC 8259: space, tab, line feed, carriage return).
// It is jsonwire.IsSpace's set; the scan loops keep their own table because
// jsonwire's check in their place moved the instruction counts of bench's
// workloads by -0.4% to +0.13% (callgrind), and none may get slower.
var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// IsSpace reports whether c is JSON whitespace.
func IsSpace(c byte) bool { return space[c] }

// simpleEscape marks the bytes that may follow '\\' other than 'u'.
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// hexVal maps hexadecimal digits to their value and everything else to -1.
var hexVal = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = int8(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = int8(c - 'a' + 10)
		t[c-'a'+'A'] = int8(c - 'a' + 10)
	}
	return t
}()

// UTF-8 validation (RFC 3629) as a small automaton so that a sequence can be
// cut by the end of a window. u8lead maps a lead byte to the state that
// expects its continuation bytes (0: not a valid lead byte); u8cont says, per
// state, the range the next byte must lie in and the state after it.
const (
	u8Clean = iota
	u8Need1
	u8Need2
	u8Need3
	u8AfterE0 // E0 A0..BF: no overlong three-byte forms
	u8AfterED // ED 80..9F: no encoded surrogates
	u8AfterF0 // F0 90..BF: no overlong four-byte forms
	u8AfterF4 // F4 80..8F: nothing above U+10FFFF
)

var u8lead = func() (t [256]uint8) {
	for c := 0xC2; c <= 0xDF; c++ {
		t[c] = u8Need1
	}
	for c := 0xE1; c <= 0xEF; c++ {
		t[c] = u8Need2
	}
	t[0xE0], t[0xED] = u8AfterE0, u8AfterED
	for c := 0xF1; c <= 0xF3; c++ {
		t[c] = u8Need3
	}
	t[0xF0], t[0xF4] = u8AfterF0, u8AfterF4
	return t
}()

var u8cont = [8]struct{ lo, hi, next uint8 }{
	u8Need1:   {0x80, 0xBF, u8Clean},
	u8Need2:   {0x80, 0xBF, u8Need1},
	u8Need3:   {0x80, 0xBF, u8Need2},
	u8AfterE0: {0xA0, 0xBF, u8Need1},
	u8AfterED: {0x80, 0x9F, u8Need1},
	u8AfterF0: {0x90, 0xBF, u8Need2},
	u8AfterF4: {0x80, 0x8F, u8Need2},
}

// runeLen returns the length of the valid UTF-8 sequence that starts b (whose
// first byte is >= 0x80), or 0 when it is invalid or cut short by the end of b.
func runeLen(b []byte) int {
	x := utf8First[b[0]]
	size := int(x & 7)
	if size == 0 || size > len(b) {
		return 0
	}
	r := u8cont[x>>4]
	if c := b[1]; c < r.lo || c > r.hi {
		return 0
	}
	if size == 2 {
		return 2
	}
	if b[2]&0xC0 != 0x80 {
		return 0
	}
	if size == 3 {
		return 3
	}
	if b[3]&0xC0 != 0x80 {
		return 0
	}
	return 4
}

// utf8First packs, per lead byte, the sequence's length (low 3 bits, 0 for a
// byte that cannot lead) and the automaton state that checks its second byte
// (high 4 bits), so that runeLen needs no loop.
var utf8First = func() (t [256]uint8) {
	for c := 0x80; c < 0x100; c++ {
		st := u8lead[c]
		size := map[uint8]uint8{u8Need1: 2, u8Need2: 3, u8AfterE0: 3, u8AfterED: 3, u8Need3: 4, u8AfterF0: 4, u8AfterF4: 4}[st]
		t[c] = size | st<<4
	}
	return t
}()
