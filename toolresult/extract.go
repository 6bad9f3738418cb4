package toolresult

import (
	"io"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// InstructionsKey is the top-level member that carries instructions for the
// model rather than data (SPEC C2).
const InstructionsKey = "display_instructions_for_model"

// Limits of the extractor.
const (
	// MaxInstructions is the longest display_instructions_for_model value
	// accepted, in bytes as written; a longer one is an error.
	MaxInstructions = 256 << 10
	// maxHeld is the most whitespace held between two top-level members
	// while the next key is read.
	maxHeld = 64 << 10
	// maxCandidate is the longest raw key that may still spell InstructionsKey
	// (every character escaped as \uXXXX).
	maxCandidate = 6 * len(InstructionsKey)
	// maxHeldMember is the most held while instructions members are taken
	// out: a member is passed on as it is if the body turns out not to be
	// JSON before it is done (or, for the root's first members, before the
	// separator after them is read), so it is held until then, with the
	// whitespace around it.
	maxHeldMember = MaxInstructions + 2*maxHeld + maxCandidate + 2
)

// exState is where the extractor is in the body. The transitions, each
// made by the step of its state (extractor.step):
//
//	exStart     whitespace, a byte-order mark -> exStart; '{' -> exBetween;
//	            anything else -> exPass
//	exBetween   a key -> exKey; '}' -> exPass
//	exKey       the key's pieces -> exKey; the instructions' key -> exColon;
//	            another key -> exDataColon
//	exColon     ':' -> exTake
//	exDataColon ':' -> exSkip
//	exSkip      the value's pieces -> exSkip; its end -> exBetween
//	exTake      the value's pieces -> exTake; its end -> exBetween (held
//	            until the separator after it is read)
//	exPass      -> exPass, to the end
//
// An error in any state (the body is not an object this reader can read)
// goes to exPass, unless it is a limit of the extractor's, which fails.
type exState uint8

const (
	exStart     exState = iota // before the body's first byte that is not whitespace
	exBetween                  // in the root object, before a key or '}'
	exKey                      // inside a key
	exColon                    // after a key, before its value
	exDataColon                // after a key of data, before its value
	exSkip                     // inside a value that is data
	exTake                     // inside an instructions value
	exPass                     // everything else: passed on as it is
)

// extractor takes display_instructions_for_model members out of a body that
// is a JSON object (SPEC C2), streaming: it passes the rest of the body on to
// w. It reads the root object's members only, skipping their values the fast
// way (quoting and nesting: whoever reads the output validates it); it
// validates the instructions' values. Anything it cannot read as an object
// it passes on as it is, from where it stopped, for the next reader to
// reject.
//
// A member taken out is removed with the comma that joined it to the others.
// With blank set it is overwritten with spaces instead, so that offsets in the
// output are offsets in the body: for a mask, which drops whitespace anyway and
// reports errors by offset.
//
// Taking a member out must never make a body that is not JSON look like JSON
// to the next reader: `{"display_instructions_for_model"}` is not `{}`, and
// `{"display_instructions_for_model":1 "a":2}` is not `{"a":2}`. So a member
// is held, not passed on, until it is read whole and the separator after it
// is read too; if the body breaks before then, the member is passed on as it
// is and its instructions are not reported. Past that point the rest of the
// body is in the same state for the grammar with or without the member, and
// begins with a key or '}', so what follows cannot tell, nor run into the
// value before the member.
type extractor struct {
	w     io.Writer
	blank bool

	sc    tokenizer.Scanner
	state exState
	base  int64 // offset of the current window in the body
	bom   int   // bytes of a byte-order mark seen at the start

	p       []byte // the window being read
	out     int    // p[out:] is not passed on yet
	held    []byte // bytes of earlier windows after the last value, not passed on yet
	heldAt  int64  // offset of held[0]
	keyAt   int64  // offset of the key being read
	key     []byte // the raw key being read, up to maxCandidate bytes
	keyLong bool
	first   bool  // the member being read is the root's first
	dropTo  int64 // where the members taken out and still held end (-1: none), unless first

	instr     []string    // instructions taken out, in order
	heldInstr int         // of instr, the last ones whose members are still held
	value     []byte      // the instructions value being read
	open      []container // its open containers
	pending   bool        // its last token goes on in the next window
	err       error
	removed   []removal // what was taken out, for offsets (not blank)
}

// removal is a stretch of the body taken out of the output.
type removal struct{ at, n int64 }

func newExtractor(w io.Writer, blank bool) *extractor {
	e := &extractor{w: w, blank: blank, dropTo: -1}
	e.sc.Reset(0)
	return e
}

// Write reads the next window of the body: the step of each state in turn
// (the map is at exState), then it holds or passes on the rest.
func (e *extractor) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	e.p, e.out = p, 0
	i := 0
	var err error
	for i < len(p) && err == nil {
		i, err = e.step(p, i)
	}
	if err != nil {
		if e.err = e.fail(err); e.err != nil {
			return 0, e.err
		}
		// Not an object we can read: pass the rest on as it is.
		e.state = exPass
	}
	err = e.holdRest(p)
	e.p = nil
	if err != nil {
		e.err = err
		return 0, err
	}
	e.base += int64(len(p))
	return len(p), nil
}

// step reads what it can of p from i in the current state, and moves to the
// next state (the map is at exState).
func (e *extractor) step(p []byte, i int) (int, error) {
	switch e.state {
	case exStart:
		return e.start(p, i)
	case exBetween:
		return e.between(p, i)
	case exKey:
		return e.readKey(p, i)
	case exColon, exDataColon:
		_, i, err := e.sc.Peek(p, i)
		if err == nil && i < len(p) {
			if e.state == exDataColon {
				e.state = exSkip
			} else {
				e.state, e.value, e.open, e.pending = exTake, e.value[:0], e.open[:0], false
			}
		}
		return i, err
	case exSkip:
		i, done, err := e.sc.SkipTrusted(p, i)
		if err == nil && done {
			err = e.pass(-1, i)
			e.afterValue(i)
		}
		return i, err
	case exTake:
		i, done, err := e.take(p, i)
		if err == nil && done {
			// Held until the separator after it is read: without it,
			// the value before the member and what follows it could
			// read as one ({"a":1,"i":[]0} is not {"a":10}).
			e.state, e.heldInstr = exBetween, e.heldInstr+1
			if !e.first {
				e.dropTo = e.base + int64(i)
			}
		}
		return i, err
	}
	return len(p), nil // exPass
}

// between reads what comes before a key or the root's end.
func (e *extractor) between(p []byte, i int) (int, error) {
	k, i, err := e.sc.Peek(p, i)
	switch {
	case err != nil || k == tokenizer.None:
	case k == tokenizer.ObjectEnd:
		if err = e.pass(e.sepEnd(e.base+int64(i)), i); err == nil {
			_, i, err = e.sc.Next(p, i)
			e.state = exPass
		}
	default: // a key: what came since the last value is held until it is read
		e.state, e.key, e.keyLong, e.keyAt = exKey, e.key[:0], false, e.base+int64(i)
	}
	return i, err
}

// readKey reads a piece of a key, and at its end says whether the member is
// the instructions.
func (e *extractor) readKey(p []byte, i int) (int, error) {
	t, i, err := e.sc.Next(p, i)
	if err != nil {
		return i, err
	}
	if !e.keyLong {
		if len(e.key)+t.End-t.Start > maxCandidate+2 {
			e.keyLong = true
		} else {
			e.key = append(e.key, p[t.Start:t.End]...)
		}
	}
	switch {
	case t.More:
	case e.isInstructions():
		// The member goes, with the separator before it (or, for the
		// root's first member, after it): held until its value is read.
		e.state = exColon
	default:
		err = e.pass(e.sepEnd(e.keyAt), i)
		e.state, e.first = exDataColon, false
	}
	return i, err
}

// holdRest holds the rest of the window where it may belong to a member
// taken out, within the extractor's limits, and passes it on elsewhere.
func (e *extractor) holdRest(p []byte) error {
	switch e.state {
	case exBetween, exKey, exColon, exTake:
	default:
		return e.pass(-1, len(p))
	}
	if len(e.held) == 0 {
		e.heldAt = e.base + int64(e.out)
	}
	if n := len(e.held) + len(p) - e.out; e.state == exColon || e.state == exTake || e.heldInstr > 0 {
		if n > maxHeldMember {
			return &extractError{msg: InstructionsKey + " longer than " + strconv.Itoa(maxHeldMember) + " bytes as written, with the whitespace around it", at: e.base + int64(len(p))}
		}
	} else if n > maxHeld+maxCandidate+2 {
		return &extractError{msg: "more than " + strconv.Itoa(maxHeld) + " bytes of whitespace between two members", at: e.base + int64(len(p))}
	}
	e.held = append(e.held, p[e.out:]...)
	return nil
}

// sepEnd returns where what is held is to be taken out up to, now that a
// separator was read and the next key or '}' starts at end: end when the
// root's first members were taken out (the separator after them goes too),
// else the end of the members taken out, or -1 for none.
func (e *extractor) sepEnd(end int64) int64 {
	if e.first && e.heldInstr > 0 {
		return end
	}
	return e.dropTo
}

// Close ends the body. What is still held is passed on as it is: the body
// ended inside the root object, so it is not JSON, and nothing is taken out
// of the member it was in.
func (e *extractor) Close() error {
	if e.err != nil {
		return e.err
	}
	e.state, e.p, e.out = exPass, nil, 0
	if err := e.pass(-1, 0); err != nil {
		e.err = err
		return err
	}
	return nil
}

// pass passes on what was held and the window up to p[to], taking out the
// bytes before the body offset drop (-1: none). Instructions whose members
// were held are reported if their bytes are taken out, and forgotten if they
// are passed on.
func (e *extractor) pass(drop int64, to int) error {
	if drop < 0 {
		e.instr = e.instr[:len(e.instr)-e.heldInstr]
	}
	e.heldInstr, e.dropTo = 0, -1
	start := e.base + int64(e.out)
	if len(e.held) > 0 {
		start = e.heldAt
	}
	if drop > start {
		e.removedRun(start, drop-start)
	}
	// Held bytes first, then the window's.
	for _, run := range [2]struct {
		b  []byte
		at int64
	}{{e.held, e.heldAt}, {e.p[e.out:to], e.base + int64(e.out)}} {
		b := run.b
		if n := min(int64(len(b)), drop-run.at); n > 0 {
			if e.blank {
				if err := e.spaces(int(n)); err != nil {
					return err
				}
			}
			b = b[n:]
		}
		if len(b) > 0 {
			if _, err := e.w.Write(b); err != nil {
				return err
			}
		}
	}
	e.held = e.held[:0]
	e.out = to
	return nil
}

// fail sorts an error: the writer's own, or the extractor's limits, stop
// everything; a syntax error stops only the extraction (nil).
func (e *extractor) fail(err error) error {
	switch err.(type) {
	case *tokenizer.Error:
		return nil
	}
	return err
}

// start skips a byte-order mark and whitespace, and classifies the body.
func (e *extractor) start(p []byte, i int) (int, error) {
	for ; i < len(p); i++ {
		c := p[i]
		if e.base+int64(i) < int64(len(jsonwire.BOM)) && e.bom == int(e.base)+i && c == jsonwire.BOM[e.bom] {
			e.bom++
			continue
		}
		if jsonwire.IsSpace(c) {
			continue
		}
		if c != '{' {
			e.state = exPass
			return len(p), nil
		}
		_, j, err := e.sc.Next(p, i)
		e.state, e.first = exBetween, true
		e.afterValue(j)
		if err == nil {
			err = e.pass(-1, j)
		}
		return j, err
	}
	return i, nil
}

// afterValue follows a member's value ending at p[i]: what comes next is
// held, in case the next member is taken out.
func (e *extractor) afterValue(i int) {
	e.state = exBetween
	e.heldAt = e.base + int64(i)
}

func (e *extractor) removedRun(at, n int64) {
	if n > 0 && !e.blank {
		e.removed = append(e.removed, removal{at, n})
	}
}

var spaces64 = []byte("                                                                ")

func (e *extractor) spaces(n int) error {
	for n > 0 {
		k := min(n, len(spaces64))
		if _, err := e.w.Write(spaces64[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// isInstructions reports whether the key read is InstructionsKey, escapes
// decoded (SPEC M5).
func (e *extractor) isInstructions() bool {
	if e.keyLong || len(e.key) < 2 {
		return false
	}
	raw := e.key[1 : len(e.key)-1]
	if len(raw) == len(InstructionsKey) {
		return string(raw) == InstructionsKey
	}
	var buf [maxCandidate]byte
	return string(tokenizer.AppendUnescaped(buf[:0], raw)) == InstructionsKey
}

// take reads the instructions value, validating it, into e.value: compact,
// with the separators that the tokens leave out put back.
func (e *extractor) take(p []byte, i int) (int, bool, error) {
	for i < len(p) {
		t, j, err := e.sc.Next(p, i)
		if err != nil {
			return j, false, err
		}
		if t.Kind == tokenizer.None {
			return j, false, nil
		}
		if !e.pending { // a token starts
			switch t.Kind {
			case tokenizer.ObjectEnd, tokenizer.ArrayEnd:
				e.open = e.open[:len(e.open)-1]
			default:
				if n := len(e.open); n > 0 {
					c := &e.open[n-1]
					switch {
					case c.obj && !t.Key:
						e.value = append(e.value, ':')
					case c.n > 0:
						e.value = append(e.value, ',')
						c.n++
					default:
						c.n++
					}
				}
				if t.Kind == tokenizer.ObjectStart || t.Kind == tokenizer.ArrayStart {
					e.open = append(e.open, container{obj: t.Kind == tokenizer.ObjectStart})
				}
			}
		}
		e.value = append(e.value, p[t.Start:t.End]...)
		e.pending = t.More
		if len(e.value) > MaxInstructions {
			return j, false, &extractError{msg: InstructionsKey + " longer than " + strconv.Itoa(MaxInstructions) + " bytes", at: e.base + int64(j)}
		}
		i = j
		if len(e.open) == 0 && !t.More {
			e.instr = append(e.instr, instructionText(e.value))
			return i, true, nil
		}
	}
	return i, false, nil
}

// container is an open object or array of an instructions value.
type container struct {
	obj bool
	n   int // members or elements begun
}

// instructionText is an instructions value as the model gets it: a string's
// text, or another value as compact JSON (SPEC C2).
func instructionText(v []byte) string {
	if len(v) >= 2 && v[0] == '"' {
		return string(tokenizer.AppendUnescaped(nil, v[1:len(v)-1]))
	}
	return string(v)
}

// extractError is an instructions member the extractor refuses.
type extractError struct {
	msg string
	at  int64
}

func (e *extractError) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: " (errs.Detail).
func (e *extractError) Detail() string {
	return e.msg + " at offset " + strconv.FormatInt(e.at, 10)
}
