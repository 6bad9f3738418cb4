package stream

import (
	"encoding/binary"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// lead classifies a body by its first byte that is not whitespace, after an
// optional UTF-8 byte-order mark (SPEC B1). When a window ends before that
// byte, what the window held (part of the byte-order mark, whitespace) is
// recorded so that it can be replayed verbatim if the body turns out not to
// be masked (SPEC B3). WithMaxInputSize bounds it.
//
// SPEC B1 allows at most one byte of memory per byte of lead, whatever its
// pattern. Whitespace is recorded as items:
//
//	uvarint(n<<2 | code)  a run of n (from 1) of the character code
//	0, k, codes...        k (1 to maxLit) characters as codes, 2 bits each,
//	                      4 to the byte, the first in the low bits
//
// A megabyte of spaces takes 4 bytes, even fed a byte at a time: a run that
// reaches minRun at the end of the codes becomes a run item. Indented lines
// take 3 bytes a line. No pattern takes more than half a byte per byte and 3
// bytes (a run of 8, then two other characters, over and over; most take a
// quarter): with the slack of a growing slice, at most one (TestLeadMemory).
type lead struct {
	bom      uint8  // bytes of the byte-order mark matched so far
	past     bool   // the byte-order mark stage is over
	runs     []byte // whitespace of earlier windows, encoded as items
	last     int    // index in runs of the last item, -1 before the first
	tail     int64  // the characters at the end of the last item that are tailCode, when it holds codes
	tailCode uint8

	bomRec uint8 // bytes of the byte-order mark in recorded windows

	// replay progress
	bomOut uint8 // byte-order mark bytes replayed
	next   int   // index in runs of the item being replayed
	done   int64 // characters of that item already replayed
}

// Item sizes: a run of fewer than minRun characters is kept as codes (unless
// it follows a longer run), in items of at most maxLit characters.
const (
	minRun = 8
	maxLit = 255
)

// wsCode and wsChar map the four whitespace characters to 2-bit codes.
var (
	wsCode = [256]uint8{' ': 0, '\t': 1, '\n': 2, '\r': 3}
	wsChar = [4]byte{' ', '\t', '\n', '\r'}
)

func (l *lead) reset() { *l = lead{runs: l.runs[:0], last: -1} }

// scan consumes the byte-order mark and whitespace at the start of src and
// returns the index of the first other byte, and whether it starts a body to
// mask: '{', or '[' when arrays are masked too (SPEC B4). It returns
// len(src) when the window holds nothing else.
func (l *lead) scan(src []byte, arrays bool) (int, bool) {
	i := 0
	for !l.past && i < len(src) {
		if src[i] != jsonwire.BOM[l.bom] {
			if l.bom > 0 {
				return i, false // a broken byte-order mark: the body is not JSON
			}
			l.past = true
			break
		}
		i++
		if l.bom++; l.bom == uint8(len(jsonwire.BOM)) {
			l.past = true
		}
	}
	for i < len(src) && jsonwire.IsSpace(src[i]) {
		i++
	}
	if i == len(src) {
		return i, false
	}
	c := src[i]
	return i, c == '{' || c == '[' && arrays
}

// record keeps the whitespace of src, a window that held nothing but lead
// (its byte-order mark bytes are counted by scan).
func (l *lead) record(src []byte) {
	l.bomRec = l.bom
	for i := 0; i < len(src); {
		c := src[i]
		if !jsonwire.IsSpace(c) {
			i++ // a byte of the byte-order mark
			continue
		}
		j := i + 1
		for j < len(src) && src[j] == c {
			j++
		}
		l.add(wsCode[c], int64(j-i))
		i = j
	}
}

// add records a run of n characters of code: merged with the last item when
// that is a run of the same character, or with the codes at its end when
// together they make a run of minRun or more; else as codes.
func (l *lead) add(code uint8, n int64) {
	if l.last >= 0 && l.runs[l.last] != 0 {
		v, _ := binary.Uvarint(l.runs[l.last:])
		switch {
		case uint8(v&3) == code:
			l.runs = l.runs[:l.last]
			l.appendRun(code, n+int64(v>>2))
			return
		case v>>2 >= minRun:
			// A short run after a long one, as the "\n" of indented
			// lines: a run item takes a byte where codes take three.
			l.appendRun(code, n)
			return
		}
	} else if l.last >= 0 && l.tailCode == code && l.tail+n >= minRun {
		n += l.tail
		l.dropCodes(l.tail)
	}
	if n >= minRun {
		l.appendRun(code, n)
		return
	}
	for range n {
		l.addCode(code)
	}
}

// appendRun appends a run item.
func (l *lead) appendRun(code uint8, n int64) {
	l.last, l.tail = len(l.runs), 0
	l.runs = binary.AppendUvarint(l.runs, uint64(n)<<2|uint64(code))
}

// addCode appends one character's code, to the last item when it holds
// codes and has room, else to a new one.
func (l *lead) addCode(code uint8) {
	if l.last < 0 || l.runs[l.last] != 0 || l.runs[l.last+1] == maxLit {
		l.last, l.tail = len(l.runs), 0
		l.runs = append(l.runs, 0, 0)
	}
	k := l.runs[l.last+1]
	if k%4 == 0 {
		l.runs = append(l.runs, 0)
	}
	l.runs[len(l.runs)-1] |= code << (2 * (k % 4))
	l.runs[l.last+1]++
	if l.tailCode != code {
		l.tail, l.tailCode = 0, code
	}
	l.tail++
}

// dropCodes removes the last n codes of the last item, which holds codes,
// and the item when none remain.
func (l *lead) dropCodes(n int64) {
	k := l.runs[l.last+1] - uint8(n)
	l.tail = 0
	if k == 0 {
		l.runs = l.runs[:l.last]
		return
	}
	l.runs = l.runs[:l.last+2+int(k+3)/4]
	l.runs[l.last+1] = k
	if k%4 != 0 {
		l.runs[len(l.runs)-1] &= 1<<(2*(k%4)) - 1
	}
}

// replayChunk bounds the bytes one call of replay appends.
const replayChunk = 32 << 10

// replay appends recorded bytes to dst, at most replayChunk of them, and
// reports whether more remain: a long lead must not make the output grow.
func (l *lead) replay(dst []byte) ([]byte, bool) {
	for ; l.bomOut < l.bomRec; l.bomOut++ {
		dst = append(dst, jsonwire.BOM[l.bomOut])
	}
	budget := int64(replayChunk)
	for l.next < len(l.runs) {
		if budget == 0 {
			return dst, true
		}
		if l.runs[l.next] != 0 { // a run
			v, h := binary.Uvarint(l.runs[l.next:])
			n, c := int64(v>>2), wsChar[v&3]
			k := min(n-l.done, budget)
			for range k {
				dst = append(dst, c)
			}
			l.done, budget = l.done+k, budget-k
			if l.done < n {
				return dst, true
			}
			l.next += h
		} else { // codes
			n, codes := int64(l.runs[l.next+1]), l.runs[l.next+2:]
			for ; l.done < n && budget > 0; l.done, budget = l.done+1, budget-1 {
				dst = append(dst, wsChar[codes[l.done/4]>>(2*(l.done%4))&3])
			}
			if l.done < n {
				return dst, true
			}
			l.next += 2 + int(n+3)/4
		}
		l.done = 0
	}
	return dst, false
}
