package toolresult

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// parseFloat returns the float64 nearest the validated JSON number that
// ends at doc[end] (one with a fraction or an exponent), correctly rounded,
// and false where it cannot be sure; strconv.ParseFloat then decides. man
// holds the value of the integer part's digits, doc[digits:i] (doc[i] is
// '.', 'e' or 'E'), and neg says whether the number starts with '-'.
//
// It reads the digits once, straight from the document, into a 64-bit
// mantissa (19 digits at most) and a power of ten, and then either
// multiplies exactly (Clinger's fast path: the mantissa and the power both
// exact in a float64) or uses Eisel and Lemire's 128-bit product (Lemire,
// "Number Parsing at a Gigabyte per Second", 2021), which rounds correctly
// or says it cannot. FuzzParseFloat checks it against strconv.ParseFloat.
func parseFloat(doc []byte, end int, man uint64, digits, i int, neg bool) (float64, bool) {
	nd, exp := i-digits, 0 // the digits read, with leading zeros; the power of ten
	if doc[i] == '.' {
		k := i + 1
		// Fractions are long (15 digits and more where they come from
		// floats printed in full): eight digits at a time first.
		for i = k; end-i >= 8; i += 8 {
			v := binary.LittleEndian.Uint64(doc[i:])
			if !allDigits(v) {
				break
			}
			man = man*1e8 + tokenizer.EightDigits(v)
		}
		// Fewer than eight left, up to the end without an exponent: the
		// eight bytes that end the number, those before i taken as '0's.
		if r := end - i; r > 0 && r < 8 && end >= 8 {
			low := uint64(1)<<(uint(8-r)*8&63) - 1
			v := binary.LittleEndian.Uint64(doc[end-8:])&^low | 0x3030303030303030&low
			if allDigits(v) {
				man = man*tokenizer.SmallPow10(r) + tokenizer.EightDigits(v)
				i = end
			}
		}
		man, i = readDigits(doc, i, end, man)
		exp = k - i
		nd -= exp
	}
	if nd > 19 {
		return 0, false // man may have wrapped
	}
	if i < end { // 'e' or 'E', a sign, digits
		i++
		eneg := doc[i] == '-'
		if doc[i] == '-' || doc[i] == '+' {
			i++
		}
		e := 0
		for ; i < end; i++ {
			if e < 1<<20 { // past it, the number is 0 or Inf: the table says no
				e = e*10 + int(doc[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	return floatFromParts(man, exp, neg)
}

// floatFromParts returns ±man·10^exp (man of 19 digits at most) correctly
// rounded, or false where it cannot be sure.
func floatFromParts(man uint64, exp int, neg bool) (float64, bool) {
	if man == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if man <= 1<<53 && exp >= -22 && exp <= 22 {
		f := float64(man) // exact, and so is the power: one rounding
		if exp >= 0 {
			f *= exactPow10[exp]
		} else {
			f /= exactPow10[-exp]
		}
		if neg {
			f = -f
		}
		return f, true
	}
	return eiselLemire(man, exp, neg)
}

// readDigits reads the decimal digits of doc[i:end] from its start into
// man (which wraps past 19 digits: the caller counts them), and returns it
// and the index of the first byte that is not a digit, or end. (Eight
// digits at a time ran more instructions here, on the short integer parts
// of canada.json: the loop no longer inlined.)
func readDigits(doc []byte, i, end int, man uint64) (uint64, int) {
	b := doc[:end] // no bounds check in the loop
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		man = man*10 + uint64(c)
	}
	return man, i
}

// allDigits reports whether the eight bytes of v are ASCII digits: each
// high nibble is 3, and stays 3 when 6 is added (a byte of 0xFA or more,
// which carries into the next, fails the test itself).
func allDigits(v uint64) bool {
	return v&0xF0F0F0F0F0F0F0F0|(v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0>>4 == 0x3333333333333333
}

// exactPow10 are the powers of ten that a float64 holds exactly.
var exactPow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// eiselLemire returns man·10^q rounded to the nearest float64 (ties to
// even), or false where the 128-bit product cannot decide the rounding,
// or where q is past the table, or the result is subnormal or infinite.
// man is not 0.
func eiselLemire(man uint64, q int, neg bool) (float64, bool) {
	if q < minPow10 || q > maxPow10 {
		return 0, false
	}
	p := &pow10Table[q-minPow10]
	// w·P, P = 10^q's 128-bit mantissa, w = man shifted to its top bit.
	lz := bits.LeadingZeros64(man)
	w := man << lz
	hi, lo := bits.Mul64(w, p.hi)
	if hi&0x1FF == 0x1FF && lo+w < lo {
		// The bits below the result's are all ones: w times P's low half
		// may carry into them.
		hi2, lo2 := bits.Mul64(w, p.lo)
		var c uint64
		lo, c = bits.Add64(lo, hi2, 0)
		hi += c
		if hi&0x1FF == 0x1FF && lo == math.MaxUint64 && lo2+w < lo2 {
			return 0, false // still undecided
		}
	}
	// hi holds 63 or 64 bits: keep 54 (53 and one to round with).
	top := int(hi >> 63)
	m := hi >> (top + 9)
	if lo == 0 && hi&0x1FF == 0 && m&3 == 1 {
		return 0, false // looks like a tie, and P is rounded down: undecided
	}
	m += m & 1
	m >>= 1
	// w·P·2^(e2-127-lz) = hi·2^(e2+1-lz) = m·2^(e2+11+top-lz), so the
	// binary exponent of the result is e2+63+top-lz.
	e := p.e2 + 63 + top - lz + 1023
	if m == 1<<53 { // rounded up past 53 bits
		m >>= 1
		e++
	}
	if e < 1 || e > 2046 {
		return 0, false
	}
	b := uint64(e)<<52 | m&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

// The powers of ten in the table: the exponents of the numbers documents
// hold. Past them, strconv.ParseFloat.
const (
	minPow10 = -128
	maxPow10 = 128
)

// pow128 is a power of ten 10^q as P·2^(e2-127): P = hi·2^64+lo, the
// first 128 bits of 10^q (top bit set), rounded down; e2 = ⌊log2 10^q⌋.
type pow128 struct {
	hi, lo uint64
	e2     int
}
