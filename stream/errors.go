package stream

import (
	"errors"
	"strconv"

	"github.com/jsonmask/jsonmask/compile"
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
// the pointer is quoted by compile.QuotePointer, without the quotes that the
// parentheses make needless (SPEC V3). It has no "jsonmask: " prefix: the
// front door adds it.
func (e *Error) Error() string {
	var s string
	if e.Line > 0 {
		s = "line " + strconv.FormatInt(e.Line, 10) + ": "
	}
	s += e.Msg + " at offset " + strconv.FormatInt(e.Offset, 10)
	if e.Pointer != "" {
		q := compile.QuotePointer(e.Pointer)
		s += " (" + q[1:len(q)-1] + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// errDisagree is what a Machine returns, from then on, when the copy of a
// kept container stops elsewhere than its check: a bug, that no input should
// be able to trigger (the fuzz targets would report it), never output that
// could be wrong.
var errDisagree = errors.New("internal error: a kept value's copy and its check disagree")

// fail turns a tokenizer error into an *Error that names the member being
// read, and makes it sticky; any other error (errDisagree) sticks as it is.
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
		switch {
		case f.array:
			if f.index >= 0 {
				b = strconv.AppendInt(append(b, '/'), int64(f.index), 10)
			}
		case !f.member, n == len(m.frames)-1 && (m.op == opToken || m.op == opKey) && m.sc.AtKey():
			// No member yet, or the next member's key is being read.
		case f.entry != compile.NoEntry:
			b = append(append(b, '/'), compile.EscapePointer(m.prog.Entry(f.entry).Key)...)
		case n == len(m.frames)-1 && len(m.key) >= 2 && len(m.key)-2 <= maxNamedKey && !m.keyOver && m.op != opKey:
			key := tokenizer.AppendUnescaped(nil, m.key[1:len(m.key)-1])
			b = append(append(b, '/'), compile.EscapePointer(string(key))...)
		}
	}
	return string(b)
}
