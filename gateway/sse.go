package gateway

import (
	"errors"
	"slices"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// eventFramer masks an event stream (text/event-stream, SPEC G2), event by
// event, as it arrives. The data lines of an event form its payload, joined
// by "\n" as the SSE standard joins them; the payload goes through the mask
// (an object is masked, anything else passes, B1-B5, or is refused on a
// strict route unless it is one of the passthrough payloads) and out as
// one line "data: <masked>" where the event's first data line stood. (A
// payload that passes through unmasked and held several lines is written
// as that many data lines again.) The lines of the fields event, id and
// retry and comments are kept byte for byte, terminator included; one that
// comes between two data lines of an event is held until the event ends,
// up to maxHeld bytes, because the data line is still being written. Every
// other line is dropped: SSE clients ignore unknown fields, and a body
// that is not an event stream but is labelled as one must not pass. A
// blank line ends the event: it goes out at once.
//
// The machine, byte by byte:
//
//	bom       the stream's first bytes, for a UTF-8 byte-order mark, which
//	          the standard skips: kept, and not taken for a field name
//	lineStart a blank line (CR, LF) ends the event; else -> name
//	name      the field name, up to ':' or the line's end: "data" -> value
//	          (one space after the colon is skipped); "event", "id",
//	          "retry" or "" (a comment) -> other; anything else, or a name
//	          longer than maxName -> drop
//	other     bytes kept until the line's end
//	value     payload bytes into the masker until the line's end
//	drop      bytes dropped until the line's end
//
// On a strict route a payload is held while it is a prefix of a
// passthrough payload ("[DONE]"): one that ends as one is written as it
// is, and any other goes to the strict masker, which refuses what is not
// an object.
//
// A CR is a line's end; an LF right after it belongs to the same end.
type eventFramer struct {
	m     *jsonmask.Mask
	out   *output
	lim   Limits
	state sseState
	head  []byte // the name read so far, or the BOM's bytes
	data  *jsonmask.Writer
	dw    dataWriter // where data writes
	held  []byte     // kept lines that came between data lines
	cr    crEnd      // where the LF after a CR goes
	first bool       // the next data line is the event's first
	space bool       // in value: the first byte may be the space to skip
	unit  bool

	pass    []string // the payloads a strict mask lets through; nil if not strict
	pend    []byte   // the payload so far, while it is a prefix of one of pass
	holding bool     // the payload is being held in pend
}

type sseState uint8

const (
	sseBOM sseState = iota
	sseLineStart
	sseName
	sseOther
	sseValue
	sseDrop
)

// crEnd says, after a CR, where an LF that follows it goes.
type crEnd uint8

const (
	crNone  crEnd = iota
	crKeep        // to the kept line's place (out, or held)
	crDrop        // nowhere: a data line or a dropped line
	crBlank       // to out: it ends a blank line
)

// maxHeld bounds the kept lines held between two data lines of an event.
const maxHeld = 64 << 10

// maxName is the longest field name that is kept: "retry". A longer name
// is another field's, and its line is dropped.
const maxName = len("retry")

// newEventFramer returns a framer that masks events with m. pass are the
// payloads let through as they are when m is strict.
func newEventFramer(m *jsonmask.Mask, out *output, lim Limits, pass []string) *eventFramer {
	f := &eventFramer{m: m, out: out, lim: lim, first: true}
	if len(pass) > 0 && isStrict(m) {
		f.pass = pass
	}
	return f
}

// isStrict reports whether m refuses bodies that are not objects (B5).
func isStrict(m *jsonmask.Mask) bool {
	_, err := m.Append(nil, []byte("0"))
	return errors.Is(err, jsonmask.ErrNotObject)
}

// knownField reports whether a line with this field name is kept (SPEC G2):
// event, id, retry, and the empty name of a comment.
func knownField(name []byte) bool {
	switch string(name) {
	case "", "event", "id", "retry":
		return true
	}
	return false
}

func (f *eventFramer) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if f.cr != crNone {
			end := f.cr
			f.cr = crNone
			if c == '\n' {
				if err := f.lf(end); err != nil {
					return i, err
				}
				continue
			}
		}
		switch f.state {
		case sseBOM:
			if c == jsonwire.BOM[len(f.head)] {
				f.head = append(f.head, c)
				if len(f.head) == len(jsonwire.BOM) {
					if _, err := f.out.Write(f.head); err != nil {
						return i, err
					}
					f.head, f.state = f.head[:0], sseLineStart
				}
				continue
			}
			// Not a BOM: what was read is the start of a field name.
			f.state = sseName
			if len(f.head) == 0 {
				f.state = sseLineStart
			}
			i-- // read c again in the new state
		case sseLineStart:
			if c == '\n' || c == '\r' {
				if err := f.dispatch(c); err != nil {
					return i, err
				}
				continue
			}
			f.head, f.state = f.head[:0], sseName
			i--
		case sseName:
			if c == ':' || c == '\n' || c == '\r' {
				if err := f.nameEnd(c); err != nil {
					return i, err
				}
				continue
			}
			f.head = append(f.head, c)
			if len(f.head) > maxName {
				f.state = sseDrop // not a field that is kept
			}
		case sseOther:
			// Keep the run up to the line's end in one write.
			j := i
			for j < len(p) && p[j] != '\n' && p[j] != '\r' {
				j++
			}
			if err := f.keep(p[i:j]); err != nil {
				return i, err
			}
			if j == len(p) {
				return len(p), nil
			}
			if err := f.keep(p[j : j+1]); err != nil {
				return j, err
			}
			f.lineEnd(p[j], crKeep)
			i = j
		case sseValue:
			if f.space {
				f.space = false
				if c == ' ' {
					continue
				}
			}
			j := i
			for j < len(p) && p[j] != '\n' && p[j] != '\r' {
				j++
			}
			if j > i {
				if err := f.payload(p[i:j]); err != nil {
					return i, err
				}
			}
			if j == len(p) {
				return len(p), nil
			}
			f.lineEnd(p[j], crDrop)
			i = j
		case sseDrop:
			if c == '\n' || c == '\r' {
				f.lineEnd(c, crDrop)
			}
		}
	}
	return len(p), nil
}

// lineEnd moves to the next line after a line ended by c.
func (f *eventFramer) lineEnd(c byte, end crEnd) {
	f.state = sseLineStart
	if c == '\r' {
		f.cr = end
	}
}

// lf places the LF of a CR LF.
func (f *eventFramer) lf(end crEnd) error {
	switch end {
	case crKeep:
		return f.keep([]byte{'\n'})
	case crBlank:
		_, err := f.out.Write([]byte{'\n'})
		return err
	}
	return nil
}

// nameEnd decides what a line is once its name has ended with c: ':' or
// the line's end.
func (f *eventFramer) nameEnd(c byte) error {
	switch {
	case string(f.head) == "data":
		if err := f.startData(); err != nil {
			return err
		}
		if c == ':' {
			f.state, f.space = sseValue, true
			return nil
		}
		f.lineEnd(c, crDrop) // "data" alone: an empty line of payload
		return nil
	case !knownField(f.head):
		// A field clients ignore, or no field at all: what a lenient
		// parser would make of it was never masked.
		if c == ':' {
			f.state = sseDrop
			return nil
		}
		f.lineEnd(c, crDrop)
		return nil
	}
	if err := f.keep(f.head); err != nil {
		return err
	}
	if err := f.keep([]byte{c}); err != nil {
		return err
	}
	if c == ':' {
		f.state = sseOther
		return nil
	}
	f.lineEnd(c, crKeep)
	return nil
}

// startData begins a data line: the event's first opens the masked line,
// a later one continues its payload after the "\n" that joins them.
func (f *eventFramer) startData() error {
	if f.first {
		f.first = false
		f.dw = dataWriter{o: f.out}
		f.data = f.m.NewWriter(&f.dw)
		f.holding = f.pass != nil
		f.pend = f.pend[:0]
		return nil
	}
	return f.payload([]byte{'\n'})
}

// payload takes bytes of the event's payload: into the masker, or held
// while they may still be a passthrough payload.
func (f *eventFramer) payload(p []byte) error {
	if f.holding {
		f.pend = append(f.pend, p...)
		for _, s := range f.pass {
			if len(f.pend) <= len(s) && s[:len(f.pend)] == string(f.pend) {
				return nil
			}
		}
		f.holding = false
		p = f.pend
	}
	_, err := f.data.Write(p)
	return err
}

// keep writes bytes of a kept line: at once, or, inside an event whose
// data line is being written, held until the event ends.
func (f *eventFramer) keep(p []byte) error {
	if f.data == nil {
		_, err := f.out.Write(p)
		return err
	}
	if len(f.held)+len(p) > maxHeld {
		return &Error{Offset: -1, msg: "field lines between the data lines of an event exceed " + itoa(maxHeld) + " bytes", err: ErrSSE}
	}
	f.held = append(f.held, p...)
	return nil
}

// endData ends the event's data line and writes the lines held behind it.
func (f *eventFramer) endData() error {
	if f.data == nil {
		return nil
	}
	w := f.data
	f.data, f.first = nil, true
	if err := f.endPayload(w); err != nil {
		return err
	}
	if err := f.dw.open(); err != nil {
		return err
	}
	if _, err := f.out.Write([]byte{'\n'}); err != nil {
		return err
	}
	if len(f.held) > 0 {
		if _, err := f.out.Write(f.held); err != nil {
			return err
		}
		f.held = f.held[:0]
	}
	return nil
}

// endPayload ends the payload that w masks: a held payload that is listed
// goes out as it came (w never got a byte), any other into w.
func (f *eventFramer) endPayload(w *jsonmask.Writer) error {
	if f.holding {
		f.holding = false
		if slices.Contains(f.pass, string(f.pend)) {
			_, err := f.dw.Write(f.pend)
			return err
		}
		if _, err := w.Write(f.pend); err != nil {
			return err
		}
	}
	return w.Close()
}

// dispatch ends the event at a blank line ended by c.
func (f *eventFramer) dispatch(c byte) error {
	if err := f.endData(); err != nil {
		return err
	}
	if _, err := f.out.Write([]byte{c}); err != nil {
		return err
	}
	if c == '\r' {
		f.cr = crBlank
	}
	f.unit = true
	return nil
}

func (f *eventFramer) Flush() error {
	if f.data != nil {
		return f.data.Flush()
	}
	return nil
}

// Close ends the stream. An event cut short (no blank line after it) is
// written masked, without the blank line: clients do not dispatch it.
func (f *eventFramer) Close() error {
	switch f.state {
	case sseName:
		// A line cut short in its name: kept if it is a kept field's.
		if len(f.head) > 0 && knownField(f.head) {
			if err := f.keep(f.head); err != nil {
				return err
			}
		}
	}
	return f.endData()
}

func (f *eventFramer) abort() { f.data, f.holding = nil, false }

func (f *eventFramer) unitDone() bool {
	u := f.unit
	f.unit = false
	return u
}

// dataWriter writes a payload's masked bytes on the data line, which it
// opens with "data: " at its first byte, so that a payload refused before
// any byte was masked leaves nothing behind. A payload that passed through
// unmasked may hold the "\n" that joined its lines: each starts a new data
// line, as in the input. A masked payload is compact JSON, with no line
// break.
type dataWriter struct {
	o      *output
	opened bool
}

// open writes "data: ", once.
func (w *dataWriter) open() error {
	if w.opened {
		return nil
	}
	w.opened = true
	_, err := w.o.Write([]byte("data: "))
	return err
}

func (w *dataWriter) Write(p []byte) (int, error) {
	if err := w.open(); err != nil {
		return 0, err
	}
	n := 0
	for len(p) > 0 {
		k := indexLF(p)
		if k < 0 {
			m, err := w.o.Write(p)
			n += m
			if err != nil {
				return n, err
			}
			break
		}
		m, err := w.o.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		if _, err := w.o.Write([]byte("\ndata: ")); err != nil {
			return n, err
		}
		n++
		p = p[k+1:]
	}
	return n, w.o.flush()
}

func indexLF(p []byte) int {
	for i, c := range p {
		if c == '\n' {
			return i
		}
	}
	return -1
}
