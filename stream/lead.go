package stream

import "github.com/jsonmask/jsonmask/tokenizer"

// lead classifies a body by its first byte that is not whitespace, after an
// optional UTF-8 byte-order mark (SPEC B1). When a window ends before that
// byte, the window's bytes are recorded, run-length encoded, so that they can
// be replayed verbatim if the body turns out not to be masked (SPEC B3): the
// memory this takes grows with the number of runs (a megabyte of spaces is one
// run), not with the number of bytes.
type lead struct {
	bom  uint8 // bytes of the byte-order mark matched so far
	past bool  // the byte-order mark stage is over
	runs []run // bytes of earlier windows, to replay
	next int   // runs[:next] are replayed
}

type run struct {
	c byte
	n int64
}

const bom = "\xEF\xBB\xBF"

func (l *lead) reset() { *l = lead{runs: l.runs[:0]} }

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

// record keeps src, all of it lead, for a replay.
func (l *lead) record(src []byte) {
	for _, c := range src {
		if n := len(l.runs); n > 0 && l.runs[n-1].c == c {
			l.runs[n-1].n++
			continue
		}
		l.runs = append(l.runs, run{c, 1})
	}
}

// replayChunk bounds the bytes one call of replay appends.
const replayChunk = 32 << 10

// replay appends recorded bytes to dst, at most replayChunk of them, and
// reports whether more remain: a long lead must not make the output grow.
func (l *lead) replay(dst []byte) ([]byte, bool) {
	budget := int64(replayChunk)
	for ; l.next < len(l.runs); l.next++ {
		r := &l.runs[l.next]
		k := min(r.n, budget)
		for range k {
			dst = append(dst, r.c)
		}
		r.n -= k
		if budget -= k; r.n > 0 {
			return dst, true
		}
	}
	return dst, false
}
