package stream

import (
	"encoding/binary"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// lead classifies a body by its first byte that is not whitespace, after an
// optional UTF-8 byte-order mark (SPEC B1). When a window ends before that
// byte, what the window held (part of the byte-order mark, whitespace) is
// recorded so that it can be replayed verbatim if the body turns out not to
// be masked (SPEC B3). Whitespace is recorded as runs, each a uvarint of the
// run's length and the character's code: a megabyte of spaces takes 4 bytes,
// and no input takes more than a byte per byte. WithMaxInputSize bounds it.
type lead struct {
	bom  uint8  // bytes of the byte-order mark matched so far
	past bool   // the byte-order mark stage is over
	runs []byte // whitespace of earlier windows, encoded
	last int    // index in runs of the last run, -1 before the first

	bomRec uint8 // bytes of the byte-order mark in recorded windows

	// replay progress
	bomOut  uint8 // byte-order mark bytes replayed
	next    int   // index in runs of the next run to replay
	pending int64 // bytes of the current run still to write
	cur     byte  // the current run's character
}

const bom = "\xEF\xBB\xBF"

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
		if src[i] != bom[l.bom] {
			if l.bom > 0 {
				return i, false // a broken byte-order mark: the body is not JSON
			}
			l.past = true
			break
		}
		i++
		if l.bom++; l.bom == 3 {
			l.past = true
		}
	}
	for i < len(src) && tokenizer.IsSpace(src[i]) {
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
		if !tokenizer.IsSpace(c) {
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

// add appends a run of n characters of code, merged with the last run when
// it is of the same character.
func (l *lead) add(code uint8, n int64) {
	if l.last >= 0 {
		v, _ := binary.Uvarint(l.runs[l.last:])
		if uint8(v&3) == code {
			n += int64(v >> 2)
			l.runs = l.runs[:l.last]
		}
	}
	l.last = len(l.runs)
	l.runs = binary.AppendUvarint(l.runs, uint64(n)<<2|uint64(code))
}

// replayChunk bounds the bytes one call of replay appends.
const replayChunk = 32 << 10

// replay appends recorded bytes to dst, at most replayChunk of them, and
// reports whether more remain: a long lead must not make the output grow.
func (l *lead) replay(dst []byte) ([]byte, bool) {
	for ; l.bomOut < l.bomRec; l.bomOut++ {
		dst = append(dst, bom[l.bomOut])
	}
	budget := int64(replayChunk)
	for {
		if l.pending == 0 {
			if l.next >= len(l.runs) {
				return dst, false
			}
			v, k := binary.Uvarint(l.runs[l.next:])
			l.next += k
			l.pending, l.cur = int64(v>>2), wsChar[v&3]
		}
		k := min(l.pending, budget)
		for range k {
			dst = append(dst, l.cur)
		}
		l.pending -= k
		if budget -= k; budget == 0 && (l.pending > 0 || l.next < len(l.runs)) {
			return dst, true
		}
	}
}
