package stream

import (
	"bytes"
	"strconv"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// Error is a rejected input: where, in which member, and what.
type Error struct {
	Offset  int64  // offset in the input of the byte at fault
	Pointer string // JSON Pointer of the enclosing member, as far as the machine knows it
	Line    int64  // NDJSON: the line, from 1; otherwise 0
	Msg     string // what went wrong
	Err     error  // a sentinel (tokenizer.ErrMaxDepth, ErrInputTooLarge, ...), or nil
}

// Error returns "[line L: ]<what> at offset N[ (<pointer>)]", on one line:
// the pointer is quoted by jsonwire.QuotePointer, without the quotes that the
// parentheses make needless (SPEC V3). It has no "jsonmask: " prefix: the
// front door adds it.
func (e *Error) Error() string {
	var s string
	if e.Line > 0 {
		s = "line " + strconv.FormatInt(e.Line, 10) + ": "
	}
	s += e.Msg + " at offset " + strconv.FormatInt(e.Offset, 10)
	if e.Pointer != "" {
		q := jsonwire.QuotePointer(e.Pointer)
		s += " (" + q[1:len(q)-1] + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// fail turns a tokenizer error into an *Error that names the member being
// read, and makes it sticky; any other error sticks as it is.
// A nil err passes through.
func (m *Machine) fail(err error) error {
	if err == nil {
		return nil
	}
	te, ok := err.(*tokenizer.Error)
	if !ok {
		m.err = err
		return err
	}
	e := &Error{Offset: te.Offset, Msg: te.Msg, Err: te.Err, Pointer: m.pointer()}
	if m.cfg.NDJSON {
		e.Line = m.line
	}
	m.err = e
	return e
}

// pointer builds, only when an error happens, the JSON Pointer of the member
// or element being read at the masked levels (SPEC V3). A dropped member is
// named when its raw key, between the quotes, is at most maxNamedKey bytes.
// It depends only on the grammar state, never on where windows end, so that
// every way of feeding the input names the same member.
func (m *Machine) pointer() string {
	var b []byte
	for n, f := range m.frames {
		last := n == len(m.frames)-1
		switch {
		case f.array:
			if f.index >= 0 {
				b = strconv.AppendInt(append(b, '/'), int64(f.index), 10)
			}
		case !f.member, last && (m.op == opToken || m.op == opKey) && m.sc.AtKey():
			// No member yet, or the next member's key is being read.
		case f.entry != compile.NoEntry && !m.prog.Entry(f.entry).Wildcard:
			b = jsonwire.AppendPointerToken(append(b, '/'), m.prog.Entry(f.entry).Key)
		case !last && f.entry != compile.NoEntry:
			// A wildcard's member that opened the next frame: named by
			// the key that value kept, unless it was too long to keep.
			key, ok := m.names.get(n)
			if !ok {
				return string(b) // the enclosing member, as far as it is known
			}
			b = appendKeyRef(b, key)
		case last && len(m.key) >= 2 && len(m.key)-2 <= maxNamedKey && !m.keyOver && m.op != opKey:
			// A raw key over maxNamedKey bytes is not named (SPEC V3).
			b = appendKeyRef(b, m.key)
		}
	}
	return string(b)
}

// appendKeyRef appends "/" and raw, a key as written (quotes included), as a
// JSON Pointer reference token. Only a key with an escape is copied, to be
// unescaped.
func appendKeyRef(b, raw []byte) []byte {
	key := raw[1 : len(raw)-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		key = tokenizer.AppendUnescaped(nil, key)
	}
	return jsonwire.AppendPointerToken(append(b, '/'), key)
}

// wildNames keeps, for errors, the keys of the members that a wildcard
// matched and whose values are open containers: the Program's entry says
// "*", and the pointer must say the key (SPEC V3). One name per frame at
// most, the deepest last; a frame's name is stale once a deeper frame's is
// added after it, and add drops those.
type wildNames struct {
	at   []wildName
	keys []byte // the keys, raw, one after the other
}

type wildName struct {
	frame      int   // the frame whose member it names
	start, end int32 // in keys; start -1 for a key too long to keep
}

// add names the current member of frame by key (raw, quotes included),
// kept up to keyCap bytes.
func (w *wildNames) add(frame int, key []byte, keyCap int) {
	for len(w.at) > 0 && w.at[len(w.at)-1].frame >= frame {
		top := w.at[len(w.at)-1]
		if top.start >= 0 {
			w.keys = w.keys[:top.start]
		}
		w.at = w.at[:len(w.at)-1]
	}
	n := wildName{frame: frame, start: -1}
	if len(key) >= 2 && len(key) <= keyCap {
		n.start = int32(len(w.keys))
		w.keys = append(w.keys, key...)
		n.end = int32(len(w.keys))
	}
	w.at = append(w.at, n)
}

// get returns the name of frame's current member, if add kept it.
func (w *wildNames) get(frame int) ([]byte, bool) {
	for k := len(w.at) - 1; k >= 0; k-- {
		n := w.at[k]
		if n.frame != frame {
			continue
		}
		if n.start < 0 {
			return nil, false
		}
		return w.keys[n.start:n.end], true
	}
	return nil, false
}

func (w *wildNames) reset() { w.at, w.keys = w.at[:0], w.keys[:0] }
