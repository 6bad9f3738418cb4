package tokenizer

// MemberElement is one member that [Scanner.ScalarMembers] read: its key's
// span (quotes included), whether the key holds a backslash escape, and its
// value as an [ElementSpan] (End 0 when the value is a container, left for
// the caller).
type MemberElement struct {
	KeyStart, KeyEnd int
	KeyEscaped       bool
	Value            ElementSpan
}

// ScalarMembers reads the members of the innermost object from src[i]
// (after its '{', a ',' or a member's value) into spans, as many as fit, in
// one loop: what [Scanner.Members] reads, for a decoder that takes every
// key and every value. It keeps none of Members' memory of heads and
// layouts (a decoder looks no key up), and it reads each number's digits
// once, into its parts, as [Scanner.ScalarElements] does, and says of each
// string whether it holds an escape. It must be called only where the
// innermost open container is an object, as Members.
//
// It returns the number of spans filled, the index where the caller goes
// on, and what stopped it: ObjectEnd when it read the object's closing '}'
// too; ArrayStart or ObjectStart when the last span's value is a container,
// whose first byte is at the index (the member's head consumed: [Scanner.Open]
// or Next goes on); None otherwise. A member that is not whole, valid and
// within the token limit in the window (an error among them) is left
// unconsumed from the ',' before it, for Next and Peek, which report errors
// precisely.
func (s *Scanner) ScalarMembers(src []byte, i int, spans []MemberElement) (n, at int, stop Kind) {
	state := s.state
	if state != stNext && state != stKeyOrEnd && state != stKey {
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
		if c := src[j]; c == '}' && state != stKey {
			s.depth--
			s.state = s.after()
			return n, j + 1, ObjectEnd
		} else if state == stNext {
			if c != ',' {
				break
			}
			if j++; j < len(src) && src[j] <= ' ' {
				j = skipSpace(src, j)
			}
		}
		// The key, whole: plain in the loop, escaped or not ASCII by str.
		if j >= len(src) || src[j] != '"' {
			break
		}
		ks, escaped := j, false
		if j = plainEnd(src, ks+1); j < len(src) && src[j] == '"' {
			j++
		} else if j, escaped = s.stringRest(src, j); j == 0 {
			break
		}
		if j-ks > s.maxToken {
			break
		}
		sp := &spans[n]
		sp.KeyStart, sp.KeyEnd, sp.KeyEscaped = ks, j, escaped
		if j < len(src) && src[j] <= ' ' {
			j = skipSpace(src, j)
		}
		if j >= len(src) || src[j] != ':' {
			break
		}
		if j++; j < len(src) && src[j] <= ' ' {
			j = skipSpace(src, j)
		}
		if j >= len(src) {
			break
		}
		// The value, when it is a scalar whole in the window.
		var end int
		switch c := src[j]; {
		case c == '-' || c-'0' < 10:
			end = readNumberParts(src, j, &sp.Value.Num)
		case c == '"':
			end = s.stringElement(src, j, &sp.Value)
		case c == 't' || c == 'f' || c == 'n':
			end = s.scalarEnd(src, j, false)
		case c|0x20 == '{': // '{' or '[': the caller's
			sp.Value.Start, sp.Value.End = j, 0
			s.state = stValue
			return n + 1, j, Kind(c)
		}
		if end == 0 || end-j > s.maxToken {
			break
		}
		sp.Value.Start, sp.Value.End = j, end
		n++
		i, state = end, stNext
	}
	s.state = state
	return n, i, None
}

// stringElement returns the index after the string at src[j] when it is
// whole and valid in the window, else 0, and sets sp.Escaped to whether it
// holds an escape.
func (s *Scanner) stringElement(src []byte, j int, sp *ElementSpan) int {
	end := plainEnd(src, j+1)
	if end < len(src) && src[end] == '"' {
		sp.Escaped = false
		return end + 1
	}
	end, sp.Escaped = s.stringRest(src, end)
	return end
}
