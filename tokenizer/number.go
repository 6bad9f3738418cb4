package tokenizer

import (
	"encoding/binary"
	"math/bits"
)

// Number grammar states (RFC 8259 section 6). The terminal ones are those
// after which a number may end: numZero, numInt, numFrac, numExpDigits.
const (
	numBegin     = iota // nothing read
	numMinus            // "-"
	numZero             // "-?0"
	numInt              // "-?[1-9][0-9]*"
	numDot              // int "."
	numFrac             // int "." digits
	numExp              // mantissa [eE]
	numExpSign          // mantissa [eE][+-]
	numExpDigits        // mantissa [eE][+-]? digits
)

func numTerminal(st uint8) bool {
	return st == numZero || st == numInt || st == numFrac || st == numExpDigits
}

func isDigit(c byte) bool { return c-'0' < 10 }

// digits returns the index of the first byte at or after j that is not an
// ASCII digit, 8 bytes at a time.
func digits(src []byte, j int) int {
	for j+8 <= len(src) {
		if m := nonDigits(binary.LittleEndian.Uint64(src[j : j+8])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		j += 8
	}
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	return j
}

// number scans a number from src[i] in state s.num. It returns the index of
// the first byte after the number and true, or len(src) and false when the
// window ends while the number may still go on. The byte that ends a number is
// not consumed: the grammar decides whether it may follow a value.
func (s *Scanner) number(src []byte, i int) (int, bool, error) {
	st := s.num
	for i < len(src) {
		c := src[i]
		switch st {
		case numBegin:
			switch {
			case c == '-':
				st = numMinus
			case c == '0':
				st = numZero
			case isDigit(c):
				st = numInt
			default:
				return i, false, s.errChar(src, i, ctxValue)
			}
		case numMinus:
			switch {
			case c == '0':
				st = numZero
			case isDigit(c):
				st = numInt
			default:
				return i, false, s.errChar(src, i, ctxNumber)
			}
		case numInt, numFrac, numExpDigits:
			for isDigit(c) {
				if i++; i == len(src) {
					s.num = st
					return i, false, nil
				}
				c = src[i]
			}
			if st == numExpDigits {
				s.num = st
				return i, true, nil
			}
			fallthrough
		case numZero:
			switch {
			case c == '.' && st != numFrac:
				st = numDot
			case c|0x20 == 'e':
				st = numExp
			default:
				s.num = st
				return i, true, nil
			}
		case numDot:
			if !isDigit(c) {
				return i, false, s.errChar(src, i, "after decimal point in numeric literal")
			}
			st = numFrac
		case numExp:
			switch {
			case c == '+' || c == '-':
				st = numExpSign
			case isDigit(c):
				st = numExpDigits
			default:
				return i, false, s.errChar(src, i, "in exponent of numeric literal")
			}
		case numExpSign:
			if !isDigit(c) {
				return i, false, s.errChar(src, i, "in exponent of numeric literal")
			}
			st = numExpDigits
		}
		i++
	}
	s.num = st
	return i, false, nil
}

// numberEnd returns the index just after the number that starts src[i] when
// it is well formed and ends inside the window, and 0 otherwise: then the
// resumable number method scans it again, to report the error or to wait for
// the next window. This straight-line path serves almost every number.
func numberEnd(src []byte, i int) int {
	n := len(src)
	j := i
	if src[j] == '-' {
		j++
	}
	if j >= n {
		return 0
	}
	switch c := src[j]; {
	case c == '0':
		j++
	case c-'1' < 9:
		j = digits(src, j+1)
	default:
		return 0
	}
	if j >= n {
		return 0
	}
	if src[j] == '.' {
		k := j + 1
		if j = digits(src, k); j == k || j >= n {
			return 0
		}
	}
	if src[j]|0x20 == 'e' {
		j++
		if j < n && (src[j] == '+' || src[j] == '-') {
			j++
		}
		k := j
		if j = digits(src, k); j == k || j >= n {
			return 0
		}
	}
	return j
}
