package tokenizer

import (
	"encoding/binary"
	"math/bits"
)

// indexBlocks is how many 64-byte blocks of the window the quote index holds
// at a time, and builds in one call to its kernel.
const indexBlocks = 16

// quoteIndex is where the quotes and backslashes are in a stretch of the
// window: the blocks src[64*from : 64*(from+n)] (blocks aligned on the
// window's start), built by the kernel (quoteBits) when the trusted member
// loop first looks for a string's end in them, then read by every string
// that starts there. It holds the raw bytes' positions only, no string state,
// so it answers "where is the next quote or backslash from here" for any
// position in the stretch; a stretch the loop never reads a string in (a
// dropped container, which SkipTrusted skips) is never built.
//
// It describes the window the Scanner was last given: SetBase, which every
// caller calls when it moves to a new window, forgets it (n 0).
type quoteIndex struct {
	from, n int
	b       [indexBlocks]quoteBlock
}

// quoteBlock is one block of the quote index: bit k is set when the block's
// byte k is '"' or '\\' (the byte itself tells which).
type quoteBlock uint64

// quoteBitsGeneric fills out with the quote and backslash bits of the blocks
// of src (whole blocks only): the twin of the AVX2 kernel, and what runs
// without it.
func quoteBitsGeneric(src []byte, out []quoteBlock) {
	for k := range out {
		var q quoteBlock
		for i, c := range src[64*k : 64*k+64] {
			if c == '"' || c == '\\' {
				q |= 1 << i
			}
		}
		out[k] = q
	}
}

// trustedStringEnd is scalarEnd in trusted mode (SPEC V4) for the string at
// src[i]: the index after the first quote that no backslash escapes, when it
// is in the window and the string is no longer than maxToken, checking
// nothing else; 0 otherwise. That is where SkipTrusted and AppendTrusted end
// it too, which the caller falls back to when this returns 0, so the verdict
// is the same at every split (SPEC S1).
//
// The quote index answers; a backslash before the quote, or a string that
// reaches the window's last partial block, goes to quotedEnd from there.
func (s *Scanner) trustedStringEnd(src []byte, i int) int {
	p := i + 1
	for {
		k := uint(p>>6 - s.qidx.from)
		if k >= uint(s.qidx.n) {
			if p = s.index(src, p); p < 0 {
				p = quotedEnd(src, -p) // the window's last partial block
				break
			}
			k = 0
		}
		if m := uint64(s.qidx.b[k&(indexBlocks-1)]) >> (p & 63); m != 0 {
			p += bits.TrailingZeros64(m)
			if src[p] == '"' {
				p++
			} else {
				p = quotedEnd(src, p) // a backslash: the byte loop from it
			}
			break
		}
		p = (p | 63) + 1 // the next block
	}
	if p == 0 || p-i > s.maxToken {
		return 0
	}
	return p
}

// index builds the quote index's stretch from the block that holds src[p],
// and returns p; or -p when that block is the window's last, partial one.
func (s *Scanner) index(src []byte, p int) int {
	b := p >> 6
	n := min(len(src)>>6-b, indexBlocks)
	if n <= 0 {
		return -p
	}
	quoteBits(src[b<<6:(b+n)<<6], s.qidx.b[:n])
	s.qidx.from, s.qidx.n = b, n
	return p
}

// trustedNumberEnd is scalarEnd in trusted mode for what starts at src[i]
// and is neither a string nor a literal: when it starts a number, the index
// of the first ',', '}', ']' or whitespace after it, if that is in the window,
// checking nothing else (where the trusted scans end it); 0 otherwise, and
// for a byte that starts no value (Peek reports it).
func (s *Scanner) trustedNumberEnd(src []byte, i int) int {
	if valueKind[src[i]] != Number {
		return 0
	}
	if j := trustedBareEnd(src, i); j != 0 && j-i <= s.maxToken {
		return j
	}
	return 0
}

// trustedBareEnd returns the index of the first ',', '}', ']' or whitespace
// byte after the number or literal that starts at src[i], when it lies in the
// window and is not src[i] itself; 0 otherwise. It reads a word at a time:
// bareStops flags those bytes and every byte up to ' ', and a control byte
// that is not whitespace, which a trusted scan does not end a scalar at,
// goes to the trusted scans.
func trustedBareEnd(src []byte, i int) int {
	j := i
	for j < len(src)-7 { // j+8 <= len(src), as in plainEnd
		if m := bareStops(binary.LittleEndian.Uint64(src[j:])); m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			if j == i || !endsTrustedScalar(src[j]) {
				return 0
			}
			return j
		}
		j += 8
	}
	for ; j < len(src); j++ {
		if c := src[j]; c <= ' ' || c == ',' || c|0x20 == '}' {
			if j == i || !endsTrustedScalar(c) {
				return 0
			}
			return j
		}
	}
	return 0
}

// bareStops flags ',', '}', ']' and the bytes up to ' ': where a trusted scan
// may end a number or literal. ']' and '}' differ only in bit 5.
func bareStops(w uint64) uint64 {
	c := w ^ ','*lsb
	b := (w | 0x20*lsb) ^ '}'*lsb
	return ((c-lsb)&^c | (b-lsb)&^b | (w-0x21*lsb)&^w) & msb
}
