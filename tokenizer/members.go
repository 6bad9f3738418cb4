package tokenizer

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
)

// MemberSpan is one member that [Scanner.Members] read: its key's span,
// quotes included, whether the key holds a backslash escape, and its value's
// span. ValueEnd is 0 when Members read only the
// member's head: its value, which starts at ValueStart, is for the caller to
// read (a container, or a scalar that is not whole and plain in the window).
// It is -1 when Members began to skip the value, a dropped container, and
// stopped short of its end, and SpanOpened when it opened the value, an
// object, and went on with its members (see Members).
type MemberSpan struct {
	KeyStart, KeyEnd, ValueStart, ValueEnd int
	Escaped                                bool
	// Head, when not 0, names the bytes of the key: every span with the
	// same Head, from any Scanner in the process and in any document, has
	// the same key. A caller may keep what it found for a key by its Head.
	Head uint64
}

// Descents names, for one object node of a caller's mask, the members whose
// object values [Scanner.Members] may open itself and read on into: a few
// Heads (0: an empty slot), each with its child node's key lengths (as
// keep). The caller fills it from what it decided for a Head; Members never
// looks a key up.
type Descents struct {
	Head [4]uint64
	Keep [4]uint64
}

// Learn makes head, whose member's object value the caller opens and masks
// by a node whose key lengths are keep, one of d's, in the slot that the
// head's name picks.
func (d *Descents) Learn(head, keep uint64) {
	k := head & (uint64(len(d.Head)) - 1)
	d.Head[k], d.Keep[k] = head, keep
}

// MemberSpan KeyStart values and ValueEnd values with a meaning of their own.
const (
	// SpanSibling (KeyStart) says that an object in an array closed and the
	// next element, an object, opened at ValueEnd (see SetSiblings).
	SpanSibling = -1
	// SpanClose (KeyStart) says that the object that a span with ValueEnd
	// SpanOpened opened closed, at ValueEnd-1; the members that follow are
	// the enclosing object's again.
	SpanClose = -2
	// SpanOpened (ValueEnd) says that the member's value, an object whose
	// Head the Descents name, was opened at ValueStart: the members that
	// follow are its own, up to a span with KeyStart SpanClose.
	SpanOpened = -2
)

// Members reads the members of the innermost object from src[i] (after '{'
// or a member's value) into spans: as many as fit, in one tight loop. It
// reads a member only when its head (the ',' before it, its key and ':') is
// whole in the window and well formed; it reads the member's value too when
// that is a scalar that [Scanner.Scalar] would take (in trusted mode when
// trusted is true), so that the verdict does not depend on the split (SPEC
// S1).
//
// keep holds the lengths of the keys that the caller may keep, a bit each,
// as compile.Lengths: bit n for a key of n bytes between its quotes, n below
// 63, and bit 63 for 63 bytes or more. A member whose key has no escape and
// a length not in keep is dropped: when its value is a container, Members
// skips it (SkipValue, or SkipTrusted when trusted is true) and goes on, as
// for a scalar; and it gets no span, unless it is the last member the batch
// read (the member being read, for the caller's errors) and the object did
// not close after it. So every span but the last has a key that keep keeps,
// or escaped, or is one of the spans below. A caller that drops nothing
// passes ^uint64(0).
//
// desc, when not nil, names the members (by Head) whose object values the
// caller masks by a node of its own: for such a member Members opens the
// object (a span with ValueEnd SpanOpened), reads its members with the
// child's keep from desc, and at its '}' goes back up (a span with KeyStart
// SpanClose) to the members of the object it was called for; one level
// down at most, and never past the nesting limit. [Scanner.WentDown] says
// whether the batch holds such spans.
//
// It returns the number of spans filled and the index where the caller goes
// on. When the last span has ValueEnd 0, that index is its value's first
// byte; otherwise it follows the last value read. closed
// reports that the object's closing '}' was read too (the index follows it).
// Whatever stops the loop (the window ends, an error) is left unconsumed,
// for Next and Peek, which report errors precisely; except in a dropped
// container being skipped: then the last span has ValueEnd -1, the index is
// where the skip stopped, and [Scanner.DropErr] says why. Where it is nil,
// the window ended: the caller goes on with SkipValue (SkipTrusted) at the
// index, as if it had begun the skip itself.
//
// Each turn of the loop reads one member, in state (stKeyOrEnd after '{',
// stNext after a value, stKey after ','):
//
//	head     the member's head (',', key, ':') compared with the one
//	         remembered at its place: a hit gives the key's span and name;
//	         where the object closed last time, the run to its '}' is
//	         remembered there instead (a close head): a hit closes it
//	layout   else the runs remembered per depth (",\n    \"", "{\"",
//	         the run to '}') and the colon run, else the bytes read and
//	         checked one by one; the key by plainEnd, or str when escaped
//	         or not ASCII; a head that missed twice is learned anew
//	value    a container whose key keep drops: skipped, stNext (or the
//	         batch ends, ValueEnd -1); an object whose Head desc names,
//	         not yet down: opened, SpanOpened, stKeyOrEnd at the top
//	         with the child's keep; another container, or a scalar not
//	         whole in the window: the span ends the batch (ValueEnd 0);
//	         else the scalar's end, stNext
//	closed   '}': down, back up: a span with KeyStart SpanClose, stNext
//	         at the top; with SetSiblings, where the object is an element of an
//	         array and the run to the next element is the one remembered
//	         for its elements, ending in '{': that object is opened, a span
//	         with KeyStart -1 says so, stKeyOrEnd; else the batch ends
//	         (closed)
//	stop     the window's end, anything else: the rest is the caller's
func (s *Scanner) Members(src []byte, i int, spans []MemberSpan, trusted bool, keep uint64, desc *Descents) (n, at int, closed bool) {
	state := s.state
	if state != stNext && state != stKeyOrEnd && state != stKey {
		return 0, i, false
	}
	if s.heads == nil {
		s.heads = newHeadTable()
	}
	s.down, s.wentDown = false, false
top: // here again at a depth that the loop went down to or back up from
	// Objects in an array are usually alike: their members' keys come
	// in the same order. So the whole run from where a member starts to its
	// value (",\n    \"key\" : ") is remembered for each of an object's
	// first members, and the next member is compared with the one that
	// came at its place last time.
	hs := &s.heads.d[s.depth&(len(s.heads.d)-1)]
	if s.maxToken < 32 {
		// No head hits: the loop tests no key's length against
		// maxToken where a head hit (its key has 32 bytes at most), and
		// memberMiss tests those it reads.
		hs = &s.heads.none
	}
	next := hs.next // the place of the next member, kept in hs on the way out
	kp := keep      // the key lengths kept at this depth: the child's where down
	if s.down {
		kp = s.downKeep
	}
	if state == stKeyOrEnd {
		next = 0
	}
	end := 0   // where the object closed
	sibAt := 0 // where a close head says the next element's '{' ends, if it does
	// dropped is 1 while spans[n], not counted, is the last member read, one
	// that keep drops, read to its value's end: the next member's span takes
	// its place, unless the batch ends there (see Members).
	dropped := 0
loop:
	for uint(n) < uint(len(spans)) { // unsigned: spans[n] needs no bounds check
		j := i
		var ks, ke int
		var kbit uint64 // the key's length as a bit of keep (see Members)
		escaped := false
		h := &hs.h[next&(len(hs.h)-1)]
		// The head's four words against the window's, written out: as a
		// method this does not inline, and the call costs more than it saves.
		hit := false
		if next < len(hs.h) && h.st == state && j < len(src)-32 {
			b := (*[32]byte)(src[j:])
			hit = (binary.LittleEndian.Uint64(b[:])^h.w[0])&h.m[0]|
				(binary.LittleEndian.Uint64(b[8:])^h.w[1])&h.m[1]|
				(binary.LittleEndian.Uint64(b[16:])^h.w[2])&h.m[2]|
				(binary.LittleEndian.Uint64(b[24:])^h.w[3])&h.m[3] == 0
		}
		head := uint64(0)
		if hit {
			if h.keyEnd == 0 { // a close head: the object closed here last time
				end = j + h.key
				if h.n > h.key { // and the next element, an object, opened
					sibAt = j + h.n
				}
				goto closed
			}
			ks, ke, j, head, kbit = j+h.key, j+h.keyEnd, j+h.n, h.gen, h.bit
			h.misses = 0 // both counts
		} else {
			// The bytes read and checked one by one, out of the loop:
			// what the loop keeps in registers is the hit path's.
			if ks, ke, j, head, escaped, end = s.memberMiss(src, i, state, next, keep); end > 0 {
				goto closed
			} else if ke == 0 || j >= len(src) {
				break
			}
			kbit = 1 << min(uint(ke-ks-2), 63)
			// A head that hits ends before the window's end: the compare
			// takes its 32 bytes from one before the end at most.
		}
		// The span is counted (n) where its value is read, or where the
		// batch ends with it.
		sp := &spans[n]
		sp.KeyStart, sp.KeyEnd, sp.ValueStart, sp.ValueEnd, sp.Escaped, sp.Head = ks, ke, j, 0, escaped, head
		dropped = 0
		next++
		// The value, when it is a scalar whole in the window.
		vs := j
		if src[j]|0x20 == '{' { // '{' or '[': a container is the caller's, unless dropped
			s.state = stValue
			if kp&kbit != 0 || escaped {
				if head == 0 || desc == nil || s.down || src[j] != '{' {
					hs.next = next
					return n + 1, vs, false
				}
				k := head & (uint64(len(desc.Head)) - 1)
				if desc.Head[k] != head || !s.pushFast(true) {
					hs.next = next
					return n + 1, vs, false
				}
				// Down into the value, an object the caller masks.
				sp.ValueEnd = SpanOpened
				n++
				s.down, s.downKeep, s.wentDown = true, desc.Keep[k], true
				i, state = j+1, stKeyOrEnd
				hs.next = next
				goto top
			}
			if j = s.dropValue(src, j, trusted); j < 0 {
				sp.ValueEnd = -1
				hs.next = next
				return n + 1, -j - 1, false
			}
			sp.ValueEnd = j
			i, state, dropped = j, stNext, 1
			continue
		} else {
			// The scalars that most members hold, a plain string ("1 m"),
			// a number of digits alone ("0", "4489862") or a literal
			// followed by ',', '}', ']' or whitespace, are read here;
			// anything else by scalarEnd, whose call costs more than
			// such a scalar takes to read; a number that is not digits
			// alone (flow-document's 0.8653962447851803, -3) by
			// numberScalarEnd, where scalarEnd would send it: one call
			// fewer (callgrind flow -0.6 %). Those strings end where the
			// trusted scans end them, and those numbers and literals
			// where they need: the same in both modes.
			k := 0
			switch c := src[j]; {
			case c == '"':
				// Its first 16 bytes a word at a time, as plainEnd; a
				// string that goes on past them (URLs, names, text)
				// by the kernel, 32 bytes a step (plainRun); one that
				// is not plain (a byte from 0x80, a backslash) by the
				// string kernel, from stringValueEnd.
				if k = j + 1; k <= len(src)-48 {
					if m := stringStops(binary.LittleEndian.Uint64(src[k:])); m != 0 {
						k += bits.TrailingZeros64(m) >> 3
					} else if m = stringStops(binary.LittleEndian.Uint64(src[k+8:])); m != 0 {
						k += 8 + bits.TrailingZeros64(m)>>3
					} else if plainKernel() {
						k = plainRunAVX2(src, k+16)
					} else {
						k = plainRunGo(src, k+16)
					}
				} else {
					k = plainEnd(src, k)
				}
				if uint(k) < uint(len(src)) && src[k] == '"' && k-j < s.maxToken {
					k++
				} else {
					k = s.stringValueEnd(src, j, k, trusted)
				}
			case c-'1' < 9 && j <= len(src)-9:
				// k is j+8 when the word is all digits.
				if k = j + bits.TrailingZeros64(nonDigits(binary.LittleEndian.Uint64(src[j:])))>>3; !scalarStop[src[k]] || k-j > s.maxToken {
					k = s.numberScalarEnd(src, j, trusted)
				}
			case c == 't' || c == 'n' || c == 'f':
				// A literal, followed by what ends it in both modes.
				if k = j + wholeLiteral(src, j); k == j || k >= len(src) || !scalarStop[src[k]] || k-j > s.maxToken {
					k = s.scalarEnd(src, j, trusted)
				}
			default:
				k = s.numberScalarEnd(src, j, trusted)
			}
			if k == 0 {
				s.state = stValue
				hs.next = next
				return n + 1, vs, false
			}
			j = k
		}
		sp.ValueEnd = j
		i, state = j, stNext
		if kp&kbit != 0 || sp.Escaped {
			n++
		} else {
			dropped = 1
		}
	}
	s.state = state
	hs.next = next
	return n + dropped, i, false

closed: // the object closed at src[end-1]
	sib := sibAt // where the next element's '{' ends, by a close head
	sibAt = 0
	dropped = 0 // a dropped member's span, which the close takes
	if sib > 0 && !s.down && s.siblings && uint(n) < uint(len(spans)) {
		// The next element of the array opened: the depth stays, and so
		// does its kind, an object's (pushFast would set it again), when
		// the container around it is an array (as sibling checks).
		if d := s.depth - 2; d >= 0 && s.kinds[d>>6]>>(d&63)&1 == 0 {
			sp := &spans[n]
			sp.KeyStart, sp.KeyEnd, sp.ValueStart, sp.ValueEnd, sp.Escaped, sp.Head = SpanSibling, SpanSibling, sib, sib, true, 0
			n++
			i, state, next = sib, stKeyOrEnd, 0
			goto loop
		}
	}
	s.depth--
	// Every way here is from the loop before it filled a span: spans[n]
	// is free.
	if s.down { // back up in the enclosing object, which Members read before
		// Field by field: a composite literal is built on the stack and
		// copied.
		sp := &spans[n]
		sp.KeyStart, sp.KeyEnd, sp.ValueStart, sp.ValueEnd, sp.Escaped, sp.Head = SpanClose, SpanClose, end, end, true, 0
		n++
		s.down = false
		i, state = end, stNext
		hs.next = next
		goto top
	}
	if s.siblings && n < len(spans) {
		k := 0
		if sib > 0 {
			// The run from the '}' to the '{' is the one read and
			// checked when the close head was learned; what the bytes do
			// not say is checked here, as sibling does.
			if s.depth > 0 && !s.inObject() && s.pushFast(true) {
				k = sib
			}
		} else if k = s.sibling(src, end); k > 0 && state == stNext {
			hs.learnSibling(src, i, end, k, next)
		}
		if k > 0 {
			sp := &spans[n]
			sp.KeyStart, sp.KeyEnd, sp.ValueStart, sp.ValueEnd, sp.Escaped, sp.Head = SpanSibling, SpanSibling, k, k, true, 0
			n++
			i, state, next = k, stKeyOrEnd, 0
			goto loop
		}
	}
	s.state = s.after()
	hs.next = next
	return n, end, true
}

// memberMiss reads the member at src[i], in state, where the head at its
// place (next) missed: by the other head at its place (alt), or, after the
// layout's run to the key's quote, by a long head (a head over 32 bytes,
// kept from the key's quote: setLong); else by the layout runs remembered
// at s.depth, else the bytes read and checked one by one; the key by
// plainEnd, or keyRest when escaped or not ASCII; the colon by the run
// remembered, else one by one. A head that missed twice in a row is
// learned anew, and the one it replaces is kept as the alt; one that
// missed once keeps its place, and the member's head becomes the alt;
// an alt that hits where the head missed twice in a row takes its place.
// It returns the
// key's span, the index of the value's first byte, the key's name (0:
// none) and whether it is escaped; or end, where the object closed (after
// its '}'); or ke 0, where the member is not whole in the window or not
// well formed: the rest is the caller's.
//
// Members' loop keeps its registers for the heads that hit: the few
// members whose head misses (a first object, objects of several kinds at
// one depth, a head over 32 bytes) cost a call.
func (s *Scanner) memberMiss(src []byte, i int, state uint8, next int, keep uint64) (ks, ke, j int, head uint64, escaped bool, end int) {
	// Members of one object are usually laid out alike: the bytes from a
	// value's end to the next key's quote (",\n    \""), from a key's end to
	// its value (" : "), from '{' to the first key and from the last value to
	// '}' repeat. Once read and checked the slow way, they are remembered and
	// compared a word at a time.
	lay, runs := &s.layout, &s.layout.runs[s.depth&(len(s.layout.runs)-1)]
	hs := &s.heads.d[s.depth&(len(s.heads.d)-1)]
	h := &hs.h[next&(len(hs.h)-1)]
	j = i
	// The other head at this place (alt): where objects of two kinds take
	// turns at one depth, the head the loop compares is one kind's and this
	// one the other's.
	if a := &hs.alt[next&(len(hs.alt)-1)]; a.st == state && next < len(hs.h) && j < len(src)-32 &&
		(binary.LittleEndian.Uint64(src[j:])^a.w[0])&a.m[0]|
			(binary.LittleEndian.Uint64(src[j+8:])^a.w[1])&a.m[1]|
			(binary.LittleEndian.Uint64(src[j+16:])^a.w[2])&a.m[2]|
			(binary.LittleEndian.Uint64(src[j+24:])^a.w[3])&a.m[3] == 0 && a.keyEnd-a.key <= s.maxToken {
		ks, ke, j, head = j+a.key, j+a.keyEnd, j+a.n, a.gen
		// The loop's head missed: where it misses twice in a row, or is
		// a close head or empty, this one takes its place.
		switch {
		case h.n == 0 || h.keyEnd == 0 || h.st == stLongNext:
			*h = *a
		case h.misses&0xff != 0:
			*h, *a = *a, *h
		default:
			h.misses |= 1
			return
		}
		h.misses = 0
		return
	}
	if state == stNext && runs.next.match(src, j) {
		ks = j + runs.next.n - 1
		// A long head (stLongNext): the member's head from its key's
		// quote, where the whole head is over 32 bytes. The run before
		// the quote is the layout's, just matched.
		if h.st == stLongNext && next < len(hs.h) && ks < len(src)-32 {
			b := (*[32]byte)(src[ks:])
			if (binary.LittleEndian.Uint64(b[:])^h.w[0])&h.m[0]|
				(binary.LittleEndian.Uint64(b[8:])^h.w[1])&h.m[1]|
				(binary.LittleEndian.Uint64(b[16:])^h.w[2])&h.m[2]|
				(binary.LittleEndian.Uint64(b[24:])^h.w[3])&h.m[3] == 0 && h.keyEnd <= s.maxToken {
				h.misses = 0
				return ks, ks + h.keyEnd, ks + h.n, h.gen, false, 0
			}
		}
	} else if state == stKeyOrEnd && runs.open.match(src, j) {
		ks = j + runs.open.n - 1
	} else {
		if state == stNext && runs.close.match(src, j) {
			end = j + runs.close.n
			if next < len(hs.h) {
				h.learnClose(src, i, end)
			}
			return 0, 0, 0, 0, false, end
		}
		if j < len(src) && src[j] <= ' ' {
			j = skipSpace(src, j)
		}
		if j >= len(src) {
			return 0, 0, 0, 0, false, 0
		}
		switch state {
		case stNext:
			if src[j] != ',' {
				if src[j] == '}' {
					runs.close.remember(src, i, j+1)
					end = j + 1
					if next < len(hs.h) {
						h.learnClose(src, i, end)
					}
					return 0, 0, 0, 0, false, end
				}
				return 0, 0, 0, 0, false, 0
			}
			if j++; j < len(src) && src[j] <= ' ' {
				j = skipSpace(src, j)
			}
		case stKeyOrEnd:
			if src[j] == '}' {
				end = j + 1
				return 0, 0, 0, 0, false, end
			}
		}
		if j >= len(src) || src[j] != '"' {
			return 0, 0, 0, 0, false, 0
		}
		ks = j
		switch state {
		case stNext:
			runs.next.remember(src, i, ks+1)
		case stKeyOrEnd:
			runs.open.remember(src, i, ks+1)
		}
	}
	// The key, whole: plain in the loop, escaped or not ASCII by str.
	if j = plainEnd(src, ks+1); j < len(src) && src[j] == '"' {
		j++
	} else if j, escaped = s.keyRest(src, j); j == 0 {
		return 0, 0, 0, 0, false, 0
	}
	if ke = j; ke-ks > s.maxToken {
		return 0, 0, 0, 0, false, 0
	}
	if lay.colonN > 0 && j+8 <= len(src) && (binary.LittleEndian.Uint64(src[j:j+8])^lay.colon)&lay.colonMask == 0 && src[j+lay.colonN] > ' ' {
		j += lay.colonN
	} else {
		if j < len(src) && src[j] <= ' ' {
			j = skipSpace1(src, j)
		}
		if j >= len(src) || src[j] != ':' {
			return 0, 0, 0, 0, false, 0
		}
		if j++; j < len(src) && src[j] <= ' ' {
			j = skipSpace1(src, j)
		}
		if j-ke < 8 && ke+8 <= len(src) {
			lay.colonN = j - ke
			lay.colon, lay.colonMask = binary.LittleEndian.Uint64(src[ke:ke+8]), lowBytes(lay.colonN)
		}
	}
	if escaped {
		return ks, ke, j, 0, true, 0
	}
	// A key that keep keeps is named by its bytes: where objects of
	// several kinds come at one depth, the head at a member's place
	// misses, and the caller would look the key up each time without a
	// name. (A key that keep drops gets no span: see Members.)
	if s.down {
		keep = s.downKeep
	}
	if keep>>min(uint(ke-ks-2), 63)&1 != 0 {
		head = s.heads.keyName(src, ks, ke)
	}
	// A head that missed twice in a row is replaced: objects of several
	// kinds at one depth would otherwise take turns. It takes the key's
	// name, so that what the caller found for the key holds.
	if next < len(hs.h) {
		a := &hs.alt[next&(len(hs.alt)-1)]
		if h.misses&0xff != 0 || h.n == 0 || h.keyEnd == 0 { // a member takes a close head's place at once
			if h.keyEnd != 0 && h.st != stLongNext {
				*a = *h // the head it replaces is the other one now
			}
			if j-i <= 32 && h.set(src, i, j, ks, ke, state) ||
				state == stNext && ks+1-i == runs.next.n && h.setLong(src, ks, j, ke) {
				if head == 0 {
					head = s.heads.name()
				}
				h.gen = head
			}
		} else {
			h.misses |= 1
			if j-i <= 32 && a.set(src, i, j, ks, ke, state) {
				if head == 0 {
					head = s.heads.name()
				}
				a.gen = head
			}
		}
	}
	return ks, ke, j, head, false, 0
}

// sibling opens the object that follows, in the innermost container, an
// object that closed at src[j-1], when that container is an array and the
// run from the ',' to the '{' is the one remembered for its elements
// (Element), and returns the index after the '{'; else it returns 0 and
// leaves s as it was.
func (s *Scanner) sibling(src []byte, j int) int {
	if s.depth == 0 || s.inObject() {
		return 0
	}
	r := &s.layout.runs[s.depth&(len(s.layout.runs)-1)].elem
	if !r.match(src, j) || src[j+r.n-1] != '{' || !s.pushFast(true) {
		return 0
	}
	return j + r.n
}

// WentDown reports whether the last call of Members went down into a
// member's object (a span with ValueEnd SpanOpened).
func (s *Scanner) WentDown() bool { return s.wentDown }

// SetSiblings lets Members go on, when an object closes in an array and the
// next element is an object, with that object's members in the same batch:
// a span with KeyStart -1 (and Escaped true) says where the next object
// opened, at ValueEnd. Reset turns it off.
func (s *Scanner) SetSiblings(on bool) { s.siblings = on }

// dropValue skips the container at src[i], the value of a member that
// Members drops, and returns the index after it. Where the skip stops short
// (the window ends, or an error: s.dropErr), it returns -1 minus the index
// where it stopped.
//
// A container not trusted is skipped as SkipValue's skipContainer would,
// with the kernel called from here (dropWhole, inlined): most dropped
// containers are small ({"x": "a", "y": [1, 2, 3]}), and the three calls
// that stood between (SkipValue, skipContainer, skipWhole) cost about 80
// instructions a container where the kernel takes 185 (flow-document,
// callgrind); dropValue's own share is now about 35. Written in Members' loop instead, the call
// saves a few instructions more but changes how the loop's registers are
// allocated: apache +1 % (bench/REPORT.md, round 12, drop12).
func (s *Scanner) dropValue(src []byte, i int, trusted bool) int {
	if !trusted && !s.inValue && skipKernelRuns(s.maxToken) {
		end, pos, stack, depth := dropWhole(src, i, min(s.maxDepth-s.depth, maxSkipDepth), s.maxToken)
		if end != 0 {
			s.base, s.state = s.depth, stNext
			return end
		}
		return s.dropRest(src, i, skipCheckpoint{pos, stack, depth})
	}
	var (
		done bool
		err  error
	)
	if trusted {
		i, done, err = s.SkipTrusted(src, i)
	} else {
		i, done, err = s.SkipValue(src, i)
	}
	if !done {
		s.dropErr = err
		return -i - 1
	}
	return i
}

// dropRest is dropValue for the container at src[i], not trusted, that
// dropWhole did not take: value from its checkpoint ck, or from i, as
// skipContainer goes on.
func (s *Scanner) dropRest(src []byte, i int, ck skipCheckpoint) int {
	i, done, err := s.value(src, s.handOver(i, ck), false)
	if !done {
		s.dropErr = err
		return -i - 1
	}
	return i
}

// DropErr returns why the skip of the dropped container that [Scanner.Members]
// began stopped short (its last span's ValueEnd is -1): the error, or nil when
// the window ended.
func (s *Scanner) DropErr() error { return s.dropErr }

// skipSpace1 is skipSpace with the run of one space, as around a
// pretty-printed ':', taken without its loop. It does not inline, so value,
// which meets that space before most pretty-printed values, writes it out.
func skipSpace1(src []byte, j int) int {
	if oneSpace(src, j) {
		return j + 1
	}
	return skipSpace(src, j)
}

// oneSpace reports whether src[j] is a space and src[j+1] a token's byte:
// the whitespace run from j is one space.
func oneSpace(src []byte, j int) bool {
	return j+1 < len(src) && src[j+1] > ' ' && src[j] == ' '
}

// Element reads what comes before the innermost array's next element, when
// it is in the window and well formed: the ',' after the last element and the
// whitespace around it. It returns the element's kind and the index of its
// first byte, or ArrayEnd and the index after the array's closing ']'.
// Anything else returns None having consumed nothing: the caller goes on with
// Peek, which reports errors precisely.
func (s *Scanner) Element(src []byte, i int) (Kind, int) {
	// Elements of one array are laid out alike: the run from the ',' to
	// the next element's first byte (",\n    {") is remembered per depth.
	r := &s.layout.runs[s.depth&(len(s.layout.runs)-1)].elem
	if s.state == stNext && r.match(src, i) {
		j := i + r.n - 1
		s.state = stValue
		return valueKind[src[j]], j
	}
	j := i
	if j < len(src) && src[j] <= ' ' {
		j = skipSpace(src, j)
	}
	if j >= len(src) {
		return None, i
	}
	switch s.state {
	case stNext:
		if src[j] != ',' {
			if src[j] == ']' {
				s.depth--
				s.state = s.after()
				return ArrayEnd, j + 1
			}
			return None, i
		}
		if j++; j < len(src) && src[j] <= ' ' {
			j = skipSpace(src, j)
		}
		if j >= len(src) {
			return None, i
		}
	case stValueOrEnd:
		if src[j] == ']' {
			s.depth--
			s.state = s.after()
			return ArrayEnd, j + 1
		}
	default:
		return None, i
	}
	k := valueKind[src[j]]
	if k == None {
		return None, i
	}
	if s.state == stNext {
		r.remember(src, i, j+1)
	}
	s.state = stValue
	return k, j
}

// Open consumes the '{' or '[' at src[i], which Peek, Members or Element
// found where a value may start, and returns the index after it.
func (s *Scanner) Open(src []byte, i int) (int, error) {
	obj := src[i] == '{'
	if !s.pushFast(obj) {
		if err := s.push(obj, i); err != nil {
			return i, err
		}
	}
	s.state = stValueOrEnd
	if obj {
		s.state = stKeyOrEnd
	}
	return i + 1, nil
}

// OpenFast is Open for the '{' (obj) or '[' that Peek, Members or Element
// found, where it is below the nesting limit and needs no memory: small
// enough to inline. It reports whether it consumed it; if not, the caller
// goes on with Open.
func (s *Scanner) OpenFast(obj bool) bool {
	ok := s.pushFast(obj)
	if ok {
		s.state = stValueOrEnd
		if obj {
			s.state = stKeyOrEnd
		}
	}
	return ok
}

// quotedEnd returns the index after the quote that ends the string whose
// content starts at src[i], taking a backslash to escape the byte after it
// and checking nothing else (SPEC V4); or 0 when the window ends first.
//
// Escaped text (a run of \u escapes, say) stops the word-at-a-time loop at
// every backslash; from the first one, whole 64-byte blocks go to
// escapedQuote instead, which finds the quote with the block scan's escape
// masks.
func quotedEnd(src []byte, i int) int {
	for {
		i = quoteOrBackslashAt(src, i)
		switch {
		case i >= len(src):
			return 0
		case src[i] == '"':
			return i + 1
		}
		if i+64 <= len(src) {
			// At the quote when there is one in the blocks, else past them.
			n, escaped := escapedQuote(src[i:])
			if i += n; escaped {
				i++ // the byte that a backslash at the blocks' end escapes
			}
			continue
		}
		i += 2
	}
}

// lowBytes returns the mask of the n lowest bytes of a word, n clamped to 0..8.
func lowBytes(n int) uint64 {
	switch {
	case n <= 0:
		return 0
	case n >= 8:
		return ^uint64(0)
	}
	return 1<<(8*n) - 1
}

// layout is what Members remembers of how members are laid out, so that what
// repeats from member to member is compared a word at a time instead of read
// byte by byte: per depth (modulo 8: nested objects are indented each their
// own way) the runs from a value's end to the next key's quote (",\n    \""),
// from an object's '{' to its first key's quote, and from a value's end to the
// closing '}'; and from a key's end to its value (" : "). Only a run read and
// checked the slow way is remembered, so a match is valid.
type layout struct {
	runs             [8]depthRuns
	sep              pattern // in value, from the ',' after a number to the next number
	colon, colonMask uint64
	colonN           int
}

// headTable is what Members remembers of members, per depth (modulo 8), the
// names it gave keys (keyName), and the last name it gave (MemberSpan.Head).
type headTable struct {
	d    [8]memberHeads
	none memberHeads // none learned: Members' heads where maxToken is below 32
	keys [256]keyName
	gen  uint64
}

// keyName is the name given to a key of up to 16 bytes between its quotes:
// its length plus one (0: an empty slot) and its first and last 8 bytes,
// which hold all of its bytes.
type keyName struct {
	n           uint
	first, last uint64
	gen         uint64
}

// keyName returns a name for the key at src[ks:ke], quotes included, with
// no escape: the one it gave the key before when the key's slot still holds
// it, else a new one. A key of more than 16 bytes between its quotes, or
// one of fewer than 8 whose first 8 bytes from its content are not all in
// the window, gets a new name each time.
func (t *headTable) keyName(src []byte, ks, ke int) uint64 {
	n := uint(ke - ks - 2)
	if n > 16 || ks+9 > len(src) {
		return t.name()
	}
	first, last := binary.LittleEndian.Uint64(src[ks+1:])&headMasks[min(n, 8)][0], uint64(0)
	if n > 8 {
		last = binary.LittleEndian.Uint64(src[ke-9:])
	}
	k := &t.keys[(first^last<<1^uint64(n))*0x9e3779b97f4a7c15>>56]
	if k.n != n+1 || k.first != first || k.last != last {
		k.n, k.first, k.last, k.gen = n+1, first, last, t.name()
	}
	return k.gen
}

// headBlocks counts the blocks of 1<<32 head names handed out in the process:
// one to each headTable, and another when it has used up its own. So a name
// means the same key for the life of the process, whichever Scanner gave it,
// and a cache of what a name's key stands for can never hold a stale entry.
var headBlocks atomic.Uint64

func newHeadTable() *headTable { return &headTable{gen: headBlocks.Add(1) << 32} }

// name returns a name that no head has had: never 0, never another table's.
func (t *headTable) name() uint64 {
	if t.gen++; t.gen&(1<<32-1) == 0 { // this table's block is used up
		t.gen = headBlocks.Add(1)<<32 | 1
	}
	return t.gen
}

// memberHeads is what Members remembers of the members of objects at one
// depth: the heads of an object's first len(h) members, and the place of the
// next member in the object being read.
type memberHeads struct {
	h    [64]memberHead // 64: tweets have ~25 members, their users ~40, flow-document's flows ~75
	alt  [64]memberHead // the other head at a place, a member's: memberMiss compares it
	next int
}

// memberHead is the run from where a member starts (the ',' after the last
// value, or after the '{') to its value's first byte, key included: up to 32
// bytes, in four words and their masks, read and checked in state st. A head
// holds for any object at its depth, in any document: Reset keeps them. An
// empty one has st stValue, a state in which Members reads no member.
type memberHead struct {
	w, m        [4]uint64
	n           int
	key, keyEnd int // where the key's quotes are, from the start; in a close head (learnClose), keyEnd 0 and key after the '}'
	st          uint8
	misses      uint16   // low byte: the last member at this place did not match; high byte: how many objects closed here since (learnClose)
	gen         uint64   // its name, given when it was learned: MemberSpan.Head
	bit         uint64   // its key's length as a bit of keep: 1<<min(length, 63)
	_           [16]byte // to 128 bytes: Members finds a head by a shift, not a multiply
}

// set makes src[i:j], a member's head read and checked in state st with its
// key at src[ks:ke], the head when it fits, and reports whether it did.
func (h *memberHead) set(src []byte, i, j, ks, ke int, st uint8) bool {
	h.n, h.st = 0, stValue // empty: matches nothing
	n := j - i
	if n > 32 || i+32 > len(src) {
		return false
	}
	b := src[i : i+32]
	h.w[0], h.w[1] = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	h.w[2], h.w[3] = binary.LittleEndian.Uint64(b[16:]), binary.LittleEndian.Uint64(b[24:])
	h.m = headMasks[n]
	h.n, h.key, h.keyEnd, h.st, h.misses = n, ks-i, ke-i, st, 0
	h.bit = 1 << min(uint(ke-ks-2), 63)
	return true
}

// setLong makes src[ks:j], a member's head from its key's quote (the key
// ending at ke), read and checked in state stNext after the run that the
// layout remembers (runs.next), the head as a long one (stLongNext) when it
// fits, and reports whether it did. The loop never matches it (no state is
// stLongNext); memberMiss does, after runs.next.
func (h *memberHead) setLong(src []byte, ks, j, ke int) bool {
	if !h.set(src, ks, j, ks, ke, stNext) {
		return false
	}
	h.st = stLongNext
	return true
}

// stLongNext is a long head's st (setLong): no state of the Scanner.
const stLongNext = 0xff

// headMasks holds, for a head of n bytes, the masks of its four words:
// lowBytes(n), lowBytes(n-8) and so on; a load instead of four branches.
var headMasks = func() (m [33][4]uint64) {
	for n := range m {
		for k := range m[n] {
			m[n][k] = lowBytes(n - 8*k)
		}
	}
	return m
}()

// learnClose makes src[i:end], the run from a value's end to the '}' that
// closed its object (at src[end-1]), read and checked in state stNext, the
// head h, as a close head (keyEnd 0: no member's head has one; key, where
// the '}' ends), where h is empty, or a close head that missed twice (not
// counting an array's last element, where the head goes on to a next one),
// or a member's head at whose place objects closed four times since it last
// matched.
// A member takes a close head's place at once: where objects of several
// shapes come at one depth, some of whose members come where others close,
// the members keep their heads, as if closes took none. Members, when the
// next element of the array opens at once, makes the head go on to its '{'
// (n beyond key).
func (h *memberHead) learnClose(src []byte, i, end int) {
	limit := uint16(1)
	if h.keyEnd != 0 {
		limit = 4
	} else if h.n > h.key && h.key == end-i && h.prefix(src, i) {
		// The close head goes on to a next element, and this object
		// was its array's last: the head stays for the others.
		return
	}
	if h.n != 0 && h.misses>>8 < limit {
		h.misses += 1 << 8
		return
	}
	h.set(src, i, end, end, i, stNext)
}

// learnSibling makes the close head at the next member's place, where it
// is the one for src[i:end] (the run from a value's end to the '}' at
// src[end-1]), go on to src[k-1], the '{' of the array's next element that
// sibling opened.
//
//go:noinline
func (hs *memberHeads) learnSibling(src []byte, i, end, k, next int) {
	if next >= len(hs.h) {
		return
	}
	if h := &hs.h[next&(len(hs.h)-1)]; h.keyEnd == 0 && h.st == stNext && h.key == end-i {
		h.set(src, i, k, end, i, stNext)
	}
}

// prefix reports whether h's first h.key bytes are those at src[i].
func (h *memberHead) prefix(src []byte, i int) bool {
	if i+32 > len(src) {
		return false
	}
	for k := range h.w {
		if (binary.LittleEndian.Uint64(src[i+8*k:])^h.w[k])&h.m[k]&lowBytes(h.key-8*k) != 0 {
			return false
		}
	}
	return true
}

// depthRuns is what layout remembers of one depth.
type depthRuns struct {
	next, open, close pattern
	elem              pattern // in an array, from the ',' to the next element's first byte
}

// pattern is a run of up to 16 bytes: n of them (0: none remembered), in two
// words and their masks.
type pattern struct {
	bytes, mask [2]uint64
	n           int
}

// match reports whether the bytes at src[j] are the pattern's.
func (r *pattern) match(src []byte, j int) bool {
	return r.n > 0 && j+16 <= len(src) &&
		(binary.LittleEndian.Uint64(src[j:j+8])^r.bytes[0])&r.mask[0] == 0 &&
		(binary.LittleEndian.Uint64(src[j+8:j+16])^r.bytes[1])&r.mask[1] == 0
}

// remember makes src[i:j], checked well formed, the pattern when it has two
// bytes or more (one byte costs more to match than to read) and fits.
func (r *pattern) remember(src []byte, i, j int) {
	if j-i >= 2 {
		r.set(src, i, j)
	}
}

// set makes src[i:j] the pattern when it fits.
func (r *pattern) set(src []byte, i, j int) {
	if n := j - i; n <= 16 && i+16 <= len(src) {
		r.n = n
		r.bytes[0], r.mask[0] = binary.LittleEndian.Uint64(src[i:i+8]), lowBytes(n)
		r.bytes[1], r.mask[1] = binary.LittleEndian.Uint64(src[i+8:i+16]), lowBytes(n-8)
	}
}
