package tokenizer

import (
	"encoding/binary"
	"math/bits"
)

// Value consumes one whole value, validating all of it: the value that starts
// at src[i] (found with [Scanner.Peek]), or the rest of the value that the last
// call left unfinished. When copy is true the value's bytes are appended to dst
// without the whitespace between its tokens (SPEC O1), in runs: one append per
// stretch between two whitespace runs. It returns done when the value is
// complete, or len(src) and done false when the window ends first.
func (s *Scanner) Value(dst, src []byte, i int, copy bool) (_ []byte, _ int, done bool, err error) {
	if !s.inValue {
		s.inValue, s.base = true, s.depth
	}
	st := s.state
	run := i // start of the bytes not yet copied
	for i < len(src) {
		c := src[i]
		switch st {
		case stValue, stValueOrEnd:
			if space[c] {
				if copy {
					dst = append(dst, src[run:i]...)
				}
				i = skipSpace(src, i+1)
				run = i
				continue
			}
			switch c {
			case '"':
				s.esc, s.u8 = escNone, u8Clean
				if i, done, err = s.str(src, i+1); !done {
					st = stString
					goto out
				}
			case '{':
				if err = s.push(true, i); err != nil {
					return dst, i, false, err
				}
				st = stKeyOrEnd
				i++
				continue
			case '[':
				if err = s.push(false, i); err != nil {
					return dst, i, false, err
				}
				st = stValueOrEnd
				i++
				continue
			case ']':
				if st != stValueOrEnd {
					return dst, i, false, s.errChar(src, i, ctxValue)
				}
				s.depth--
				i++
			case 't', 'f', 'n':
				if i, done, err = s.startLiteral(src, i); !done {
					st = stLiteral
					goto out
				}
			default:
				if !isDigit(c) && c != '-' {
					return dst, i, false, s.errChar(src, i, ctxValue)
				}
				s.num = numBegin
				if i, done, err = s.number(src, i); !done {
					st = stNumber
					goto out
				}
			}
		case stKeyOrEnd, stKey:
			if space[c] {
				if copy {
					dst = append(dst, src[run:i]...)
				}
				i = skipSpace(src, i+1)
				run = i
				continue
			}
			if c == '"' {
				s.esc, s.u8 = escNone, u8Clean
				if i, done, err = s.str(src, i+1); !done {
					st = stKeyString
					goto out
				}
				st = stColon
				continue
			}
			if c != '}' || st != stKeyOrEnd {
				return dst, i, false, s.errChar(src, i, ctxKey)
			}
			s.depth--
			i++
		case stColon:
			if space[c] {
				if copy {
					dst = append(dst, src[run:i]...)
				}
				i = skipSpace(src, i+1)
				run = i
				continue
			}
			if c != ':' {
				return dst, i, false, s.errChar(src, i, ctxColon)
			}
			st = stValue
			i++
			continue
		case stNext:
			if space[c] {
				if copy {
					dst = append(dst, src[run:i]...)
				}
				i = skipSpace(src, i+1)
				run = i
				continue
			}
			obj := s.inObject()
			switch {
			case c == ',':
				st = stValue
				if obj {
					st = stKey
				}
				i++
				continue
			case c == '}' && obj, c == ']' && !obj:
				s.depth--
				i++
			case obj:
				return dst, i, false, s.errChar(src, i, ctxObjectNext)
			default:
				return dst, i, false, s.errChar(src, i, ctxArrayNext)
			}
		case stString, stKeyString:
			if i, done, err = s.str(src, i); !done {
				goto out
			}
			if st == stKeyString {
				st = stColon
				continue
			}
		case stNumber:
			if i, done, err = s.number(src, i); !done {
				goto out
			}
		case stLiteral:
			if i, done, err = s.literal(src, i); !done {
				goto out
			}
		default:
			return dst, i, false, s.errChar(src, i, ctxTop)
		}
		// A value or a container ended here.
		st = s.after()
		if s.depth == s.base {
			s.inValue, s.state = false, st
			if copy {
				dst = append(dst, src[run:i]...)
			}
			return dst, i, true, nil
		}
	}
out:
	if err != nil {
		return dst, i, false, err
	}
	s.state = st
	if copy {
		dst = append(dst, src[run:i]...)
	}
	return dst, i, false, nil
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace. Runs of spaces, as in indented documents, go 8 at a time.
func skipSpace(src []byte, i int) int {
	for i < len(src) {
		if c := src[i]; c > ' ' || !space[c] {
			return i
		}
		if i+8 <= len(src) && binary.LittleEndian.Uint64(src[i:]) == ' '*lsb {
			i += 8
			continue
		}
		i++
	}
	return i
}

// Trusted-skip states.
const (
	tsStart     = iota // at the value's first byte
	tsScalar           // inside a number or literal
	tsString           // inside a string
	tsContainer        // inside an object or array, outside strings
)

// SkipTrusted consumes one whole value checking only string quoting and
// bracket nesting (SPEC V4): for inputs known to be valid. Like [Scanner.Value]
// it starts at a value's first byte or resumes the value left unfinished.
// Nesting beyond MaxDepth is still an error.
func (s *Scanner) SkipTrusted(src []byte, i int) (int, bool, error) {
	for i < len(src) {
		switch s.trusted {
		case tsStart:
			switch src[i] {
			case '{', '[':
				if s.depth >= s.MaxDepth {
					return i, false, s.errDepth(i)
				}
				s.tdepth = 1
				s.trusted = tsContainer
			case '"':
				s.esc = escNone
				s.trusted = tsString
			default:
				s.trusted = tsScalar
			}
			i++
		case tsScalar:
			for i < len(src) {
				if c := src[i]; c == ',' || c == '}' || c == ']' || space[c] {
					return s.trustedDone(i)
				}
				i++
			}
		case tsString:
			var ok bool
			if i, ok = s.strTrusted(src, i); !ok {
				return i, false, nil
			}
			if s.tdepth == 0 {
				return s.trustedDone(i)
			}
			s.trusted = tsContainer
		case tsContainer:
			for i < len(src) {
				for i+8 <= len(src) {
					if m := structural(binary.LittleEndian.Uint64(src[i:])); m != 0 {
						i += bits.TrailingZeros64(m) >> 3
						break
					}
					i += 8
				}
				if i >= len(src) {
					break
				}
				switch src[i] {
				case '"':
					s.esc = escNone
					s.trusted = tsString
					i++
					goto next
				case '{', '[':
					if s.depth+s.tdepth >= s.MaxDepth {
						return i, false, s.errDepth(i)
					}
					s.tdepth++
				case '}', ']':
					if s.tdepth--; s.tdepth == 0 {
						return s.trustedDone(i + 1)
					}
				}
				i++
			}
		}
	next:
	}
	return i, false, nil
}

func (s *Scanner) trustedDone(i int) (int, bool, error) {
	s.trusted = tsStart
	s.state = s.after()
	return i, true, nil
}
