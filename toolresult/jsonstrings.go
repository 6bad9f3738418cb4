package toolresult

import (
	"io"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// WithJSONStrings says whether a string inside the data (a member's or an
// element's value, at any depth) that holds JSON text, an object or array
// of at least 1 KiB, is read as that JSON (SPEC C11, P3): the schema
// describes it, the preview shows it, the variable holds it, and
// read_variable reaches into it, as if the tool had returned it as JSON. It
// happens after the mask, which applies to the data as the tool wrote it.
// A string over maxJSONString bytes stays a string, with a hint. Default:
// off (the strings are hinted).
func WithJSONStrings(on bool) Option {
	return func(p *Processor) error { p.jsonStrings = on; return nil }
}

// maxJSONString is the longest string that WithJSONStrings reads as JSON:
// such a string is held whole until it ends, to be validated.
const maxJSONString = 16 << 20

// maxJSONStringDepth bounds how deep strings in strings are read.
const maxJSONStringDepth = 8

// jsonStrings is a writer that passes JSON through, window by window, with
// the strings that hold JSON text (WithJSONStrings) replaced by that text.
// What is not valid JSON passes as it is, from its first error on.
//
// A string in a container is held from its first byte while it may hold
// JSON: until its text shows that it does not start like an object or an
// array (then what is held goes out, and the rest of it passes), or until
// it ends (then it goes out as its text when that is JSON of at least
// hintMin bytes, else as it was), or past maxJSONString (it goes out as it
// was).
type jsonStrings struct {
	w     io.Writer
	sc    tokenizer.Scanner
	depth int // containers open
	level int // strings in strings above this one
	// The string being read: held (its bytes so far, as written), or
	// passing (it cannot hold JSON).
	held    []byte
	holding bool
	passing bool
	broken  bool // not valid JSON: all passes
	err     error
	n       int64  // bytes written
	pend    []byte // what out gathered in this window
	// undo: the strings read as JSON, as they were, for data that turns
	// out not to be JSON (restore); at most maxJSONString bytes of them.
	undo     []undo
	undoSize int
}

// undo is a string read as JSON: its text is out[at:at+n].
type undo struct {
	at   int64
	n    int
	orig []byte
}

func newJSONStrings(w io.Writer, level int) *jsonStrings {
	j := &jsonStrings{w: w, level: level}
	j.sc.Reset(0)
	return j
}

// out passes b on, at the end of the window (send): one write per window,
// not one per string.
func (j *jsonStrings) out(b []byte) {
	j.pend = append(j.pend, b...)
	j.n += int64(len(b))
}

// send writes what out gathered.
func (j *jsonStrings) send() {
	if j.err == nil && len(j.pend) > 0 {
		_, j.err = j.w.Write(j.pend)
	}
	j.pend = j.pend[:0]
}

// outTo is the writer of a string's JSON text read by an inner jsonStrings:
// the outer one's out.
type outTo struct{ j *jsonStrings }

func (o outTo) Write(p []byte) (int, error) {
	o.j.out(p)
	return len(p), nil
}

// restore returns data (what j wrote) with the strings it read as JSON put
// back as they were.
func (j *jsonStrings) restore(data []byte) []byte {
	if len(j.undo) == 0 {
		return data
	}
	var b []byte
	at := int64(0)
	for _, u := range j.undo {
		if u.at+int64(u.n) > int64(len(data)) {
			break
		}
		b = append(append(b, data[at:u.at]...), u.orig...)
		at = u.at + int64(u.n)
	}
	return append(b, data[at:]...)
}

func (j *jsonStrings) Write(p []byte) (int, error) {
	if j.err != nil {
		return 0, j.err
	}
	defer j.send()
	if j.broken {
		j.out(p)
		return len(p), j.err
	}
	from := 0 // what of p is not yet out
	for i := 0; ; {
		t, k, err := j.sc.Next(p, i)
		if err != nil {
			j.broken = true
			j.out(j.held)
			j.held, j.holding, j.passing = nil, false, false
			j.out(p[from:])
			return len(p), j.err
		}
		if t.Kind == tokenizer.None {
			break
		}
		switch t.Kind {
		case tokenizer.ObjectStart, tokenizer.ArrayStart:
			j.depth++
		case tokenizer.ObjectEnd, tokenizer.ArrayEnd:
			j.depth--
		case tokenizer.String:
			if t.Key || j.depth == 0 || j.level >= maxJSONStringDepth {
				break
			}
			if !j.holding && !j.passing { // its first piece
				j.out(p[from:t.Start])
				from = t.Start
				j.holding = true
			}
			if j.holding {
				j.held = append(j.held, p[t.Start:t.End]...)
				from = t.End
				j.decide(t.More)
			}
			if !t.More {
				j.passing = false
			}
		}
		i = k
		if t.More {
			break
		}
	}
	if !j.holding {
		j.out(p[from:])
	}
	return len(p), j.err
}

// decide looks at the string held so far: it goes out as it is once it
// cannot hold JSON, or as its JSON text once it ended holding some.
func (j *jsonStrings) decide(more bool) {
	if more {
		c := firstChar(j.held, pieceSoFar)
		if c != 0 && c != '{' && c != '[' || len(j.held) > maxJSONString || c == 0 && len(j.held) > hintMin {
			j.out(j.held)
			j.held, j.holding, j.passing = j.held[:0], false, true
		}
		return
	}
	held := j.held
	j.held, j.holding = held[:0], false
	if c := firstChar(held, wholeString); c != '{' && c != '[' || len(held) < hintMin || j.undoSize+len(held) > maxJSONString {
		j.out(held)
		return
	}
	text := tokenizer.AppendUnescaped(nil, held[1:len(held)-1])
	if len(text) >= hintMin && validJSON(text) {
		j.held = nil // kept by undo
		// Strings in it are read too.
		at := j.n
		in := newJSONStrings(outTo{j}, j.level+1)
		in.Write(jsonwire.Trim(text))
		in.Close()
		j.undo = append(j.undo, undo{at: at, n: int(j.n - at), orig: held})
		j.undoSize += len(held)
		return
	}
	j.out(held)
}

// flush writes what is held at the end of the input (a string cut short:
// not valid JSON, which the dataWriter then reports).
func (j *jsonStrings) flush() {
	j.out(j.held)
	j.held = nil
}

// Close ends the input.
func (j *jsonStrings) Close() error {
	j.flush()
	j.send()
	return j.err
}

// stringEnd says whether a string as written is whole, its closing quote
// included, or the pieces of it so far.
type stringEnd bool

const (
	wholeString stringEnd = true
	pieceSoFar  stringEnd = false
)

// firstChar returns the first character of a JSON string's content (raw, as
// written, with its opening quote, and its closing quote when whole) that
// is not whitespace or a byte-order mark, escapes decoded
// (jsonwire.StringLead): 0 when there is none yet, jsonwire.NonASCII when
// it is not ASCII.
func firstChar(raw []byte, end stringEnd) byte {
	body := raw[1:]
	if end == wholeString {
		body = body[:len(body)-1]
	}
	return jsonwire.StringLead(body)
}

// validJSON reports whether b is one valid JSON value.
func validJSON(b []byte) bool {
	var sc tokenizer.Scanner
	sc.Reset(0)
	k, i, err := sc.Peek(b, 0)
	if err != nil || k == tokenizer.None {
		return false
	}
	e, done, err := sc.SkipValue(b, i)
	if err != nil || !done {
		return false
	}
	k, _, err = sc.Peek(b, e)
	return err == nil && k == tokenizer.None && sc.End(len(b)) == nil
}
