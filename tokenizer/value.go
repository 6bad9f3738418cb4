package tokenizer

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// SkipValue consumes one whole value, validating all of it (SPEC V1): the
// value that starts at src[i] (found with [Scanner.Peek]), or the rest of
// the value that the last call left unfinished. It returns the index after
// the value and done, or len(src) and done false when the window ends first.
//
// A container that starts at src[i] when no value scan is under way is
// first offered whole to skipWhole, which keeps no resumable state; what it
// does not take (cut by the window's end, invalid, too deep, a token too
// long) value reads from skipWhole's last checkpoint, or from i.
//
// A value that an earlier window began is offered to skipWhole from where
// that window left it (after the token it cut, finished here), as far as
// it goes.
func (s *Scanner) SkipValue(src []byte, i int) (int, bool, error) {
	if !s.inValue && (s.state == stValue || s.state == stValueOrEnd) && i < len(src) && src[i]|0x20 == '{' {
		return s.skipContainer(src, i)
	}
	if s.inValue && s.depth > s.base {
		return s.skipInside(src, i)
	}
	return s.value(src, i, false)
}

// skipContainer is SkipValue for the container at src[i] when no value scan
// is under way: skipWhole, else value from skipWhole's checkpoint, where
// value would stand (a value scan under way, ck.depth containers open past
// the depth it began at, after a value in the innermost), or from i.
func (s *Scanner) skipContainer(src []byte, i int) (int, bool, error) {
	j, ok, ck := skipWhole(src, i, s.maxDepth-s.depth, s.maxToken, skipFrom{})
	if ok {
		s.base, s.state = s.depth, s.after()
		return j, true, nil
	}
	return s.value(src, s.handOver(i, ck), false)
}

// skipInside is SkipValue for a value that an earlier window began, at
// most maxSkipDepth containers deep: the token that window cut, if any,
// finished as value's resume labels finish it; then skipWhole from there,
// then value from its checkpoint, or from i.
func (s *Scanner) skipInside(src []byte, i int) (int, bool, error) {
	if i >= len(src) {
		return i, false, nil // as value would: nothing to read, the state as it is
	}
	if s.depth-s.base > maxSkipDepth {
		return s.value(src, i, false)
	}
	i, done, err := s.finishToken(src, i)
	if !done {
		return i, false, err
	}
	j, ok, ck := skipWhole(src, i, s.maxDepth-s.base, s.maxToken, s.inside())
	if ok {
		s.closeInside()
		return j, true, nil
	}
	if ck.depth > 0 {
		i = s.reopen(ck)
	}
	return s.value(src, i, false)
}

// handOver is what skipContainer and copyContainer do when the kernel did not
// take the container at src[i]: from its checkpoint ck, a value scan under
// way, where value would stand (ck.depth containers open past the depth it
// began at, after a value in the innermost); or, with no checkpoint, nothing.
// It returns the index value goes on from: ck's, or i.
func (s *Scanner) handOver(i int, ck skipCheckpoint) int {
	if ck.depth == 0 {
		return i
	}
	s.inValue, s.base = true, s.depth
	return s.reopen(ck)
}

// closeInside ends the value scan under way that skipInside or copyInside
// offered to the kernel, which took the rest of it.
func (s *Scanner) closeInside() {
	s.depth = s.base
	s.inValue, s.state = false, s.after()
}

// finishToken finishes the token that the last window cut, if any, as
// value's resume labels do, for skipInside and copyInside: true and the
// index after it, the grammar state the one after it; or false with the
// window's end or an error.
func (s *Scanner) finishToken(src []byte, i int) (int, bool, error) {
	st := s.state
	if st <= stNext {
		return i, true, nil
	}
	var (
		done bool
		err  error
	)
	switch st {
	case stString, stKeyString:
		i, done, err = s.str(src, i)
	case stNumber:
		i, done, err = s.number(src, i)
	default:
		i, done, err = s.literal(src, i)
	}
	if !done {
		if err != nil && st != stLiteral {
			err = s.tokenErr(err, s.tokStart)
		}
		return i, false, err
	}
	if st != stLiteral {
		if err = s.CheckToken(i); err != nil {
			return i, false, err
		}
	}
	// A scalar inside the value (depth > base): the value goes on.
	s.state = stNext
	if st == stKeyString {
		s.state = stColon
	}
	return i, true, nil
}

// inside is where skipWhole starts for the value under way, depth > base
// (at most maxSkipDepth past it), between two tokens: the open containers
// past base from kinds, the entry by the grammar state.
//
// kinds holds the levels base to depth-1 in its bits base to depth-1, the
// kernel's stack in reverse order (the innermost in bit 0): the d bits are
// read as one word, at most two, and reversed.
func (s *Scanner) inside() skipFrom {
	d := s.depth - s.base
	w, off := s.base>>6, uint(s.base&63)
	x := s.kinds[w] >> off
	if int(off)+d > 64 {
		x |= s.kinds[w+1] << (64 - off)
	}
	return skipFrom{bits.Reverse64(x) >> (64 - d), d, skipEntry[s.state]}
}

// reopen puts s where value stands at skipWhole's checkpoint ck, the value
// scan under way: ck.depth containers open past base, after a value in the
// innermost. It returns the index to go on from. The containers are written
// into kinds at once, as inside reads them; skipWhole kept within maxDepth
// (room), so no push can fail.
func (s *Scanner) reopen(ck skipCheckpoint) int {
	d := ck.depth
	for (s.base+d-1)>>6 >= len(s.kinds) {
		s.kinds = append(s.kinds, 0)
	}
	x, keep := bits.Reverse64(ck.stack)>>(64-d), ^uint64(0)>>(64-d)
	w, off := s.base>>6, uint(s.base&63)
	s.kinds[w] = s.kinds[w]&^(keep<<off) | x<<off
	if int(off)+d > 64 {
		s.kinds[w+1] = s.kinds[w+1]&^(keep>>(64-off)) | x>>(64-off)
	}
	s.depth = s.base + d
	s.state = stNext
	return ck.pos
}

// AppendValue is SkipValue that also appends the value's bytes to dst,
// without the whitespace between its tokens (SPEC O1), and returns the
// extended dst: for a value cut by windows, the part in this one. On error,
// what it appended is not to be used. It may write past the extended dst's
// length, in its capacity, up to 16 bytes: the value's own bytes, or zeros.
//
// A container that starts at src[i] when no value scan is under way is
// first offered whole to copyWhole (copyContainer), and a value that an
// earlier window began is offered to it from where that window left it
// (copyInside), as SkipValue does with skipWhole; what it does not take
// (cut by the window's end, invalid, too deep, a token too long) value
// copies from copyWhole's last checkpoint, or from where it was offered.
func (s *Scanner) AppendValue(dst, src []byte, i int) ([]byte, int, bool, error) {
	if !s.inValue && (s.state == stValue || s.state == stValueOrEnd) && i < len(src) && src[i]|0x20 == '{' {
		var done bool
		if dst, i, done = s.copyContainer(dst, src, i); done {
			return dst, i, true, nil
		}
	} else if s.inValue && s.depth > s.base && s.depth-s.base <= maxSkipDepth && i < len(src) {
		var (
			done bool
			err  error
		)
		if dst, i, done, err = s.copyInside(dst, src, i); done || err != nil || i == len(src) {
			return dst, i, done, err
		}
	}
	s.out = dst
	i, done, err := s.value(src, i, true)
	dst, s.out = s.out, nil
	if done || err != nil {
		// appendShort may have left up to 15 bytes from past the value's
		// end after dst's last byte: the document's, maybe a dropped
		// member's. (Cut by the window's end, the value owns every byte
		// up to it.)
		if n := len(dst); cap(dst)-n >= 16 {
			*(*[16]byte)(dst[n : n+16]) = [16]byte{}
		} else {
			clear(dst[n:cap(dst)])
		}
	}
	return dst, i, done, err
}

// copyContainer is AppendValue for the container at src[i] when no value
// scan is under way: copyWhole, with dst extended and true; else dst and
// the index from which value copies on: copyWhole's checkpoint, where value
// would stand (as skipContainer), dst extended up to it; or i.
func (s *Scanner) copyContainer(dst, src []byte, i int) ([]byte, int, bool) {
	dst, j, ok, ck := copyWhole(dst, src, i, s.maxDepth-s.depth, s.maxToken, skipFrom{})
	if ok {
		s.base, s.state = s.depth, s.after()
		return dst, j, true
	}
	return dst, s.handOver(i, ck), false
}

// copyInside is AppendValue for a value that an earlier window began, at
// most maxSkipDepth containers deep: the token that window cut, if any,
// finished and appended (as value's resume labels do); then copyWhole from
// there. It returns what AppendValue returns when that ends the call (the
// value done, an error, the window's end); else dst extended and the index
// from which value copies on: copyWhole's checkpoint, where value would
// stand, or after the token.
func (s *Scanner) copyInside(dst, src []byte, i int) ([]byte, int, bool, error) {
	j, done, err := s.finishToken(src, i)
	dst = append(dst, src[i:j]...)
	if !done || j == len(src) {
		return dst, j, false, err
	}
	dst, end, ok, ck := copyWhole(dst, src, j, s.maxDepth-s.base, s.maxToken, s.inside())
	if ok {
		s.closeInside()
		return dst, end, true, nil
	}
	if ck.depth > 0 {
		j = s.reopen(ck)
	}
	return dst, j, false, nil
}

// AppendChecked appends to dst src[i:j], a part of one value that SkipValue
// has checked, without the whitespace between its tokens, and returns the
// extended dst: what AppendValue appends for those bytes. A value's parts
// come in order, all of them, with no other call on s between them: s
// carries from one to the next whether it begins inside a string and
// whether its first byte is escaped. It grows dst by at most j-i bytes at a
// time. Past the extended dst's length, in its capacity, it leaves zeros or
// the value's own bytes.
//
// It is the trusted copy's block loop without its brackets, for opCheckCopy
// (stream), where SkipValue checks a kept container a part at a time: the
// bytes it copies need no grammar and have no end to be found, only their
// strings (compactChecked, 64 bytes a step). The last bytes, fewer than 64,
// go a word at a time.
func (s *Scanner) AppendChecked(dst, src []byte, i, j int) []byte {
	st := quietState{escaped: s.esc == escBackslash}
	if s.trusted == tsString {
		st.inStr = ^uint64(0)
	}
	if blocks := (j - i) / 64; blocks > 0 {
		if cap(dst)-len(dst) < blocks*64 {
			dst = slices.Grow(dst, blocks*64)
		}
		w := compactChecked(src[i:i+blocks*64], dst[len(dst):cap(dst)], &st)
		dst, i = dst[:len(dst)+w], i+blocks*64
	}
	inStr, esc := st.inStr != 0, st.escaped
	run := i
	for i < j {
		if esc { // the byte after a backslash, in a string
			esc = false
			i++
			continue
		}
		if inStr {
			k := quoteOrBackslashAt(src[:j], i)
			if k >= j {
				i = j
				break
			}
			if src[k] == '\\' {
				esc = true
			} else {
				inStr = false
			}
			i = k + 1
			continue
		}
		for i+8 <= j {
			if m := structuralOrSpace(binary.LittleEndian.Uint64(src[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= j {
			break
		}
		switch c := src[i]; {
		case c == '"':
			inStr = true
		case c <= ' ':
			dst = append(dst, src[run:i]...)
			for i < j && src[i] <= ' ' {
				i++
			}
			run = i
			continue
		}
		i++
	}
	dst = append(dst, src[run:j]...)
	s.trusted, s.esc = tsStart, escNone
	if inStr {
		s.trusted = tsString
	}
	if esc {
		s.esc = escBackslash
	}
	return dst
}

// value is SkipValue, and AppendValue when copy is true: it appends to s.out
// in runs, one append per stretch between two runs of whitespace (one
// 16-byte move for a short one: appendShort).
//
// The states are labels and the transitions gotos: a direct branch per token
// rather than a dispatch through a switch. Few variables live across them
// (the output is a field, errors return at once), so that they stay in
// registers: that is what makes this loop fast. For the same reason each
// label skips whitespace with the same few lines (skipSpace, cost 66,
// inlines) rather than one helper for them, which does not inline (cost
// 101; 87 with its work split out) and costs 9-22% more instructions
// (callgrind: citm/keep 52.2M -> 63.6M, canada/drop 79.6M -> 96.3M, flow
// 32.5M -> 35.6M).
//
// The states, what each expects, and where it goes:
//
//	value        a value: '"' a string, then tokenDone; '{' objectFirst;
//	             '[' arrayFirst; a literal, scalarDone; a number, tokenDone
//	             (an array of numbers is read here, number ',' number)
//	arrayFirst   after '[': ']' closed, else value
//	objectFirst  after '{': '}' closed, else key
//	key          '"' a key, then keyDone (its length), colon
//	colon        ':' then value
//	tokenDone    a string or number ended: its length checked, scalarDone
//	closed       a container ended: pop, scalarDone
//	scalarDone   a value ended: done when back at the starting depth, else next
//	next         ',' then key or value; the closing bracket, closed
//	resume*      the token that the last window cut, resumed, then as above
//	out          the window ended: the state saved, the last run copied
func (s *Scanner) value(src []byte, i int, copy bool) (int, bool, error) {
	if !s.inValue {
		s.inValue, s.base = true, s.depth
	}
	run := i // start of the bytes not yet copied
	var (
		c     byte
		done  bool
		err   error
		start int // where the current string or number began
	)
	obj := s.depth > 0 && s.inObject() // the innermost container is an object

	switch s.state {
	case stValue:
		goto value
	case stValueOrEnd:
		goto arrayFirst
	case stKeyOrEnd:
		goto objectFirst
	case stKey:
		goto key
	case stColon:
		goto colon
	case stNext:
		goto next
	case stString:
		goto resumeString
	case stKeyString:
		goto resumeKey
	case stNumber:
		goto resumeNumber
	case stLiteral:
		goto resumeLiteral
	}
	if i < len(src) {
		return i, false, s.errChar(src, i, ctxTop)
	}
	return i, false, nil

value:
	if i < len(src) && src[i] <= ' ' {
		if copy {
			s.out = appendShort(s.out, src, run, i)
		}
		// Pretty-printed, one space follows most ':'. (skipSpace1, written
		// out: as a call it does not inline, cost 101.)
		if oneSpace(src, i) {
			i++
		} else {
			i = skipSpace(src, i)
		}
		run = i
	}
	if i == len(src) {
		s.state = stValue
		goto out
	}
	switch c = src[i]; c {
	case '"':
		// Most strings are plain: run over them here, a word at a time, and
		// call str only from the first escape, control or non-ASCII byte.
		start = i
		if i = plainEnd(src, i+1); i < len(src) && src[i] == '"' {
			i++
			goto tokenDone
		}
		s.esc, s.u8 = escNone, u8Clean
		if i, done, err = s.str(src, i); !done {
			if err != nil {
				return i, false, s.tokenErr(err, s.offset+int64(start))
			}
			s.state, s.tokStart = stString, s.offset+int64(start)
			goto out
		}
		goto tokenDone
	case '{':
		if !s.pushFast(true) {
			if err = s.push(true, i); err != nil {
				return i, false, err
			}
		}
		obj = true
		i++
		goto objectFirst
	case '[':
		if !s.pushFast(false) {
			if err = s.push(false, i); err != nil {
				return i, false, err
			}
		}
		obj = false
		i++
		goto arrayFirst
	case 't', 'f', 'n':
		if n := wholeLiteral(src, i); n > 0 {
			i += n
			goto scalarDone
		}
		if i, done, err = s.startLiteral(src, i); !done {
			if err != nil {
				return i, false, err
			}
			s.state = stLiteral
			goto out
		}
		goto scalarDone
	}
	start = i
	if j := numberEnd(src, i); j > 0 {
		// Arrays of numbers (coordinates, meshes) are read here, number,
		// ',' and number, rather than round the states for each. Indented,
		// the whitespace after each ',' is the same: once skipped and
		// checked, it is compared two words at a time. (A match shorter
		// than the whitespace leaves the rest to the value label.)
		sep := &s.layout.sep
		for !obj && s.depth > s.base && src[j] == ',' && j-start <= s.maxToken {
			k := j + 1
			if k < len(src) && src[k] <= ' ' {
				if copy {
					s.out = appendShort(s.out, src, run, k)
				}
				if sep.match(src, k) {
					k += sep.n
				} else {
					k0 := k
					k = skipSpace(src, k)
					sep.set(src, k0, k)
				}
				run = k
			}
			e := 0
			if k < len(src) {
				e = numberEnd(src, k)
			}
			if e == 0 {
				i = k
				goto value // not a number: the states take it
			}
			start, j = k, e
		}
		i = j
		goto tokenDone
	}
	if !isDigit(c) && c != '-' {
		return i, false, s.errChar(src, i, ctxValue)
	}
	s.num = numBegin
	if i, done, err = s.number(src, i); !done {
		if err != nil {
			return i, false, s.tokenErr(err, s.offset+int64(start))
		}
		s.state, s.tokStart = stNumber, s.offset+int64(start)
		goto out
	}
	goto tokenDone

arrayFirst: // after '[': a value or ']'
	if i < len(src) && src[i] <= ' ' {
		if copy {
			s.out = appendShort(s.out, src, run, i)
		}
		i = skipSpace(src, i)
		run = i
	}
	if i == len(src) {
		s.state = stValueOrEnd
		goto out
	}
	if src[i] != ']' {
		goto value
	}
	i++
	goto closed

objectFirst: // after '{': a key or '}'
	if i < len(src) && src[i] <= ' ' {
		if copy {
			s.out = appendShort(s.out, src, run, i)
		}
		i = skipSpace(src, i)
		run = i
	}
	if i == len(src) {
		s.state = stKeyOrEnd
		goto out
	}
	if src[i] != '}' {
		goto key
	}
	i++
	goto closed

key:
	if i < len(src) && src[i] <= ' ' {
		if copy {
			s.out = appendShort(s.out, src, run, i)
		}
		i = skipSpace(src, i)
		run = i
	}
	if i == len(src) {
		s.state = stKey
		goto out
	}
	if src[i] != '"' {
		return i, false, s.errChar(src, i, ctxKey)
	}
	start = i
	if i = plainEnd(src, i+1); i < len(src) && src[i] == '"' {
		i++
		goto keyDone
	}
	s.esc, s.u8 = escNone, u8Clean
	if i, done, err = s.str(src, i); !done {
		if err != nil {
			return i, false, s.tokenErr(err, s.offset+int64(start))
		}
		s.state, s.tokStart = stKeyString, s.offset+int64(start)
		goto out
	}

keyDone:
	if i-start > s.maxToken {
		return i, false, s.tokenTooLong(start, i)
	}

colon:
	if i < len(src) && src[i] <= ' ' {
		if copy {
			s.out = appendShort(s.out, src, run, i)
		}
		i = skipSpace(src, i)
		run = i
	}
	if i == len(src) {
		s.state = stColon
		goto out
	}
	if src[i] != ':' {
		return i, false, s.errChar(src, i, ctxColon)
	}
	i++
	goto value

tokenDone: // a string or number that began at src[start] ended at src[i-1]
	if i-start > s.maxToken {
		return i, false, s.tokenTooLong(start, i)
	}
	goto scalarDone

closed: // a container ended at src[i-1]
	s.depth--
	if s.depth > 0 {
		obj = s.inObject()
	}

scalarDone: // a value ended at src[i-1]
	if s.depth == s.base {
		s.inValue, s.state = false, s.after()
		if copy {
			s.out = append(s.out, src[run:i]...)
		}
		return i, true, nil
	}

next: // after a value in a container: ',' or the closing bracket
	if i < len(src) && src[i] <= ' ' {
		if copy {
			s.out = appendShort(s.out, src, run, i)
		}
		i = skipSpace(src, i)
		run = i
	}
	if i == len(src) {
		s.state = stNext
		goto out
	}
	switch c = src[i]; {
	case c == ',':
		i++
		if obj {
			goto key
		}
		goto value
	case c == '}' && obj, c == ']' && !obj:
		i++
		goto closed
	case obj:
		return i, false, s.errChar(src, i, ctxObjectNext)
	default:
		return i, false, s.errChar(src, i, ctxArrayNext)
	}

resumeString:
	if i, done, err = s.str(src, i); !done {
		goto out
	}
	if err = s.CheckToken(i); err != nil {
		return i, false, err
	}
	goto scalarDone

resumeKey:
	if i, done, err = s.str(src, i); !done {
		goto out
	}
	if err = s.CheckToken(i); err != nil {
		return i, false, err
	}
	goto colon

resumeNumber:
	if i, done, err = s.number(src, i); !done {
		goto out
	}
	if err = s.CheckToken(i); err != nil {
		return i, false, err
	}
	goto scalarDone

resumeLiteral:
	if i, done, err = s.literal(src, i); !done {
		goto out
	}
	goto scalarDone

out: // the window ended, or a resumed token failed
	if err != nil {
		if s.state == stString || s.state == stKeyString || s.state == stNumber {
			err = s.tokenErr(err, s.tokStart)
		}
		return i, false, err
	}
	if copy {
		s.out = append(s.out, src[run:i]...)
	}
	return i, false, nil
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace. A run of spaces, as in indented documents, is measured a
// word at a time: the first byte of the word that differs from ' '.
func skipSpace(src []byte, i int) int {
	for i < len(src) {
		if c := src[i]; c != ' ' {
			if !space[c] {
				return i
			}
			i++
		} else if i+8 <= len(src) {
			if x := binary.LittleEndian.Uint64(src[i:i+8]) ^ ' '*lsb; x != 0 {
				i += bits.TrailingZeros64(x) >> 3
			} else {
				i += 8
			}
		} else {
			i++
		}
	}
	return i
}
