package toolresult

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// Selection names the part of a stored variable that ReadVariable reads:
// the arguments of the read_variable tool (SPEC P5).
type Selection struct {
	// Name is the variable's name.
	Name string `json:"name"`
	// Pointer is a JSON Pointer (RFC 6901) to a value in the variable; ""
	// is the whole.
	Pointer string `json:"pointer,omitempty"`
	// Offset and Limit cut the array at Pointer: its elements from index
	// Offset on, at most Limit of them (0: all the rest). An offset past the
	// end gives an empty array. Either one set for a value that is not an
	// array is an error.
	Offset int `json:"offset,omitempty"`
	Limit  int `json:"limit,omitempty"`
}

// ReadVariable reads the part of a stored variable that sel names, once,
// streaming, and returns it as Process returns a tool's response of that
// data (SPEC P5): within the budget as it is, over it as a new variable
// (named after its SHA-256, C6) with its schema and a preview, a scalar as
// plaintext. The selection is compact: the whitespace between tokens is
// dropped, strings and numbers are as stored.
//
// The mask and the name of p do not apply: the data was masked when it was
// stored, and the variable a large selection becomes is named after its
// bytes. Nor is anything taken out as instructions (C2): a member
// display_instructions_for_model under the pointer is data.
//
// Errors: ErrNoVariable (wrapped, with the name) for a name that is not
// stored; a bad pointer, offset or limit; a pointer that names no value,
// saying how far it got; the store's, or ctx's.
func (p *Processor) ReadVariable(ctx context.Context, sel Selection) (*Result, error) {
	path, err := parsePointer(sel.Pointer)
	if err != nil {
		return nil, err
	}
	if sel.Offset < 0 || sel.Limit < 0 {
		return nil, errs.New("offset and limit must be at least 0, got " + strconv.Itoa(sel.Offset) + " and " + strconv.Itoa(sel.Limit))
	}
	st, err := p.getStore()
	if err != nil {
		return nil, err
	}
	rc, _, err := openVariable(ctx, st, sel.Name)
	if errors.Is(err, ErrNoVariable) {
		return nil, &noVariableError{name: sel.Name}
	}
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	q := *p
	q.mask, q.name = nil, ""

	// The selector writes into a pipe that Process reads: neither holds
	// the selection whole.
	pr, pw := io.Pipe()
	sl := &selector{name: sel.Name, path: path, ranged: sel.Offset > 0 || sel.Limit > 0, off: sel.Offset, lim: sel.Limit, w: pw}
	done := make(chan error, 1)
	go func() {
		// Through ctxReader, as Query loads: run's io.ReadFull would ask
		// a reader that gives nothing (0 bytes, no error) for ever.
		err := checkRest(ctx, rc, sl.run(ctx, &ctxReader{ctx: ctx, r: rc}, 32<<10))
		pw.CloseWithError(err) // nil: io.EOF, the selection is whole
		done <- err
	}()
	res, perr := q.process(ctx, pr, instructionsAsData)
	pr.CloseWithError(errStopped)
	// The selector's error comes first (no such value, a bad document),
	// unless it only says that Process stopped reading.
	serr := <-done
	switch {
	case serr != nil && (perr == nil || serr != errStopped):
		return nil, serr
	case perr != nil:
		return nil, perr
	}
	return res, nil
}

// errStopped tells the selector that Process stopped reading.
var errStopped = errs.New("read_variable: the reader stopped")

// noVariableError is ErrNoVariable for one name.
type noVariableError struct{ name string }

func (e *noVariableError) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: " (errs.Detail).
func (e *noVariableError) Detail() string { return "no such variable: " + strconv.Quote(e.name) }
func (e *noVariableError) Unwrap() error  { return ErrNoVariable }

// parsePointer splits a JSON Pointer (RFC 6901) into its reference tokens,
// "~1" and "~0" decoded.
func parsePointer(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if ptr[0] != '/' {
		return nil, errs.New("bad JSON Pointer " + strconv.Quote(ptr) + ": it must be empty or start with '/'")
	}
	segs := strings.Split(ptr[1:], "/")
	for i, seg := range segs {
		tok, ok := jsonwire.UnescapePointerToken(seg)
		if !ok {
			return nil, errs.New("bad JSON Pointer " + strconv.Quote(ptr) + ": '~' must be followed by 0 or 1")
		}
		segs[i] = tok
	}
	return segs, nil
}

// pointerTo is the JSON Pointer of the first n segments of path, for
// messages; the root is "(root)".
func pointerTo(path []string, n int) string {
	if n == 0 {
		return "(root)"
	}
	var b strings.Builder
	for _, s := range path[:n] {
		b.WriteByte('/')
		b.WriteString(jsonwire.EscapePointerToken(s))
	}
	return b.String()
}

// arrayIndex returns the index a reference token names in an array (RFC
// 6901: digits, no leading zero), or -1.
func arrayIndex(s string) int {
	if s == "" || len(s) > 1 && s[0] == '0' || len(s) > 18 {
		return -1
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Selector states.
const (
	selStart     = iota // before the root value
	selFind             // in the container at path[:depth], before a member or element
	selKey              // inside a member's key
	selColon            // after a key, before its value
	selSkip             // inside a value off the path
	selCopy             // inside the selected value, copying it
	selRange            // in the selected array, before an element
	selRangeSkip        // inside an element before the range
	selRangeCopy        // inside an element in the range, copying it
	selDone             // the selection is whole
)

// selector writes the value that a JSON Pointer names in a document, as the
// document streams by a window at a time: compact, as Scanner.AppendValue copies
// it; for an array with a range, only the elements in range. It validates
// what it reads, and reads no further than the selection's end.
//
// Its states, and what each expects next:
//
//	selStart   the root value: selected (no path), or a container to search
//	selFind    a key (selKey), an element (on the path: descend or select;
//	           off it: selSkip), or the container's end (no such value)
//	selKey     the rest of the key; then selColon
//	selColon   the ':' and the value: as for an element
//	selSkip    the rest of the value; then selFind
//	selCopy    the rest of the selected value; then selDone
//	selRange   an element (before the range: selRangeSkip; in it:
//	           selRangeCopy; past it: selDone) or the array's end (selDone)
type selector struct {
	name   string
	path   []string
	ranged bool
	off    int
	lim    int
	w      io.Writer

	sc      tokenizer.Scanner
	state   int
	depth   int            // segments of path matched: the open container is the value at path[:depth]
	ckind   tokenizer.Kind // the kind of that container
	index   int            // its members or elements begun; in selRange, elements begun
	key     []byte         // the key being read, raw, up to a bound
	keyLong bool           // the key is too long to match
	match   bool           // the value being reached is on the path
	out     []byte
}

// run reads the document from r, size bytes at a time, and writes the
// selection to w.
func (s *selector) run(ctx context.Context, r io.Reader, size int) error {
	s.sc.Reset(0)
	// A byte-order mark may start the data as it was stored.
	var head [len(jsonwire.BOM)]byte
	n, err := io.ReadFull(r, head[:])
	var base int64
	if n == len(head) && string(head[:]) == jsonwire.BOM {
		base = int64(len(head))
	} else if n > 0 {
		r = io.MultiReader(bytes.NewReader(head[:n]), r)
	}
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	buf := make([]byte, size)
	last := 0 // the length of the last window
	for s.state != selDone {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			s.sc.SetBase(base)
			if err := s.window(buf[:n]); err != nil {
				return err
			}
			base += int64(n)
			last = n
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			return rerr
		}
	}
	if s.state != selDone {
		// The document ended first: End says where, or ends a number
		// at the root, which is then the whole selection.
		if err := s.sc.End(last); err != nil {
			return err
		}
		if s.state != selCopy {
			return errs.New("" + s.name + " ended before the selection did") // unreachable: End fails
		}
	}
	return nil
}

// window reads one window of the document.
func (s *selector) window(src []byte) error {
	i := 0
	for i < len(src) && s.state != selDone {
		var err error
		switch s.state {
		case selStart, selFind, selColon, selRange:
			var k tokenizer.Kind
			k, i, err = s.sc.Peek(src, i)
			if err != nil || k == tokenizer.None {
				break
			}
			i, err = s.at(src, k, i)
		case selKey:
			var t tokenizer.Token
			t, i, err = s.sc.Next(src, i)
			if err != nil {
				break
			}
			s.readKey(src[t.Start:t.End], t.More)
		case selSkip, selRangeSkip:
			var done bool
			i, done, err = s.sc.SkipValue(src, i)
			if err == nil && done {
				if s.state == selSkip {
					s.state = selFind
				} else {
					s.state = selRange
				}
			}
		case selCopy, selRangeCopy:
			var done bool
			s.out, i, done, err = s.sc.AppendValue(s.out[:0], src, i)
			if err == nil {
				err = s.write(s.out)
			}
			if err == nil && done {
				if s.state == selCopy {
					s.state = selDone
				} else {
					s.state = selRange
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// at goes on from the token of kind k at src[i], which Peek found.
func (s *selector) at(src []byte, k tokenizer.Kind, i int) (int, error) {
	switch s.state {
	case selStart:
		if len(s.path) == 0 {
			return s.selected(src, k, i)
		}
		if k != tokenizer.ObjectStart && k != tokenizer.ArrayStart {
			return i, s.notFound("the root is " + kindName(k))
		}
		return s.descend(src, k, i)
	case selFind:
		switch {
		case k == tokenizer.ObjectEnd:
			return i, s.notFound("the object at " + pointerTo(s.path, s.depth) + " has no member " + strconv.Quote(s.path[s.depth]))
		case k == tokenizer.ArrayEnd:
			return i, s.notFound("the array at " + pointerTo(s.path, s.depth) + " has " + strconv.Itoa(s.index) + " items")
		case s.ckind == tokenizer.ObjectStart: // a key
			s.state, s.key, s.keyLong = selKey, s.key[:0], false
			return i, nil
		}
		s.match = s.index == arrayIndex(s.path[s.depth])
		s.index++
		return s.value(src, k, i)
	case selColon:
		return s.value(src, k, i)
	}
	// selRange
	switch {
	case k == tokenizer.ArrayEnd:
		return i, s.end()
	case s.index < s.off:
		s.index++
		s.state = selRangeSkip
		return i, nil
	case s.lim > 0 && s.index >= s.off+s.lim:
		return i, s.end()
	}
	if s.index > s.off {
		if err := s.write([]byte{','}); err != nil {
			return i, err
		}
	}
	s.index++
	s.state = selRangeCopy
	return i, nil
}

// value goes on from a member's or element's value of kind k at src[i].
func (s *selector) value(src []byte, k tokenizer.Kind, i int) (int, error) {
	switch {
	case !s.match:
		s.state = selSkip
		return i, nil
	case s.depth+1 == len(s.path):
		return s.selected(src, k, i)
	case k == tokenizer.ObjectStart || k == tokenizer.ArrayStart:
		s.depth++
		return s.descend(src, k, i)
	}
	return i, s.notFound("the value at " + pointerTo(s.path, s.depth+1) + " is " + kindName(k))
}

// descend opens the container at src[i] to search it.
func (s *selector) descend(src []byte, k tokenizer.Kind, i int) (int, error) {
	_, j, err := s.sc.Next(src, i)
	s.state, s.ckind, s.index = selFind, k, 0
	return j, err
}

// selected starts the selection at the value of kind k at src[i].
func (s *selector) selected(src []byte, k tokenizer.Kind, i int) (int, error) {
	if !s.ranged {
		s.state = selCopy
		return i, nil
	}
	if k != tokenizer.ArrayStart {
		return i, errs.New("offset and limit apply to arrays; the value at " + pointerTo(s.path, len(s.path)) + " in " + s.name + " is " + kindName(k))
	}
	_, j, err := s.sc.Next(src, i)
	if err == nil {
		err = s.write([]byte{'['})
	}
	s.state, s.index = selRange, 0
	return j, err
}

// readKey adds a piece of the key being read; at its end it decides
// whether the member is on the path.
func (s *selector) readKey(piece []byte, more bool) {
	seg := s.path[s.depth]
	if !s.keyLong {
		// An escape is at most 6 bytes per byte of the segment.
		if len(s.key)+len(piece) > 6*len(seg)+2 {
			s.keyLong = true
		} else {
			s.key = append(s.key, piece...)
		}
	}
	if more {
		return
	}
	s.match = false
	if !s.keyLong {
		raw := s.key[1 : len(s.key)-1]
		s.match = string(raw) == seg || string(tokenizer.AppendUnescaped(nil, raw)) == seg
	}
	s.index++
	s.state = selColon
}

func (s *selector) end() error {
	s.state = selDone
	return s.write([]byte{']'})
}

func (s *selector) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	_, err := s.w.Write(p)
	return err
}

func (s *selector) notFound(why string) error {
	return errs.New("no value at " + pointerTo(s.path, len(s.path)) + " in " + s.name + ": " + why)
}

// kindName names a value's kind for messages.
func kindName(k tokenizer.Kind) string {
	switch k {
	case tokenizer.ObjectStart:
		return "an object"
	case tokenizer.ArrayStart:
		return "an array"
	case tokenizer.String:
		return "a string"
	case tokenizer.Number:
		return "a number"
	case tokenizer.True, tokenizer.False:
		return "a boolean"
	}
	return "null"
}
