package tokenizer

import (
	"encoding/binary"
	"math/bits"
)

// str scans string content from src[i], the opening quote being behind, up to
// and including the closing quote. It returns the index after the quote and
// true, or len(src) and false when the window ends first; the escape and UTF-8
// state is then kept in s for the next window.
func (s *Scanner) str(src []byte, i int) (int, bool, error) {
	if s.esc|s.u8 != 0 {
		var err error
		if i, err = s.strSlow(src, i); err != nil || s.esc|s.u8 != 0 {
			return i, false, err
		}
	}
	for {
		for i < len(src)-7 { // i+8 <= len(src), as in plainEnd
			if m := stringStops(binary.LittleEndian.Uint64(src[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(src) && plain[src[i]] {
			i++
		}
		if i >= len(src) {
			return i, false, nil
		}
		switch c := src[i]; {
		case c == '"':
			return i + 1, true, nil
		case c == '\\':
			s.escaped = true
			// Escaped text: 64 bytes at a time where there is a kernel.
			if s.runs(src, i) {
				if n := stringRun(src[i:], false); n > 0 {
					i += n
					continue
				}
			}
			if i+1 < len(src) {
				if e := src[i+1]; e != 'u' {
					if !simpleEscape[e] {
						return i + 1, false, s.errChar(src, i+1, ctxEscape)
					}
					i += 2
					continue
				}
				if i+6 <= len(src) {
					if !allHex(binary.LittleEndian.Uint32(src[i+2:])) {
						j := i + 2
						for hexVal[src[j]] >= 0 {
							j++
						}
						return j, false, s.errChar(src, j, ctxHex)
					}
					i += 6
					// Escaped text is a run of \u escapes. (Folding the check
					// above into this loop reads shorter but costs 1.7% more
					// instructions on twitterescaped, measured with callgrind.)
					for i+6 <= len(src) && binary.LittleEndian.Uint16(src[i:]) == '\\'|'u'<<8 &&
						allHex(binary.LittleEndian.Uint32(src[i+2:])) {
						i += 6
					}
					continue
				}
			}
			s.esc = 1
			i++
		case c < 0x20:
			return i, false, s.errChar(src, i, ctxString)
		default:
			// Text in most scripts: 64 bytes at a time where there is a kernel.
			if s.runs(src, i) {
				if n := stringRun(src[i:], !s.escaped); n > 0 {
					i += n
					continue
				}
			}
			if n := runeLen(src[i:]); n > 0 {
				i += n
				for i < len(src) && src[i] >= utf8Self {
					// Text in most scripts is a run of 2- or 3-byte sequences
					// whose lead byte needs no special second-byte range:
					// checked inline, a word at a time.
					if i+4 <= len(src) {
						x := binary.LittleEndian.Uint32(src[i:])
						if c := byte(x); c-0xE1 < 0xF && c != 0xED && x&0xC0C000 == 0x808000 {
							i += 3
							continue
						} else if c-0xC2 < 0x1E && x&0xC000 == 0x8000 {
							i += 2
							continue
						}
					}
					if n = runeLen(src[i:]); n == 0 {
						break
					}
					i += n
				}
				continue
			}
			// Invalid, or cut by the end of the window: the automaton tells which.
			if s.u8 = u8lead[c]; s.u8 == u8Clean {
				return i, false, s.errAt(i, errUTF8(c))
			}
			s.u8lead, s.u8at = c, s.offset+int64(i)
			i++
		}
		var err error
		if i, err = s.strSlow(src, i); err != nil || s.esc|s.u8 != 0 {
			return i, false, err
		}
	}
}

// runs reports whether str hands the content from src[i] to stringRun: a
// whole block remains, and the AVX-512 or AVX2 kernel runs (tests: or the
// twin).
func (s *Scanner) runs(src []byte, i int) bool {
	return i+64 <= len(src) && (hasAVX512 || hasAVX2 || forceTwins)
}

// plainEnd returns the index of the first byte at or after i that is not
// plain string content ('"', '\\', a control or non-ASCII byte), or the
// index where fewer than 8 bytes remain, whichever comes first: the caller
// checks for the closing quote and calls str for anything else.
//
// The loop's test, i < len(src)-7, is i+8 <= len(src) written so that the
// compiler proves the load in bounds: the loop has no bounds check, 5 fewer
// instructions a word (str's word loop, quoteOrBackslashAt and the trusted
// scans are written alike; digits and skipSpace are not: see bench/REPORT.md,
// round 4, for why).
func plainEnd(src []byte, i int) int {
	for i < len(src)-7 {
		if m := stringStops(binary.LittleEndian.Uint64(src[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	return i
}

// strSlow consumes, a byte at a time, the rest of an escape or of a UTF-8
// sequence that the fast loop could not finish in one step.
func (s *Scanner) strSlow(src []byte, i int) (int, error) {
	for ; i < len(src) && s.esc|s.u8 != 0; i++ {
		c := src[i]
		if s.u8 != u8Clean {
			r := u8cont[s.u8]
			if c < r.lo || c > r.hi {
				// The sequence is invalid from its lead byte on, which
				// may lie in an earlier window.
				return i, &Error{Offset: s.u8at, Msg: errUTF8(s.u8lead), found: s.offset + int64(i)}
			}
			s.u8 = r.next
			continue
		}
		switch s.esc {
		case escBackslash:
			switch {
			case c == 'u':
				s.esc = escHex0
			case simpleEscape[c]:
				s.esc = escNone
			default:
				return i, s.errChar(src, i, ctxEscape)
			}
		default:
			if hexVal[c] < 0 {
				return i, s.errChar(src, i, ctxHex)
			}
			if s.esc++; s.esc == escHex0+4 {
				s.esc = escNone
			}
		}
	}
	return i, nil
}

// errUTF8 is the message for an invalid UTF-8 sequence that starts with c:
// the error's offset is c's, the first byte of the sequence, so that a
// reader finds the whole of what is wrong from there (a cut sequence, "\xc3(",
// is c's fault, not the next byte's).
func errUTF8(c byte) string {
	return "invalid UTF-8 byte " + QuoteChar(c) + " in string"
}

// Escape progress inside a string.
const (
	escNone      = 0
	escBackslash = 1 // after '\\'
	escHex0      = 2 // after "\\u"; escHex0+n after n hex digits
)

// quoteOrBackslashAt returns the index of the first '"' or '\\' at or after i,
// or len(src): what a trusted scan looks for inside a string.
func quoteOrBackslashAt(src []byte, i int) int {
	for i < len(src)-7 { // i+8 <= len(src), as in plainEnd
		if m := quoteOrBackslash(binary.LittleEndian.Uint64(src[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(src) && src[i] != '"' && src[i] != '\\' {
		i++
	}
	return i
}
