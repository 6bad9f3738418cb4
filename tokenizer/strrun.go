package tokenizer

import "math/bits"

// stringRunGeneric checks string content 64 bytes at a time, from src[0], a
// byte inside a string that no backslash escapes, and returns how far str
// may skip: an index p such that src[:p] is valid content of one string (no
// quote that ends it, no control byte, every escape whole and well formed;
// SPEC V1) and src[p] starts a character (no backslash escapes it and it is
// not a digit of a \u escape). str goes on from there, a byte at a time, with
// what stopped the scan: the closing quote, a byte of 0x80 or above (for its
// UTF-8 check), an error, or the end of the whole blocks. It reads only whole
// blocks, at most maxKernelBlocks, and may return 0.
//
// Escaped text, a run of \u escapes say, costs str a loop turn per escape;
// this scan takes 64 bytes per step whatever they hold.
//
// It is the Go twin of the AVX-512 kernel, fuzzed against it, and what runs
// where there is none.
func stringRunGeneric(src []byte) int {
	var (
		carry   bool   // a backslash at the end of the last block escapes the first byte
		needHex uint64 // the first bytes of the block that a \u escape before it needs to be hex digits
		last    int    // the last index that starts a character, in the blocks scanned
	)
	for n := 0; n+64 <= len(src) && n < maxKernelBlocks*64; n += 64 {
		var quote, backslash, ctl, hi, escChar, u, hex uint64
		for i, c := range (*[64]byte)(src[n : n+64]) {
			bit := uint64(1) << i
			switch {
			case c == '"':
				quote |= bit
			case c == '\\':
				backslash |= bit
			case c < 0x20:
				ctl |= bit
			case c >= 0x80:
				hi |= bit
			}
			if simpleEscape[c] || c == 'u' {
				escChar |= bit
			}
			if c == 'u' {
				u |= bit
			}
			if hexVal[c] >= 0 {
				hex |= bit
			}
		}
		var esc uint64
		esc, carry = escapedBytes(backslash, carry)
		u &= esc
		need := u<<1 | u<<2 | u<<3 | u<<4 | needHex
		starts := ^(esc | need)
		if stop := quote&^esc | ctl | hi | esc&^escChar | need&^hex; stop != 0 {
			if s := starts & (2<<bits.TrailingZeros64(stop) - 1); s != 0 {
				return n + 63 - bits.LeadingZeros64(s)
			}
			return last
		}
		if starts != 0 {
			last = n + 63 - bits.LeadingZeros64(starts)
		}
		needHex = u>>63 | u>>62 | u>>61 | u>>60
	}
	return last
}
