package tokenizer

import (
	"encoding/binary"
	"math/bits"
)

// ElementSpan is one scalar element that [Scanner.ScalarElements] read: its
// span (a string's quotes included) and, for a number, its parts.
type ElementSpan struct {
	Start, End int
	Num        NumberParts // when src[Start] is '-' or a digit
	Escaped    bool        // when src[Start] is '"': the string holds a backslash escape
}

// NumberParts is a number literal read into its parts while it was
// validated, so that a decoder need not read its digits again: the value is
// ±Mantissa·10^Exp while Digits is 19 or fewer.
type NumberParts struct {
	Mantissa uint64 // the digits, without the point, as an integer (it wraps past 19 digits)
	Digits   int    // how many digits Mantissa took, leading zeros included
	Exp      int    // the exponent less the fraction's digits (an exponent past ±2^20 is taken as 2^20-ish: 0 or Inf anyway)
	Neg      bool   // it starts with '-'
	Int      bool   // it has neither a fraction nor an exponent
}

// ScalarElements reads the scalar elements of the innermost array from
// src[i] (after its '[' or an element) into spans, as many as fit, in one
// loop: what [Scanner.Element] and [Scanner.Scalar] would take one at a
// time, with each number's digits read once, for its validation and its
// value together. It must be called only where the innermost open
// container is an array, as Element.
//
// It returns the number of spans filled, the index where the caller goes
// on, and what stopped it: ArrayEnd when it read the array's closing ']'
// too; ArrayStart or ObjectStart when the next element is a container,
// whose first byte is at the index (what came before it consumed, as
// Element does: [Scanner.Open] or Next goes on); None otherwise. Whatever
// else stops it (a scalar not whole, valid and within the token limit in
// the window, the window's end, an error) is left unconsumed, for Element,
// Peek and Next, which report errors precisely.
func (s *Scanner) ScalarElements(src []byte, i int, spans []ElementSpan) (n, at int, stop Kind) {
	state := s.state
	if state != stNext && state != stValueOrEnd {
		return 0, i, None
	}
	for n < len(spans) {
		j := i
		if j < len(src) && src[j] <= ' ' {
			j = skipSpace(src, j)
		}
		if j >= len(src) {
			break
		}
		if src[j] == ']' {
			s.depth--
			s.state = s.after()
			return n, j + 1, ArrayEnd
		}
		if state == stNext {
			if src[j] != ',' {
				break
			}
			if j++; j < len(src) && src[j] <= ' ' {
				j = skipSpace(src, j)
			}
			if j >= len(src) {
				break
			}
		}
		sp := &spans[n]
		var end int
		switch c := src[j]; {
		case c == '-' || c-'0' < 10:
			end = readNumberParts(src, j, &sp.Num)
		case c == '"':
			end = s.stringElement(src, j, sp)
		case c == 't' || c == 'f' || c == 'n':
			end = s.scalarEnd(src, j, false)
		case c|0x20 == '{': // '{' or '['
			s.state = stValue
			return n, j, Kind(c)
		}
		if end == 0 || end-j > s.maxToken {
			break
		}
		sp.Start, sp.End = j, end
		n++
		i, state = end, stNext
	}
	s.state = state
	return n, i, None
}

// readNumberParts reads the number that starts at src[i] into p, checking
// it as numberEnd does, and returns the index after it; or 0 when it is not
// well formed or does not end inside the window (p is then undefined).
func readNumberParts(src []byte, i int, p *NumberParts) int {
	n := len(src)
	j := i
	neg := src[j] == '-'
	if neg {
		if j++; j >= n {
			return 0
		}
	}
	var man uint64
	first := j
	switch c := src[j]; {
	case c == '0':
		j++
	case c-'1' < 9:
		man = uint64(c - '0')
		for j++; j < n; j++ {
			d := src[j] - '0'
			if d > 9 {
				break
			}
			man = man*10 + uint64(d)
		}
	default:
		return 0
	}
	if j >= n {
		return 0
	}
	nd, exp, isInt := j-first, 0, true
	if src[j] == '.' {
		isInt = false
		k := j + 1
		// Fractions are long (15 digits and more where they come from
		// floats printed in full): eight digits at a time, and the last
		// ones from one load too.
		for j = k; j+8 <= n; j += 8 {
			v := binary.LittleEndian.Uint64(src[j:])
			if m := nonDigits(v); m != 0 {
				if r := bits.TrailingZeros64(m) >> 3; r > 0 {
					// The r digits in the low bytes, moved up, the bytes
					// below them taken as '0's.
					sh := uint(8-r) * 8
					man = man*pow10u64[r] + EightDigits(v<<sh|0x3030303030303030&(1<<sh-1))
					j += r
				}
				break
			}
			man = man*1e8 + EightDigits(v)
		}
		for ; j < n; j++ {
			d := src[j] - '0'
			if d > 9 {
				break
			}
			man = man*10 + uint64(d)
		}
		if j == k || j >= n {
			return 0
		}
		nd += j - k
		exp = k - j
	}
	if src[j]|0x20 == 'e' {
		isInt = false
		j++
		eneg := false
		if j < n && (src[j] == '+' || src[j] == '-') {
			eneg = src[j] == '-'
			j++
		}
		k, e := j, 0
		for ; j < n; j++ {
			d := src[j] - '0'
			if d > 9 {
				break
			}
			if e < 1<<20 { // past it, the number is 0 or Inf
				e = e*10 + int(d)
			}
		}
		if j == k || j >= n {
			return 0
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	// Field by field: a composite literal is built aside and copied.
	p.Mantissa, p.Digits, p.Exp, p.Neg, p.Int = man, nd, exp, neg, isInt
	return j
}

// pow10u64 are 10^n for n from 0 to 7.
var pow10u64 = [8]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7}

// SmallPow10 is 10^n for n from 0 to 7 (n is taken modulo 8): the scale
// of a run of fewer than eight digits read by [EightDigits].
func SmallPow10(n int) uint64 { return pow10u64[n&7] }

// EightDigits is the value of the eight ASCII digits in v, the first in
// its low byte (a little-endian load of them): pairs, then fours, then the
// eight, each step by multiplications that add the parts in place. The
// tokenizer and the decoders read numbers' digits eight at a time with it.
func EightDigits(v uint64) uint64 {
	v -= 0x3030303030303030
	v = v*10 + v>>8 // each even byte: the value of its pair
	const mask = 0x000000FF000000FF
	return ((v&mask)*(100+1000000<<32) + (v>>16&mask)*(1+10000<<32)) >> 32
}
