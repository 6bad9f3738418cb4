package gateway

import (
	"strings"

	"github.com/jsonmask/jsonmask"
)

// eventFramer masks an event stream (text/event-stream, SPEC G2), event by
// event, as it arrives. The data lines of an event form its payload, joined
// by "\n" as the SSE standard joins them; the payload goes through the mask
// (an object is masked, anything else passes, B1-B5) and out as one line
// "data: <masked>" where the event's first data line stood. (A payload that
// passes through unmasked and held several lines is written as that many
// data lines again.) Every other line (event, id, retry, comments, unknown
// fields) is kept byte for byte, terminator included; one that comes
// between two data lines of an event is held until the event ends, up to
// maxHeld bytes, because the data line is still being written. A blank line
// ends the event: it goes out at once.
//
// The machine, byte by byte:
//
//	bom       the stream's first bytes, for a UTF-8 byte-order mark, which
//	          the standard skips: kept, and not taken for a field name
//	lineStart a blank line (CR, LF) ends the event; else -> name
//	name      the field name, up to ':' or the line's end: "data" -> value
//	          (one space after the colon is skipped); a name that only a
//	          lenient parser would take for data ("Data", " data") -> the
//	          line is dropped; anything else -> other
//	other     bytes kept until the line's end
//	value     payload bytes into the masker until the line's end
//	drop      bytes dropped until the line's end
//
// A CR is a line's end; an LF right after it belongs to the same end.
type eventFramer struct {
	m     *jsonmask.Mask
	out   *output
	lim   Limits
	state sseState
	head  []byte // the name read so far, or the BOM's bytes
	data  *jsonmask.Writer
	held  []byte // kept lines that came between data lines
	cr    crEnd  // where the LF after a CR goes
	first bool   // the next data line is the event's first
	space bool   // in value: the first byte may be the space to skip
	unit  bool
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

// maxName is the longest field name read before a line is known to be
// another field: "data" and its lenient spellings are shorter.
const maxName = 16

func newEventFramer(m *jsonmask.Mask, out *output, lim Limits) *eventFramer {
	return &eventFramer{m: m, out: out, lim: lim, first: true}
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
			const bom = "\xEF\xBB\xBF"
			if c == bom[len(f.head)] {
				f.head = append(f.head, c)
				if len(f.head) == len(bom) {
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
				if err := f.keep(f.head); err != nil {
					return i, err
				}
				f.state = sseOther
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
				if _, err := f.data.Write(p[i:j]); err != nil {
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
	name := string(f.head)
	switch {
	case name == "data":
		if err := f.startData(); err != nil {
			return err
		}
		if c == ':' {
			f.state, f.space = sseValue, true
			return nil
		}
		f.lineEnd(c, crDrop) // "data" alone: an empty line of payload
		return nil
	case strings.EqualFold(strings.TrimSpace(name), "data"):
		// Only a lenient parser reads this line, and it would read it as
		// data that the mask never saw: drop it.
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
		if _, err := f.out.Write([]byte("data: ")); err != nil {
			return err
		}
		f.data = f.m.NewWriter(dataWriter{f.out})
		return nil
	}
	_, err := f.data.Write([]byte{'\n'})
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
	if err := w.Close(); err != nil {
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
	case sseBOM, sseName:
		if len(f.head) > 0 && !(f.state == sseName && strings.EqualFold(strings.TrimSpace(string(f.head)), "data")) {
			if err := f.keep(f.head); err != nil {
				return err
			}
		}
	}
	return f.endData()
}

func (f *eventFramer) abort() { f.data = nil }

func (f *eventFramer) unitDone() bool {
	u := f.unit
	f.unit = false
	return u
}

// dataWriter writes a payload's masked bytes on the data line. A payload
// that passed through unmasked may hold the "\n" that joined its lines:
// each starts a new data line, as in the input. A masked payload is compact
// JSON, with no line break.
type dataWriter struct{ o *output }

func (w dataWriter) Write(p []byte) (int, error) {
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
