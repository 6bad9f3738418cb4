package stream

import (
	"unsafe"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// mask runs the masked levels over src from i until the window ends, the root
// closes, or the input is rejected. What it does next is m.op:
//
//	opToken      the innermost frame's next element (an array: Element,
//	             else Peek) or run of members (an object: Members, else
//	             Next), or its closing bracket
//	opKey        the rest of a key that the last window cut, then opValue
//	opValue      the value after a key: dropped (opSkip) or decided (value)
//	opSkip       a dropped value, skipped to its end, then opToken
//	opCheckCopy  a kept container, checked by sc and copied by cp, checkChunk
//	             bytes at a time, then opToken
//	opCopy       a kept value, checked and copied by sc, then opToken
//
// value pushes a frame for a container the mask recurses into and sets
// opToken, opCopy or opCheckCopy; a closing bracket pops one, and the root's
// ends the masked levels (phTrail). A container the mask recurses into that
// opToken meets (an element, or the value of the member Members read last)
// is opened in the loop when Scanner.OpenFast can (open): about 100
// instructions an object on google-maps, whose objects nest four deep,
// against 170 by memberValue, value and Open.
// opToken's two halves stay inline: as
// methods (element, member) they cost up to 2.9% more instructions
// (callgrind, default mode: google 1.197M -> 1.232M, flow 32.5M -> 33.1M).
func (m *Machine) mask(dst, src []byte, i int) ([]byte, int, error) {
	m.sc.SetBase(m.off)
	var (
		err  error
		done bool
	)
	for {
		switch m.op {
		case opToken:
			f := &m.frames[len(m.frames)-1]
			if f.array {
				k, at := m.sc.Element(src, i)
				if k == tokenizer.None {
					if k, i, err = m.sc.Peek(src, i); err != nil || k == tokenizer.None {
						return dst, i, m.fail(err)
					}
					at = i
					if k == tokenizer.ArrayEnd {
						_, at, _ = m.sc.Next(src, i)
					}
				}
				if i = at; k == tokenizer.ArrayEnd {
					dst = append(dst, ']')
					if m.pop() {
						return dst, i, nil
					}
					continue
				}
				f.index++
				if k|0x20 == '{' && f.node != compile.Keep && !m.wild && m.sc.OpenFast(k == tokenizer.ObjectStart) {
					dst, i = m.open(dst, f, byte(k), f.node), i+1 // value's case of a masked container, in short
					continue
				}
				if dst, i, err = m.value(dst, src, i, k, f.node); err != nil {
					return dst, i, m.fail(err)
				}
				continue
			}
			// The fast path: a run of members read in one loop.
			// Members skips the containers of the keys f.lens drops.
			// It goes down into the objects of the members that the
			// node's Descents name (descended).
			if n, at, closed := m.sc.Members(src, i, m.spans[:], m.cfg.Trusted, uint64(f.lens), m.found.descents(f.node)); n > 0 || closed {
				var end int
				if m.sc.WentDown() {
					dst, end, f = m.descended(dst, src, f, n)
				} else {
					dst, end = m.members(dst, src, f, n)
				}
				if i = at; closed {
					dst = append(dst, '}')
					if m.pop() {
						return dst, i, nil
					}
					continue
				}
				if end > 0 {
					continue
				}
				if end < 0 {
					// The skip of a dropped container stopped short: an
					// error, or the window's end (opSkip goes on).
					if err = m.sc.DropErr(); err != nil {
						return dst, i, m.fail(err)
					}
					m.op = opSkip
					continue
				}
				if c := src[i]; c|0x20 == '{' && f.entry != compile.NoEntry && !m.wild {
					if node := m.prog.Entry(f.entry).Node; node != compile.Keep && m.sc.OpenFast(c == '{') {
						if h := m.spans[n-1].Head; h != 0 && c == '{' {
							if d := m.found.descents(f.node); d != nil {
								d.Learn(h, uint64(m.prog.KeyLengths(node))) // Members opens it next time
							}
						}
						dst, i = m.open(dst, f, c, node), i+1 // value's case of a masked container, in short
						continue
					}
				}
				if dst, i, err = m.memberValue(dst, src, i, f); err != nil {
					return dst, i, m.fail(err)
				}
				continue
			}
			var tok tokenizer.Token
			if tok, i, err = m.sc.Next(src, i); err != nil || tok.Kind == tokenizer.None {
				return dst, i, m.fail(err)
			}
			if tok.Kind == tokenizer.ObjectEnd {
				dst = append(dst, '}')
				if m.pop() {
					return dst, i, nil
				}
				continue
			}
			f.member, f.entry = true, compile.NoEntry
			m.keyOver = false
			if tok.More {
				m.keyBuf, m.keyInSrc = m.keyBuf[:0], false
				dst = m.addKeyPiece(dst, src[tok.Start:tok.End])
				m.op = opKey
				continue
			}
			m.key, m.keyInSrc = src[tok.Start:tok.End], true
			f.entry = m.lookup(f.node, m.key, tok.Escaped)
			m.op = opValue
		case opKey:
			var tok tokenizer.Token
			if tok, i, err = m.sc.Next(src, i); err != nil {
				return dst, i, m.fail(err)
			}
			dst = m.addKeyPiece(dst, src[tok.Start:tok.End])
			if tok.More {
				return dst, i, nil
			}
			f := &m.frames[len(m.frames)-1]
			if !m.keyOver {
				f.entry = m.lookup(f.node, m.key, tok.Escaped)
			} else {
				f.entry = m.prog.Other(f.node) // too long for an entry of its own
			}
			m.op = opValue
		case opValue:
			var k tokenizer.Kind
			if k, i, err = m.sc.Peek(src, i); err != nil || k == tokenizer.None {
				return dst, i, m.fail(err)
			}
			e := m.frames[len(m.frames)-1].entry
			if e == compile.NoEntry {
				m.op = opSkip
				continue
			}
			if dst, i, err = m.value(dst, src, i, k, m.prog.Entry(e).Node); err != nil {
				return dst, i, m.fail(err)
			}
		case opSkip:
			if m.cfg.Trusted {
				i, done, err = m.sc.SkipTrusted(src, i)
			} else {
				i, done, err = m.sc.SkipValue(src, i)
			}
			if !done {
				return dst, i, m.fail(err)
			}
			m.op = opToken
		case opCheckCopy:
			// sc checks the container checkChunk bytes at a time; cp copies
			// each part sc checked without its whitespace, from L2, and
			// copies nothing sc has not checked.
			for {
				start, end := i, min(len(src), i+checkChunk)
				if i, done, err = m.sc.SkipValue(src[:end], i); err != nil {
					break
				}
				dst = m.cp.AppendChecked(dst, src, start, i)
				if done || end == len(src) {
					break
				}
			}
			if !done || err != nil {
				return dst, i, m.fail(err)
			}
			m.op = opToken
		case opCopy:
			if m.cfg.Trusted {
				dst, i, done, err = m.sc.AppendTrusted(dst, src, i)
			} else {
				dst, i, done, err = m.sc.AppendValue(dst, src, i)
			}
			if !done {
				return dst, i, m.fail(err)
			}
			m.op = opToken
		}
	}
}

// checkChunk is how much of a kept container opCheckCopy checks before it
// copies that part: a multiple of 64, so that AppendChecked copies whole
// 64-byte blocks but for the container's last bytes. 256 KiB, which stays in
// L2 with its copy: with 16 KiB parts, keeping a 100 MB conversation whole
// (bench's ContextLarge, mask=none, Append) ran at 1,080 cpu-MB/s, with 256 KiB
// at 1,560 and with 1 MiB at 1,450 (round 12's main: 1,360); citm-keep-most
// +10 %, twitter-keep-most +4 % against 16 KiB (Intel Xeon; bench/REPORT.md,
// round 13).
const checkChunk = 256 << 10

// checkCopy says that kept containers are checked and copied by two scanners
// (opCheckCopy): where the AVX-512 kernels run. A variable, so that tests can
// compare opCheckCopy with opCopy on any CPU.
var checkCopy = tokenizer.WideCopy()

// members writes what the mask keeps of m.spans[:n], members of the object f
// that Scanner.Members read, and records the last one as the member being read.
// Members gives no span to a member whose key's length f.lens drops, but for
// the last, so the loop looks every key up (the last's too, which the cache
// or Lookup answers NoEntry) and tests no length: a span per dropped member
// and the test in the loop cost flow-document 3 % more instructions, apache
// 1.6 %.
// A sibling's span (KeyStart < 0, no Head) is told apart before the found
// cache's probe, which it would miss: round 14, apache-builds -1.9 %
// instructions (a sibling a job), the other rows level (callgrind).
// It returns the last one's ValueEnd: 0 when its value is still to be read
// (then memberValue goes on with it), -1 when Members began to skip it and
// stopped short, 1 for no span.
func (m *Machine) members(dst, src []byte, f *frame, n int) ([]byte, int) {
	if n == 0 {
		return dst, 1
	}
	spans := m.spans[:n]
	e := compile.NoEntry
	for k := range spans {
		sp := &spans[k]
		if sp.KeyStart < 0 {
			dst = m.sibling(dst, f)
			continue
		}
		if c := m.found.slot(sp.Head, f.node); c.head == sp.Head && c.node == f.node {
			e = c.entry // the same key as before, in the same node
		} else if sp.Escaped {
			e = m.lookup(f.node, src[sp.KeyStart:sp.KeyEnd], true)
		} else {
			e = m.prog.Lookup(f.node, src[sp.KeyStart+1:sp.KeyEnd-1])
			if sp.Head != 0 {
				c.head, c.node, c.entry = sp.Head, f.node, e
			}
		}
		if e == compile.NoEntry || sp.ValueEnd <= 0 {
			continue
		}
		if m.cfg.DropMismatched && m.prog.Entry(e).Node != compile.Keep {
			continue // SPEC A6: a scalar where the mask expects an object
		}
		ks, vs, o := sp.KeyStart, sp.ValueStart, len(dst)
		k1, v1 := uint(sp.KeyEnd-ks-1), uint(sp.ValueEnd-vs-1)
		if k1|v1 >= 16 || vs > len(src)-16 || cap(dst)-o < 64 {
			if k1 < 16 && v1 < 64 && vs <= len(src)-64 && cap(dst)-o >= 128 {
				// A value of up to 64 bytes (apache's job names),
				// moved 16 bytes at a time as descended moves it, not
				// appended: appendMember's memmoves are calls. Round
				// 13 (keys13): apache -1.2 % instructions, +4 to 5 %
				// cpu-MB/s default and stream, trusted within noise
				// (Intel Xeon); conversation and flow +0.4 %
				// instructions (their key and value sit side by side:
				// one append), not slower in time.
				c := uint(0)
				if f.wrote {
					c = 1
				}
				f.wrote = true
				d, s := ptr(dst, o), ptr(src, 0)
				*(*byte)(d) = ','
				i := (c + 1 + k1) & 31 // the ':'
				*(*[16]byte)(unsafe.Add(d, c&1)) = *(*[16]byte)(unsafe.Add(s, ks))
				*(*byte)(unsafe.Add(d, i)) = ':'
				v, w := unsafe.Add(s, vs), unsafe.Add(d, i+1)
				for x := uint(0); x <= v1; x += 16 {
					*(*[16]byte)(unsafe.Add(w, x)) = *(*[16]byte)(unsafe.Add(v, x))
				}
				*(*[16]byte)(unsafe.Add(w, v1+1)) = [16]byte{}
				dst = dst[:o+int(i+2+v1)]
				continue
			}
			dst, f.wrote = appendMember(dst, src, sp, f.wrote), true
			continue
		}
		// A short key and value, moved (see appendMember): k1 and v1, their
		// lengths less one, tested in one compare above.
		c := uint(0)
		if f.wrote {
			c = 1
		}
		f.wrote = true
		dst = dst[:o+moveShort(ptr(dst, o), ptr(src, 0), ks, vs, c, k1, v1)]
	}
	last := &spans[len(spans)-1]
	if last.KeyStart < 0 {
		return dst, last.ValueEnd // f is the sibling's, with no member read yet
	}
	f.member, f.entry = true, e
	m.key, m.keyInSrc, m.keyOver = src[last.KeyStart:last.KeyEnd], true, false
	return dst, last.ValueEnd
}

// descended is members for m.spans[:n] where Scanner.Members went down into
// objects (Scanner.WentDown): a span with ValueEnd tokenizer.SpanOpened is a
// member whose object value it opened (the Descents that Learn filled), and
// the members up to a span with KeyStart tokenizer.SpanClose are that
// object's. Each such object is opened and closed as open after OpenFast and
// a '}' at opToken would: a frame pushed and popped. It returns what members
// returns (1 where the last span opened an object), and the innermost frame.
//
// members is this loop without those two spans, a copy kept apart on
// purpose: with the frame changing in its loop, members cost apache-builds,
// which never goes down, 0.9 % more instructions, twitter 0.5 %; and members
// called for each run between the two spans cost google-maps all that going
// down saved (callgrind). A change to one loop goes to the other, but for
// one: here escaped and special spans are told apart before the found
// cache's probe (google-maps -2.3 % instructions, flow -0.8 %); in members
// the same order had the loop store its values at every span, and cost
// flow 0.3 to 0.7 % more than it saved apache, so members tells apart only
// siblings first (round 14).
//
// Unlike members, descended's loop has no call on its common path (round
// 12, desc12): descSpan and keepSpan take the rest. Written as members is,
// the compiler kept dst, f and k across the loop's rare calls and stored
// them at the loop's head at every span. The same split in members cost
// conversation-items 1.5 % more instructions (its keys miss the cache, and
// descSpan's call costs more than Lookup's inline): members keeps its form.
func (m *Machine) descended(dst, src []byte, f *frame, n int) ([]byte, int, *frame) {
	if n == 0 {
		return dst, 1, f
	}
	spans := m.spans[:n]
	e := compile.NoEntry
	// The loop takes the common spans without a call: a found cache's hit
	// dropped, kept short or opened short, a sibling and a close with room
	// in dst. Any other span goes to descSpan, which takes and returns all
	// that the loop carries (dst, f, e, k): with a call in the loop that
	// those values outlive, the compiler stored five of them at the loop's
	// head at every span, about 18 instructions.
	for k := 0; k < len(spans); k++ {
		sp := &spans[k]
		if sp.Escaped {
			if o := len(dst); sp.KeyStart < 0 && cap(dst)-o >= 3 {
				// Written in place, not appended: an append's call
				// of growslice would be a call in the loop.
				if sp.KeyStart == tokenizer.SpanSibling {
					next(f, -1).index++
					f.wrote, f.member, f.entry = false, false, compile.NoEntry
					*(*[3]byte)(ptr(dst, o)) = [3]byte{'}', ',', '{'}
					dst = dst[:o+3]
					continue
				}
				*(*byte)(ptr(dst, o)) = '}'
				dst = dst[:o+1]
				m.frames = m.frames[:len(m.frames)-1]
				f = next(f, -1)
				continue
			}
		} else if c := m.found.slot(sp.Head, f.node); c.head == sp.Head && c.node == f.node {
			ks, o := sp.KeyStart, len(dst)
			k1 := uint(sp.KeyEnd - ks - 1)
			if e = c.entry; e == compile.NoEntry || sp.ValueEnd <= 0 {
				if sp.ValueEnd != tokenizer.SpanOpened {
					continue
				}
				if nf := len(m.frames); k1 < 16 && ks <= len(src)-16 && cap(dst)-o >= 64 && nf < cap(m.frames) {
					f.member, f.entry = true, e
					c := uint(0)
					if f.wrote {
						c = 1
					}
					f.wrote = true
					dst = dst[:o+moveOpen(ptr(dst, o), ptr(src, 0), ks, c, k1)]
					node := m.prog.Entry(e).Node
					m.frames = m.frames[:nf+1]
					f = next(f, 1)
					f.node, f.array, f.wrote, f.member = node, false, false, false
					f.entry, f.index, f.lens = compile.NoEntry, -1, m.prog.KeyLengths(node)
					continue
				}
			} else if vs := sp.ValueStart; !m.cfg.DropMismatched {
				if v1 := uint(sp.ValueEnd - vs - 1); k1|v1 < 16 && vs <= len(src)-16 && cap(dst)-o >= 64 {
					c := uint(0)
					if f.wrote {
						c = 1
					}
					f.wrote = true
					dst = dst[:o+moveShort(ptr(dst, o), ptr(src, 0), ks, vs, c, k1, v1)]
					continue
				} else if k1 < 16 && v1 < 64 && vs <= len(src)-64 && cap(dst)-o >= 128 {
					// A value of up to 64 bytes (flow's 0.8653962447851803),
					// moved 16 bytes at a time, not appended: appendMember's
					// memmove is a call. moveShort's key, then the value's
					// moves (the compiler would not inline them in a
					// function). A longer value goes to appendMember: its
					// memmove costs less than more moves.
					c := uint(0)
					if f.wrote {
						c = 1
					}
					f.wrote = true
					d, s := ptr(dst, o), ptr(src, 0)
					*(*byte)(d) = ','
					i := (c + 1 + k1) & 31 // the ':'
					*(*[16]byte)(unsafe.Add(d, c&1)) = *(*[16]byte)(unsafe.Add(s, ks))
					*(*byte)(unsafe.Add(d, i)) = ':'
					v, w := unsafe.Add(s, vs), unsafe.Add(d, i+1)
					for x := uint(0); x <= v1; x += 16 {
						*(*[16]byte)(unsafe.Add(w, x)) = *(*[16]byte)(unsafe.Add(v, x))
					}
					*(*[16]byte)(unsafe.Add(w, v1+1)) = [16]byte{}
					dst = dst[:o+int(i+2+v1)]
					continue
				}
				dst, f, k = m.keepSpan(dst, src, f, k)
				continue
			}
		}
		dst, f, e, k = m.descSpan(dst, src, f, k)
	}
	last := &spans[len(spans)-1]
	if last.KeyStart < 0 {
		return dst, last.ValueEnd, f // f is the sibling's, with no member read yet, or the enclosing object's
	}
	if last.ValueEnd == tokenizer.SpanOpened {
		return dst, 1, f // f is the opened object's, with no member read yet
	}
	f.member, f.entry = true, e
	m.key, m.keyInSrc, m.keyOver = src[last.KeyStart:last.KeyEnd], true, false
	return dst, last.ValueEnd, f
}

// keepSpan writes span k, a member that the mask keeps, by appendMember, for
// descended's loop: the span's entry is known (the found cache's hit), and
// the loop needs it to keep dst, f and k across no call.
//
//go:noinline
func (m *Machine) keepSpan(dst, src []byte, f *frame, k int) ([]byte, *frame, int) {
	dst, f.wrote = appendMember(dst, src, &m.spans[k], f.wrote), true
	return dst, f, k
}

// descSpan is descended's loop for its span k, any span: what the loop does
// not take without a call. It returns dst, the innermost frame, the span's
// entry (NoEntry for a span of its own), and k, which the loop then needs
// to keep across no call.
//
//go:noinline
func (m *Machine) descSpan(dst, src []byte, f *frame, k int) ([]byte, *frame, int32, int) {
	sp := &m.spans[k]
	var e int32
	if sp.Escaped {
		// An escaped key, whose Head no slot holds (the found cache
		// keeps unescaped keys), or a span of its own: tested before
		// the cache's probe.
		if sp.KeyStart < 0 {
			if sp.KeyStart == tokenizer.SpanSibling {
				return m.sibling(dst, f), f, compile.NoEntry, k
			}
			// The object that a span opened closed: as a '}' at
			// opToken, where it is not the root's.
			dst = append(dst, '}')
			m.frames = m.frames[:len(m.frames)-1]
			return dst, &m.frames[len(m.frames)-1], compile.NoEntry, k
		}
		e = m.lookup(f.node, src[sp.KeyStart:sp.KeyEnd], true)
	} else if c := m.found.slot(sp.Head, f.node); c.head == sp.Head && c.node == f.node {
		e = c.entry // the same key as before, in the same node
	} else {
		e = m.prog.Lookup(f.node, src[sp.KeyStart+1:sp.KeyEnd-1])
		if sp.Head != 0 {
			c.head, c.node, c.entry = sp.Head, f.node, e
		}
	}
	if e == compile.NoEntry || sp.ValueEnd <= 0 {
		if sp.ValueEnd == tokenizer.SpanOpened {
			// Members opened the value, an object e masks (the
			// Descents that Learn filled): as open after OpenFast,
			// the key and "{" moved as moveShort moves a member
			// where they are short (m.key is not set: the frame
			// pushed has no member yet, and errors name f's member
			// by e's key).
			f.member, f.entry = true, e
			node := m.prog.Entry(e).Node
			ks, o := sp.KeyStart, len(dst)
			if k1 := uint(sp.KeyEnd - ks - 1); k1 < 16 && ks <= len(src)-16 && cap(dst)-o >= 64 {
				c := uint(0)
				if f.wrote {
					c = 1
				}
				f.wrote = true
				dst = dst[:o+moveOpen(ptr(dst, o), ptr(src, 0), ks, c, k1)]
				m.push(node, false)
			} else {
				m.key, m.keyInSrc, m.keyOver = src[ks:sp.KeyEnd], true, false
				dst = m.open(dst, f, '{', node)
			}
			f = &m.frames[len(m.frames)-1]
		}
		return dst, f, e, k
	}
	if m.cfg.DropMismatched && m.prog.Entry(e).Node != compile.Keep {
		return dst, f, e, k // SPEC A6: a scalar where the mask expects an object
	}
	ks, vs, o := sp.KeyStart, sp.ValueStart, len(dst)
	k1, v1 := uint(sp.KeyEnd-ks-1), uint(sp.ValueEnd-vs-1)
	if k1|v1 >= 16 || vs > len(src)-16 || cap(dst)-o < 64 {
		dst, f.wrote = appendMember(dst, src, sp, f.wrote), true
		return dst, f, e, k
	}
	c := uint(0)
	if f.wrote {
		c = 1
	}
	f.wrote = true
	return dst[:o+moveShort(ptr(dst, o), ptr(src, 0), ks, vs, c, k1, v1)], f, e, k
}

// moveShort writes a short kept member at d, dst's room past its length (64
// bytes or more), from s, src's first byte: a ',' when c is 1, the key of
// k1+1 bytes at src[ks], ':' and the value of v1+1 bytes at src[vs], each by
// one 16-byte move (src holds 16 bytes from both), then 16 zeros over
// whatever the moves carried past the value; it returns the bytes written.
// The masks change no value; the caller's tests bound every move, and the
// pointers spare the bounds checks that the compiler made again after them
// (round 14, desc14: with the value moves of members and descended, apache
// -4.5 % instructions, google -2.7 %, flow -2.2 %). It inlines into members'
// and descended's loops.
func moveShort(d, s unsafe.Pointer, ks, vs int, c, k1, v1 uint) int {
	*(*byte)(d) = ','
	i := (c + 1 + k1) & 31 // the ':'
	j := i + 2 + v1&15     // the end
	*(*[16]byte)(unsafe.Add(d, c&1)) = *(*[16]byte)(unsafe.Add(s, ks))
	*(*byte)(unsafe.Add(d, i)) = ':'
	*(*[16]byte)(unsafe.Add(d, i+1)) = *(*[16]byte)(unsafe.Add(s, vs))
	*(*[16]byte)(unsafe.Add(d, j)) = [16]byte{}
	return int(j)
}

// next is the frame d frames above f in m.frames, where f is the innermost
// (d 1: the one a push fills) or the one below it: unchecked.
func next(f *frame, d int) *frame {
	return (*frame)(unsafe.Add(unsafe.Pointer(f), d*int(unsafe.Sizeof(frame{}))))
}

// ptr is the address of b[o], for o up to cap(b): unchecked.
func ptr(b []byte, o int) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), o)
}

// moveOpen writes, as moveShort writes a member, the key of k1+1 bytes at
// src[ks] of a member whose value is an object that the mask recurses into,
// after a ',' when c is 1, then ':' and '{', and 16 zeros over what the
// key's move carried past them; it returns the bytes written.
func moveOpen(d, s unsafe.Pointer, ks int, c, k1 uint) int {
	*(*byte)(d) = ','
	i := (c + 1 + k1) & 31 // the ':'
	*(*[16]byte)(unsafe.Add(d, c&1)) = *(*[16]byte)(unsafe.Add(s, ks))
	*(*[2]byte)(unsafe.Add(d, i)) = [2]byte{':', '{'}
	*(*[16]byte)(unsafe.Add(d, i+2)) = [16]byte{}
	return int(i + 2)
}

// appendMember appends the member sp of src, its key, ':' and its value,
// after a ',' when comma is true: what members and descended write for a
// kept member.
//
// Where the key and the value have 16 bytes or fewer and dst has room,
// members and descended write it themselves: 16 bytes moved for each, with
// ':' between them, instead of three appends, two of them calls of memmove.
// What the first move brings past the key is overwritten by ':' and the
// value; what the second brings past the value, bytes of src that may be a
// dropped member's, is cleared at once by a store of 16 zeros, so that a
// caller's buffer never holds a dropped byte, not even past the output's
// end. (The moves in a call of this function cost more than they save.)
func appendMember(dst, src []byte, sp *tokenizer.MemberSpan, comma bool) []byte {
	ks, vs := sp.KeyStart, sp.ValueStart
	if comma {
		dst = append(dst, ',')
	}
	if vs == sp.KeyEnd+1 {
		return append(dst, src[ks:sp.ValueEnd]...) // "key":value, as it stands
	}
	dst = append(dst, src[ks:sp.KeyEnd]...)
	dst = append(dst, ':')
	return append(dst, src[vs:sp.ValueEnd]...)
}

// sibling closes the object of f, an element of the array in the frame
// below, and opens the next element, an object that Scanner.Members opened
// in its batch: f is the new element's frame, as open would push it.
func (m *Machine) sibling(dst []byte, f *frame) []byte {
	m.frames[len(m.frames)-2].index++
	f.wrote, f.member, f.entry = false, false, compile.NoEntry
	return append(dst, '}', ',', '{')
}

// memberValue goes on with the value of the member of f whose head was read
// (its key in m.key, its entry in f.entry), which starts at src[i].
func (m *Machine) memberValue(dst, src []byte, i int, f *frame) ([]byte, int, error) {
	k := tokenizer.ValueKind(src[i])
	if k == tokenizer.None {
		m.op = opValue // Peek reports the error, as on the slow path
		return dst, i, nil
	}
	if f.entry == compile.NoEntry {
		if k.IsScalar() {
			if j, ok := m.sc.Scalar(src, i, m.cfg.Trusted); ok {
				return dst, j, nil
			}
		}
		// Skipped here rather than round the ops: opSkip goes on with
		// what the window does not hold.
		var (
			done bool
			err  error
		)
		if m.cfg.Trusted {
			i, done, err = m.sc.SkipTrusted(src, i)
		} else {
			i, done, err = m.sc.SkipValue(src, i)
		}
		if !done {
			m.op = opSkip
		}
		return dst, i, err
	}
	return m.value(dst, src, i, k, m.prog.Entry(f.entry).Node)
}

// value decides about the value of kind k that starts at src[i]: a member's
// value (the innermost frame is an object, the key is in m.key) or an array
// element, to which node applies (compile.Keep: keep it whole). It writes
// what goes before the value and the opening bracket of a masked container,
// and sets what comes next.
func (m *Machine) value(dst, src []byte, i int, k tokenizer.Kind, node int32) ([]byte, int, error) {
	container := k == tokenizer.ObjectStart || k == tokenizer.ArrayStart
	if !container && node != compile.Keep && m.cfg.DropMismatched {
		m.op = opSkip // SPEC A6: a scalar where the mask expects an object
		return dst, i, nil
	}
	f := &m.frames[len(m.frames)-1]
	dst = m.before(dst, f)
	switch {
	case !container: // kept, or SPEC A4: a scalar where the mask expects an object
		if j, ok := m.sc.Scalar(src, i, m.cfg.Trusted); ok {
			m.op = opToken
			return append(dst, src[i:j]...), j, nil
		}
		m.op = opCopy // AppendValue or AppendTrusted go on across windows
		return dst, i, nil
	case node == compile.Keep:
		// Where AVX-512 runs (WideCopy), a kept container is checked by sc
		// and copied by cp (opCheckCopy: the copy from L2, without the
		// brackets' count), in memory and window by window alike. Round 11
		// read it once in windows (opCopy, 2 to 7 % faster then); since the
		// skip kernel predicts whitespace runs (round 13), opCheckCopy in
		// windows runs twitter-keep-most 11.6 % faster, and citm-keep-most
		// 5.7 % and canada-keep-all 3.0 % slower, and streams every keep
		// row at 0.96x its in-memory speed or more (Intel Xeon;
		// bench/REPORT.md, round 13).
		m.op = opCopy
		if !m.cfg.Trusted && checkCopy {
			m.op = opCheckCopy
		}
		return dst, i, nil
	}
	if m.wild && !f.array && m.prog.Entry(f.entry).Wildcard {
		m.names.add(len(m.frames)-1, m.key, m.keyCap())
	}
	m.op = opToken
	i, err := m.sc.Open(src, i)
	if err != nil {
		return dst, i, err
	}
	m.push(node, k == tokenizer.ArrayStart)
	return append(dst, byte(k)), i, nil
}

// open writes what goes before the value of f whose '{' or '[', c, the
// Scanner has consumed (OpenFast), and c, and pushes its frame: value's case
// of a container that node masks, where the program has no wildcard.
func (m *Machine) open(dst []byte, f *frame, c byte, node int32) []byte {
	dst = m.before(dst, f)
	m.push(node, c == '[')
	return append(dst, c)
}

// before writes what goes before a value of f that the mask keeps or recurses
// into: the ',' after the last one written and, in an object, the key and
// ':'. It inlines into value and open.
func (m *Machine) before(dst []byte, f *frame) []byte {
	if f.wrote {
		dst = append(dst, ',')
	}
	f.wrote = true
	if !f.array {
		dst = append(append(dst, m.key...), ':')
	}
	return dst
}

// push opens a frame for a container to which node applies. It writes the
// frame's fields in place: a frame literal appended is built on the stack a
// field at a time, then copied with 16-byte loads that cannot be forwarded
// from those stores.
func (m *Machine) push(node int32, array bool) {
	n := len(m.frames)
	if n == cap(m.frames) {
		m.frames = append(m.frames, frame{})
	}
	m.frames = m.frames[:n+1]
	f := &m.frames[n]
	f.node, f.array, f.wrote, f.member = node, array, false, false
	f.entry, f.index, f.lens = compile.NoEntry, -1, m.prog.KeyLengths(node)
}

// pop closes the innermost frame and reports whether it was the root.
func (m *Machine) pop() bool {
	m.frames = m.frames[:len(m.frames)-1]
	if len(m.frames) > 0 {
		if m.wild {
			m.wildKeyBack()
		}
		return false
	}
	m.phase = phTrail
	return true
}

// wildKeyBack makes the key of the member being read, for errors, the key of
// the member whose value just closed, where a wildcard matched it: m.key
// still holds a key of the closed object's, or of no member at all where
// Members read that object's last members without spans (SPEC V3: the
// pointer names the same member whatever the windows and batches).
func (m *Machine) wildKeyBack() {
	f := &m.frames[len(m.frames)-1]
	if f.array || !f.member || f.entry == compile.NoEntry || !m.prog.Entry(f.entry).Wildcard {
		return
	}
	key, ok := m.names.get(len(m.frames) - 1)
	m.key, m.keyInSrc, m.keyOver, m.keyOut = key, false, !ok, false
}

// lookup returns the entry of the mask member that key (raw, with quotes)
// names in node.
func (m *Machine) lookup(node int32, key []byte, escaped bool) int32 {
	body := key[1 : len(key)-1]
	if !escaped {
		return m.prog.Lookup(node, body)
	}
	if len(body) > 6*m.prog.MaxKeyLen() {
		return m.prog.Other(node) // too long for an entry of its own
	}
	m.scratch = tokenizer.AppendUnescaped(m.scratch[:0], body)
	return m.prog.Lookup(node, m.scratch)
}

// addKeyPiece adds a piece of a key that crosses windows to keyBuf, up to
// keyCap. A longer key has no entry of its own; without a wildcard it is
// dropped, and with one it is kept: written out as it comes, so that memory
// does not grow with it (SPEC S2), unless its value decides (SPEC A6: a
// scalar under the wildcard's nested mask is dropped), and then held whole.
func (m *Machine) addKeyPiece(dst, p []byte) []byte {
	if m.keyOver {
		if m.keyOut {
			dst = append(dst, p...)
		}
		return dst
	}
	if len(m.keyBuf)+len(p) <= m.keyCap() {
		m.keyBuf = append(m.keyBuf, p...)
		m.key = m.keyBuf
		return dst
	}
	f := &m.frames[len(m.frames)-1]
	e := m.prog.Other(f.node)
	m.keyOut = false
	switch {
	case e != compile.NoEntry && m.cfg.DropMismatched && m.prog.Entry(e).Node != compile.Keep:
		m.keyBuf = append(m.keyBuf, p...)
		m.key = m.keyBuf
		return dst
	case e != compile.NoEntry:
		// value writes the comma, the key and the colon: here the comma and
		// the key, and f.wrote false and an empty key leave it the colon.
		if f.wrote {
			dst = append(dst, ',')
		}
		f.wrote, m.keyOut = false, true
		dst = append(append(dst, m.keyBuf...), p...)
	}
	m.keyOver = true
	m.keyBuf, m.key = m.keyBuf[:0], nil
	return dst
}
