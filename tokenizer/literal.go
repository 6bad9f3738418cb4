package tokenizer

import "encoding/binary"

// The three literals, laid end to end; a literal in progress is a position in
// this string and the position where its literal ends.
const literals = "truefalsenull"

func literalSpan(c byte) (begin, end uint8) {
	switch c {
	case 't':
		return 0, 4
	case 'f':
		return 4, 9
	default:
		return 9, 13
	}
}

// literal scans true, false or null from src[i], where s.lit is the position
// in literals of the next byte expected. It returns the index after the
// literal and true, or len(src) and false when the window ends inside it.
func (s *Scanner) literal(src []byte, i int) (int, bool, error) {
	for ; s.lit < s.litEnd; s.lit++ {
		if i == len(src) {
			return i, false, nil
		}
		if src[i] != literals[s.lit] {
			b, e := s.litSpan()
			return i, false, s.errChar(src, i, "in literal "+literals[b:e]+" (expecting "+QuoteChar(literals[s.lit])+")")
		}
		i++
	}
	return i, true, nil
}

// litSpan returns the bounds in literals of the literal in progress.
func (s *Scanner) litSpan() (uint8, uint8) {
	switch s.litEnd {
	case 4:
		return 0, 4
	case 9:
		return 4, 9
	default:
		return 9, 13
	}
}

// startLiteral begins the literal at src[i] byte by byte: for one that
// [wholeLiteral] did not take, cut by the window's end or misspelled.
func (s *Scanner) startLiteral(src []byte, i int) (int, bool, error) {
	b, e := literalSpan(src[i])
	s.lit, s.litEnd = b+1, e
	return s.literal(src, i+1)
}

// wholeLiteral returns the length of the literal that starts src[i] when it
// is whole in src, or 0: one 32-bit comparison for each literal.
func wholeLiteral(src []byte, i int) int {
	if i+4 > len(src) {
		return 0
	}
	switch binary.LittleEndian.Uint32(src[i:]) {
	case 't' | 'r'<<8 | 'u'<<16 | 'e'<<24, 'n' | 'u'<<8 | 'l'<<16 | 'l'<<24:
		return 4
	case 'f' | 'a'<<8 | 'l'<<16 | 's'<<24:
		if i+5 <= len(src) && src[i+4] == 'e' {
			return 5
		}
	}
	return 0
}
