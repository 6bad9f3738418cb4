package tokenizer

import (
	"bytes"
	"math/bits"
	"unicode/utf8"
)

// stringRunGeneric checks string content 64 bytes at a time, from src[0], a
// byte inside a string that starts a character (no backslash escapes it, it
// is not a digit of a \u escape nor a UTF-8 continuation byte), and returns
// how far str may skip: an index p such that src[:p] is valid content of one
// string (no quote that ends it, no control byte, every escape whole and well
// formed, valid UTF-8; SPEC V1) and src[p] starts a character. str goes on
// from there, a byte at a time, with what stopped the scan: the closing
// quote, an error, or the end of the whole blocks; or, when stopBackslash is
// true, a backslash, so that str sees the string's first escape and says so
// in Token.Escaped. It reads only whole blocks, at most maxKernelBlocks, and
// may return 0.
//
// Escaped text (a run of \u escapes) and text in most scripts (a run of
// 2- and 3-byte UTF-8 sequences) cost str a loop turn per character; this
// scan takes 64 bytes per step whatever they hold. It checks UTF-8 as
// simdjson does (Keiser and Lemire, "Validating UTF-8 in less than one
// instruction per byte", 2021): three table lookups per byte, on the high
// and low nibble of the byte before and the high nibble of the byte, flag
// every bad pair, and a byte that must continue a 3- or 4-byte sequence is
// checked against the two and three before. An error is flagged at a byte
// after the lead of the sequence it spoils, so the scan stops before the
// last start before it.
//
// It is the Go twin of the AVX-512 kernel, fuzzed against it, and the
// reference for tests: it is slower than str's byte loop, which runs where
// there is no kernel.
func stringRunGeneric(src []byte, stopBackslash bool) int {
	var (
		carry      bool   // a backslash at the end of the last block escapes the first byte
		needHex    uint64 // the first bytes of the block that a \u escape before it needs to be hex digits
		last       int    // the last index that starts a character, in the blocks scanned
		p1, p2, p3 byte   // the last three bytes, for the UTF-8 check
	)
	for n := 0; n+64 <= len(src) && n < maxKernelBlocks*64; n += 64 {
		var quote, backslash, ctl, cont, bad8, escChar, u, hex uint64
		for i, c := range (*[64]byte)(src[n : n+64]) {
			bit := uint64(1) << i
			switch {
			case c == '"':
				quote |= bit
			case c == '\\':
				backslash |= bit
			case c < 0x20:
				ctl |= bit
			case c&0xC0 == 0x80:
				cont |= bit
			}
			if utf8Error(p3, p2, p1, c) {
				bad8 |= bit
			}
			p3, p2, p1 = p2, p1, c
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
		starts := ^(esc | need | cont)
		stop := quote&^esc | ctl | bad8 | esc&^escChar | need&^hex
		if stopBackslash {
			stop |= backslash
		}
		if stop != 0 {
			if s := starts & upTo(stop, bad8); s != 0 {
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

// upTo returns the mask of the bytes before the first stop, and the stop
// itself unless it is a UTF-8 error (flagged after the start of its sequence).
func upTo(stop, bad8 uint64) uint64 {
	b := bits.TrailingZeros64(stop)
	if bad8>>b&1 != 0 {
		return 1<<b - 1
	}
	return 2<<b - 1
}

// utf8Error reports whether the lookup check flags c, after p3, p2 and p1.
func utf8Error(p3, p2, p1, c byte) bool {
	special := utf8Byte1High[p1>>4] & utf8Byte1Low[p1&15] & utf8Byte2High[c>>4]
	var must byte
	if p2 >= 0xE0 || p3 >= 0xF0 {
		must = 0x80 // c must continue a 3- or 4-byte sequence
	}
	return special^must != 0
}

// The error classes of the UTF-8 lookup check, one bit each; a pair of
// bytes is bad when the three lookups share one.
const (
	u8TooShort     = 1 << 0 // a lead not followed by a continuation
	u8TooLong      = 1 << 1 // a continuation after ASCII
	u8Overlong3    = 1 << 2
	u8TooLarge     = 1 << 3
	u8Surrogate    = 1 << 4
	u8Overlong2    = 1 << 5
	u8TooLarge1000 = 1 << 6
	u8Overlong4    = 1 << 6
	u8TwoConts     = 1 << 7 // two continuations: fine only where one must follow a 3- or 4-byte lead
	u8Carry        = u8TooShort | u8TooLong | u8TwoConts
)

// utf8Byte1High, utf8Byte1Low and utf8Byte2High are the lookup tables, by
// the high and low nibble of the first byte of a pair and the high nibble of
// the second. The kernel holds the same 48 bytes (strrun_amd64.s).
var (
	utf8Byte1High = [16]byte{
		u8TooLong, u8TooLong, u8TooLong, u8TooLong, u8TooLong, u8TooLong, u8TooLong, u8TooLong,
		u8TwoConts, u8TwoConts, u8TwoConts, u8TwoConts,
		u8TooShort | u8Overlong2,
		u8TooShort,
		u8TooShort | u8Overlong3 | u8Surrogate,
		u8TooShort | u8TooLarge | u8TooLarge1000 | u8Overlong4,
	}
	utf8Byte1Low = [16]byte{
		u8Carry | u8Overlong3 | u8Overlong2 | u8Overlong4,
		u8Carry | u8Overlong2,
		u8Carry, u8Carry,
		u8Carry | u8TooLarge,
		u8Carry | u8TooLarge | u8TooLarge1000, u8Carry | u8TooLarge | u8TooLarge1000,
		u8Carry | u8TooLarge | u8TooLarge1000, u8Carry | u8TooLarge | u8TooLarge1000,
		u8Carry | u8TooLarge | u8TooLarge1000, u8Carry | u8TooLarge | u8TooLarge1000,
		u8Carry | u8TooLarge | u8TooLarge1000, u8Carry | u8TooLarge | u8TooLarge1000,
		u8Carry | u8TooLarge | u8TooLarge1000 | u8Surrogate,
		u8Carry | u8TooLarge | u8TooLarge1000, u8Carry | u8TooLarge | u8TooLarge1000,
	}
	utf8Byte2High = [16]byte{
		u8TooShort, u8TooShort, u8TooShort, u8TooShort, u8TooShort, u8TooShort, u8TooShort, u8TooShort,
		u8TooLong | u8Overlong2 | u8TwoConts | u8Overlong3 | u8TooLarge1000 | u8Overlong4,
		u8TooLong | u8Overlong2 | u8TwoConts | u8Overlong3 | u8TooLarge,
		u8TooLong | u8Overlong2 | u8TwoConts | u8Surrogate | u8TooLarge,
		u8TooLong | u8Overlong2 | u8TwoConts | u8Surrogate | u8TooLarge,
		u8TooShort, u8TooShort, u8TooShort, u8TooShort,
	}
)

// shortReach is how far stringShort's first step looks for a string's
// closing quote.
const shortReach = 32

// stringShortGeneric is stringRunGeneric, with a first step for a short
// string: when src holds a whole block and the first quote in
// src[:shortReach] ends content that is valid with no escape (no backslash,
// no control byte, valid UTF-8; SPEC V1), it returns that quote's index, as
// stringRunGeneric would (whatever stopBackslash); otherwise it goes on as
// stringRunGeneric. So the result is stringRunGeneric's; the step only costs
// the kernels (stringShortAVX2, stringShortAVX512) fewer instructions for a
// value or key of a few words in most scripts ("über in", a name), which
// stringRun checked as a whole block.
//
// It is the Go twin of those kernels, fuzzed against them (FuzzStringRun).
func stringShortGeneric(src []byte, stopBackslash bool) int {
	if len(src) >= 64 {
		if q := shortStep(src[:shortReach]); q >= 0 {
			return q
		}
	}
	return stringRunGeneric(src, stopBackslash)
}

// shortStep returns the index of the first quote in src when the content
// before it is valid with no escape, and -1 otherwise. The kernels run the
// same check on UTF-8 as stringRunGeneric; utf8.Valid is the same test.
func shortStep(src []byte) int {
	q := bytes.IndexByte(src, '"')
	if q < 0 {
		return -1
	}
	for _, c := range src[:q] {
		if c == '\\' || c < 0x20 {
			return -1
		}
	}
	if !utf8.Valid(src[:q]) {
		return -1
	}
	return q
}

// escClass is the class of c that the string kernels find by two table
// lookups, on the high and the low nibble, where they check escapes:
// escClassHigh[c>>4] & escClassLow[c&15]. Its low four bits are not all 0
// exactly when c may follow a backslash ('"', '\\', '/', 'b', 'f', 'n', 'r',
// 't', 'u'), bits 4 and 5 exactly when c is a hex digit, and bit 7 exactly
// when c is 'u' (TestEscClass). The kernels hold the same 32 bytes
// (strrun_amd64.s, strrun2_amd64.s).
func escClass(c byte) byte { return escClassHigh[c>>4] & escClassLow[c&15] }

var (
	escClassHigh = [16]byte{2: 0x01, 3: 0x10, 4: 0x20, 5: 0x02, 6: 0x24, 7: 0x88}
	escClassLow  = [16]byte{0x10, 0x30, 0x3d, 0x30, 0x38, 0xb8, 0x34, 0x10, 0x10, 0x10, 0xc: 0x02, 0xe: 0x04, 0xf: 0x01}
)
