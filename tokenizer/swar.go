package tokenizer

// Word-at-a-time ("SWAR") tests over 8 bytes loaded little-endian. Each returns
// a mask with the high bit set in every byte that matches. A borrow can set
// false bits only above (at higher addresses than) a byte that truly matches,
// so the lowest set bit, found with bits.TrailingZeros64, is always exact.

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// stringStops flags the bytes that end a run of plain string content: '"',
// '\\', control bytes (< 0x20) and bytes of multi-byte UTF-8 sequences. One
// subtraction finds both control bytes and '"': XOR with 0x02 turns '"' into
// 0x20 and keeps every control byte below it, and ' ' (now 0x22) and the
// rest above.
func stringStops(w uint64) uint64 {
	return (((w ^ 0x02*lsb) - 0x21*lsb) | ((w ^ '\\'*lsb) - lsb) | w) & msb
}

// quoteOrBackslash flags '"' and '\\'.
func quoteOrBackslash(w uint64) uint64 {
	q := w ^ '"'*lsb
	b := w ^ '\\'*lsb
	return ((q-lsb)&^q | (b-lsb)&^b) & msb
}

// structural flags '"', '\\', '[', ']', '{' and '}': what a trusted scan
// must see outside strings. '[' and '{' differ only in bit 5, as do ']' and '}'.
func structural(w uint64) uint64 {
	q := w ^ '"'*lsb
	b := w ^ '\\'*lsb
	o := (w | 0x20*lsb) ^ '{'*lsb
	c := (w | 0x20*lsb) ^ '}'*lsb
	return ((q-lsb)&^q | (b-lsb)&^b | (o-lsb)&^o | (c-lsb)&^c) & msb
}

// nonDigits flags the bytes that are not ASCII digits.
func nonDigits(w uint64) uint64 {
	return ((w - '0'*lsb) | (w + (0x80-'9'-1)*lsb) | w) & msb
}

// structuralOrSpace flags what structural flags, and the bytes up to ' ':
// whitespace, and the control bytes that valid JSON has none of outside strings.
func structuralOrSpace(w uint64) uint64 {
	return structural(w) | (w-0x21*lsb)&^w&msb
}

// allHex reports whether the 4 bytes of w are all hexadecimal digits: the
// digits of a \u escape. With every byte below 0x80, adding a constant to a
// byte cannot carry into the next, so its high bit tests a bound.
func allHex(w uint32) bool {
	const l = 0x01010101
	if w&(0x80*l) != 0 {
		return false
	}
	digit := (w + (0x80-'0')*l) &^ (w + (0x7f-'9')*l)
	f := w | 0x20*l // 'A'-'F' to 'a'-'f'
	alpha := (f + (0x80-'a')*l) &^ (f + (0x7f-'f')*l)
	return (digit|alpha)&(0x80*l) == 0x80*l
}

// appendRun appends src[a:b] to dst. A run of at most 16 bytes, as between
// two runs of whitespace, is moved with one 16-byte copy where dst has room
// and the 16 bytes from src[a] all lie before limit: the end of the value
// being copied, so that what lands past len(dst) is the value's own bytes,
// never a dropped one's. The call to memmove that append makes costs more
// than the copy.
func appendRun(dst, src []byte, a, b, limit int) []byte {
	n := len(dst)
	if b-a <= 16 && a+16 <= limit && limit <= len(src) && cap(dst)-n >= 16 {
		*(*[16]byte)(dst[n : n+16]) = *(*[16]byte)(src[a : a+16])
		return dst[:n+b-a]
	}
	return append(dst, src[a:b]...)
}

// appendShort appends src[a:b] to dst, a run between two runs of whitespace
// inside a value being copied: one of at most 16 bytes with one 16-byte move
// where the 16 bytes from src[a] lie in src and dst has room for them. The
// bytes it moves past the run land after dst's last byte, to be overwritten
// by what comes next: the value's caller clears what may be left of them
// past its end (AppendValue).
func appendShort(dst, src []byte, a, b int) []byte {
	n := len(dst)
	if b-a <= 16 && a+16 <= len(src) && cap(dst)-n >= 16 {
		*(*[16]byte)(dst[n : n+16]) = *(*[16]byte)(src[a : a+16])
		return dst[:n+b-a]
	}
	return append(dst, src[a:b]...)
}
