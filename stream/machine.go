package stream

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"unsafe"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// Config says how a Machine masks.
type Config struct {
	Arrays         bool  // SPEC B4: mask a body whose root is an array
	DropMismatched bool  // SPEC A6: drop scalars met by a nested mask
	Trusted        bool  // SPEC V4: skip dropped values checking only quoting and nesting
	NDJSON         bool  // SPEC S3: one document per line
	Strict         bool  // SPEC B5: reject a body that would pass through
	MaxDepth       int   // SPEC V2: nesting limit, 0 for tokenizer.DefaultMaxDepth
	MaxInput       int64 // the longest input accepted, in bytes; 0: no limit
	MaxToken       int   // the longest string or number accepted, in bytes; 0: no limit
}

// ErrInputTooLarge is wrapped by the *Error for an input longer than
// Config.MaxInput.
var ErrInputTooLarge = errors.New("input too large")

// ErrNotObject is wrapped by the *Error for a body that Config.Strict
// rejects because it would pass through unmasked (SPEC B5).
var ErrNotObject = errors.New("body is not a JSON object")

// Phases of a document.
const (
	phLead   = iota // before the first byte that is not whitespace (SPEC B1)
	phMask          // inside the masked root
	phTrail         // after the masked root: only whitespace may follow
	phReplay        // a body that is not masked: its recorded lead goes out first
	phPass          // a body that is not masked: copied as is (SPEC B3)
)

// What the machine does next at the masked levels.
const (
	opToken     = iota // read the next key, element or closing bracket of the innermost frame
	opKey              // go on with a key that crossed the end of a window
	opValue            // a key was read: decide about its value
	opSkip             // drop a value
	opCopy             // keep a value
	opCheckCopy        // keep a container: sc checks it, cp copies what sc checked
)

// frame is one open object or array at a masked level.
type frame struct {
	node   int32 // the mask node that applies
	array  bool
	wrote  bool            // a member or element has been written: the next one needs a comma
	member bool            // object: a key has been read
	entry  int32           // object: the current member's entry, or compile.NoEntry
	index  int             // array: index of the current element, -1 before the first
	lens   compile.Lengths // object: the lengths of node's keys (Program.KeyLengths)
}

// Machine masks one document, or one NDJSON stream, at a time. It is not
// safe for concurrent use; reuse it with Reset.
type Machine struct {
	input // what Reset sets afresh

	// What Reset keeps: memory, and what the scanners have learned of how
	// documents are laid out. Clearing it, or copying it into a new
	// Machine, costs more than masking a short document.
	sc      tokenizer.Scanner
	cp      tokenizer.Scanner // copies a kept container that sc checks (opCheckCopy)
	frames  []frame
	keyBuf  []byte                   // the current key, when it crossed the end of a window
	scratch []byte                   // unescaped keys
	spans   [64]tokenizer.MemberSpan // what Scanner.Members reads, a batch at a time (64: against 32, apache -0.9 % instructions, google -0.8 %, flow -1.1 %; 128 gave under 0.5 % more)
	lead    lead
	found   *lookups  // Lookup's answers for the keys sc names (MemberSpan.Head)
	names   wildNames // keys of the open members a wildcard matched, for errors
}

// input is a Machine's program and options, and where it is in its input.
type input struct {
	prog *compile.Program
	cfg  Config
	err  error // sticky: once a document is rejected, every call returns it
	wild bool  // prog has a wildcard: errors name its members (wildNames)

	off      int64 // offset in the input of the current window's first byte
	line     int64 // NDJSON: number of the current line, from 1
	lineUsed bool  // NDJSON: the current line has bytes

	phase uint8
	op    uint8

	// The current member's key, raw and with its quotes: what is written
	// when the member is kept, and what names it in an error. It aliases the
	// window while one is being read and keyBuf across windows.
	key      []byte
	keyInSrc bool
	keyOver  bool // the key grew past keyCap: it has no entry of its own and is not kept
	keyOut   bool // with keyOver: a wildcard keeps the member, its key is written as it comes
}

// lookups keeps, for the keys that the Scanner names by a MemberSpan.Head,
// what Program.Lookup answered for them in a node of the program whose ID is
// prog: direct-mapped, by Head and node (see slot). A Head names one key for
// the life of the process, whichever Scanner gave it, so an entry can never be
// stale while the program is the same: Reset clears the table only when the
// program's ID changes (a program's ID is never reused).
//
// The slots come first, at offset 0, which shortens members' code that
// addresses them. On Zen 3 that order measured apache +2.5 % and flow
// (trusted) +2 to +4 % against prog first, with the same instructions. A
// variant with prog first and the slots padded to a 64-byte line measured as
// prog first, so the gain is the code's alignment, not the data's, and a later
// change to members may move it.
//
// 256 slots, not 64: with 64, twitter's keys evicted each other, and each
// miss costs a Lookup (twitterescaped 0.8 % of its instructions, desc12).
type lookups struct {
	l    [256]lookup
	prog uint64
	// desc, per object node below len(desc), the members whose object
	// values Scanner.Members may open itself (descents).
	desc [16]tokenizer.Descents
}

// lookup is Program.Lookup's answer, entry, for the key named head in node;
// an empty one has node -1, which no node is.
type lookup struct {
	head        uint64
	node, entry int32
}

// use makes l the table of the program whose ID is prog.
func (l *lookups) use(prog uint64) {
	if l.prog == prog {
		return
	}
	l.prog = prog
	for i := range l.l {
		l.l[i] = lookup{node: -1}
	}
	l.desc = [len(l.desc)]tokenizer.Descents{}
}

// descents returns the Descents of node, or nil when it has none (a node
// past the table's).
func (l *lookups) descents(node int32) *tokenizer.Descents {
	if uint32(node) < uint32(len(l.desc)) {
		return &l.desc[node]
	}
	return nil
}

// slot returns the entry for head in node. The node counts: objects alike
// under different nodes (a route's "distance" and "duration", both {"text",
// "value"}) share their heads, and would evict each other's answers.
func (l *lookups) slot(head uint64, node int32) *lookup {
	return &l.l[(head+uint64(node)<<3)%uint64(len(l.l))]
}

// Reset prepares m for a new input masked by prog with cfg. Reset(nil,
// Config{}) lets go of the program, and of any caller's bytes: for a Machine
// kept in a pool.
func (m *Machine) Reset(prog *compile.Program, cfg Config) {
	if prog == nil && m.found != nil {
		// For the pool: the input and its program go; the rest is reset
		// by the Reset that takes m out again.
		m.input = input{line: 1}
		return
	}
	m.input = input{prog: prog, cfg: cfg, line: 1, wild: prog != nil && prog.Wildcards()}
	if m.found == nil {
		m.found = new(lookups)
	}
	if prog != nil {
		m.found.use(prog.ID())
	}
	m.keyBuf, m.scratch = m.keyBuf[:0], m.scratch[:0]
	// cp needs no reset per document: a document that ends, valid, has
	// left it at rest, and one that does not is an error that sticks.
	m.cp.Reset(math.MaxInt) // sc enforces the limits
	m.resetDoc()
}

func (m *Machine) resetDoc() {
	m.sc.Reset(m.cfg.MaxDepth)
	m.sc.SetMaxToken(m.cfg.MaxToken)
	m.sc.SetSiblings(true) // members writes "},{" where Members opened the next element
	m.phase, m.op = phLead, opToken
	m.frames = m.frames[:0]
	m.names.reset()
	m.key, m.keyInSrc, m.keyOver, m.keyOut = nil, false, false, false
	m.lead.reset()
	m.lineUsed = false
}

// Append masks src, a whole input, and appends the result to dst.
func (m *Machine) Append(dst, src []byte) ([]byte, error) {
	if m.overLimit(len(src)) {
		// What lies before the limit goes first: an error there comes first,
		// as when streaming.
		dst, _, err := m.Write(dst, src)
		return dst, err
	}
	if !m.cfg.NDJSON {
		dst, _, err := m.doc(dst, src, true)
		return dst, err
	}
	for len(src) > 0 {
		out, n, err := m.Write(dst, src)
		if dst, src = out, src[n:]; err != nil {
			return dst, err
		}
	}
	for {
		out, done, err := m.Close(dst)
		if dst = out; done || err != nil {
			return dst, err
		}
	}
}

// Write masks the next window of the input, src, and appends what it can
// already write to dst. It returns how many bytes of src it consumed: all of
// them, except when it has more to write than a window's worth (the replay of
// a long lead, see lead.replay); then the caller hands the output on and
// calls again with the rest of src. On error, the output appended before it is
// a prefix of what a valid continuation would give (SPEC V5).
func (m *Machine) Write(dst, src []byte) ([]byte, int, error) {
	if m.err != nil {
		return dst, 0, m.err
	}
	if m.overLimit(len(src)) {
		// Mask up to the limit, so that an error before it is reported first,
		// then report the limit: the same error whatever the split.
		var err error
		for head := src[:m.cfg.MaxInput-m.off]; len(head) > 0 && err == nil; {
			var n int
			dst, n, err = m.Write(dst, head)
			head = head[n:]
		}
		if err == nil {
			m.err = &Error{Offset: m.cfg.MaxInput, Msg: "input longer than " + strconv.FormatInt(m.cfg.MaxInput, 10) + " bytes", Err: ErrInputTooLarge}
			err = m.err
		}
		return dst, 0, err
	}
	if !m.cfg.NDJSON {
		dst, n, err := m.doc(dst, src, false)
		return dst, max(n, 0), err
	}
	for done := 0; ; {
		rest := src[done:]
		if m.phase == phLead && !m.lineUsed && len(rest) > 0 && (rest[0] == '{' || rest[0] == '[' && m.cfg.Arrays) {
			if out, n, ok := m.wholeLine(dst, rest); ok {
				if dst, done = out, done+n; done == len(src) {
					return dst, done, nil
				}
				continue
			}
		}
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			out, n, err := m.doc(dst, rest, false)
			return out, done + max(n, 0), err
		}
		var (
			n   int
			err error
		)
		if dst, n, err = m.doc(dst, rest[:nl], true); err != nil || n < 0 {
			return dst, done, err
		}
		dst = append(dst, '\n')
		m.off++
		m.line++
		m.resetDoc()
		done += nl + 1
		if done == len(src) {
			return dst, done, nil
		}
	}
}

// wholeLine masks the NDJSON line at the start of src, a line not begun before
// whose first byte opens the masked root, in one pass over src, not cut at
// the line's end first: that search reads the line's bytes before the
// machine does, out of the cache, and cost conversation-items-ndjson 6 % of
// its time (Intel Xeon). Once the root closes, or the window ends inside it,
// the bytes read are in L1, and a search there for a '\n' that the cut would
// have ended the line at (whitespace inside the root) costs little.
//
// It returns the bytes of src consumed and true: through the line's '\n',
// having written the line and its '\n' and moved to the next line; or all of
// src, when the window ends inside the line (the root or the whitespace
// after it), as doc would. It returns false, having written nothing and
// left the machine as it found it, when the line is to be masked the usual
// way: a '\n' inside the root, a byte after it other than whitespace, or an
// error, which the usual way gives as the line cut at its end gives it. An
// error stops the input, so at most one line is read twice, and for a valid
// line the pass is the same as the usual one up to the root's end.
func (m *Machine) wholeLine(dst, src []byte) ([]byte, int, bool) {
	d0 := len(dst)
	m.lineUsed, m.phase = true, phMask
	m.sc.SetBase(m.off)
	var (
		i   = 1
		err error
	)
	if c := src[0]; m.sc.OpenFast(c == '{') { // start's, inline: 21 instructions a line
		m.push(0, c == '[')
		dst = append(dst, c)
	} else {
		dst, i, err = m.start(dst, src, 0)
	}
	if err == nil {
		dst, i, err = m.mask(dst, src, i)
	}
	switch {
	case err != nil:
	case m.phase == phTrail:
		if hasNewline(src[:i]) {
			break
		}
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
			i++
		}
		if i == len(src) {
			// The window ends before the line does: the next one goes on
			// after the root, as after doc.
			m.keepKey()
			m.off += int64(i)
			return dst, i, true
		}
		if src[i] != '\n' {
			break
		}
		m.off += int64(i) + 1
		m.line++
		m.resetDoc()
		return append(dst, '\n'), i + 1, true
	case m.phase == phMask:
		// The window ends inside the root: what doc does then.
		if hasNewline(src) || m.sc.TokenOpen() && m.sc.CheckToken(len(src)) != nil {
			break
		}
		m.keepKey()
		m.off += int64(len(src))
		return dst, len(src), true
	}
	m.err = nil
	m.cp.Reset(math.MaxInt)
	m.resetDoc()
	return dst[:d0], 0, false
}

// Close ends the input: it checks that the document is complete and appends
// what remains to be written. When it returns done false, the caller hands the
// output on and calls Close again.
func (m *Machine) Close(dst []byte) (_ []byte, done bool, _ error) {
	if m.err != nil {
		return dst, true, m.err
	}
	if m.cfg.NDJSON && !m.lineUsed {
		return dst, true, nil
	}
	dst, n, err := m.doc(dst, nil, true)
	if n < 0 {
		return dst, false, nil
	}
	if err == nil && m.cfg.NDJSON {
		dst = append(dst, '\n')
		m.lineUsed = false
	}
	return dst, true, err
}

// doc feeds src, the next bytes of the current document, to the machine;
// final says they are its last. It returns the bytes consumed, or -1 when it
// consumed nothing because it has more output to hand over first.
func (m *Machine) doc(dst, src []byte, final bool) ([]byte, int, error) {
	if len(src) > 0 {
		m.lineUsed = true
	}
	i := 0
	if m.phase == phLead {
		// A window that starts with the root, no part of a byte-order
		// mark before it, needs no scan: what it would find is plain.
		masked := len(src) > 0 && (src[0] == '{' || src[0] == '[' && m.cfg.Arrays) && (m.lead.past || m.lead.bom == 0)
		if !masked {
			if i, masked = m.lead.scan(src, m.cfg.Arrays); i == len(src) && !final {
				m.lead.record(src)
				m.off += int64(len(src))
				return dst, len(src), nil
			}
		}
		if !masked && m.cfg.Strict {
			if err := m.strict(src, i); err != nil {
				return dst, i, err
			}
		}
		if masked {
			m.phase = phMask
			m.lead.reset()
			var err error
			if dst, i, err = m.start(dst, src, i); err != nil {
				return dst, i, err
			}
		} else {
			m.phase, i = phReplay, 0 // this window's lead was not recorded: it goes out with the rest
		}
	}
	if m.phase == phReplay {
		var more bool
		if dst, more = m.lead.replay(dst); more {
			return dst, -1, nil
		}
		m.phase = phPass
	}
	var err error
	switch m.phase {
	case phPass:
		dst, i = append(dst, src[i:]...), len(src)
	case phMask:
		dst, i, err = m.mask(dst, src, i)
	}
	if err == nil && m.phase == phTrail {
		m.sc.SetBase(m.off)
		_, i, err = m.sc.Peek(src, i)
		err = m.fail(err)
	}
	if err == nil && m.phase == phMask && m.sc.TokenOpen() {
		err = m.fail(m.sc.CheckToken(len(src)))
	}
	if err == nil && final && m.phase == phMask {
		m.sc.SetBase(m.off)
		err = m.fail(m.sc.End(len(src)))
	}
	if err != nil {
		return dst, i, err
	}
	if !final {
		m.keepKey() // the document's last window needs no key after it
	}
	m.off += int64(len(src))
	return dst, len(src), nil
}

// strict rejects the body that would pass through from src[i] (SPEC B5),
// a byte other than whitespace, or the end of the body at len(src). In
// NDJSON, a blank line is a separator, not a body: it passes (SPEC S3).
func (m *Machine) strict(src []byte, i int) error {
	e := &Error{Offset: m.off + int64(i), Err: ErrNotObject}
	switch {
	case i < len(src):
		e.Msg = "body is not a JSON object: first byte " + tokenizer.QuoteChar(src[i])
		if m.cfg.Arrays {
			e.Msg = "body is not a JSON object or array: first byte " + tokenizer.QuoteChar(src[i])
		}
	case m.cfg.NDJSON:
		return nil
	case m.off+int64(i) == 0:
		e.Msg = "empty body"
	default:
		e.Msg = "body holds no JSON value"
	}
	if m.cfg.NDJSON {
		e.Line = m.line
	}
	m.err = e
	return e
}

// start opens the masked root at src[i], a '{' or '[' that lead.scan or
// wholeLine found: with OpenFast, which skips what Next asks of a byte it
// does not know (about 100 instructions a document), where the Scanner has
// room for the root's bit.
func (m *Machine) start(dst, src []byte, i int) ([]byte, int, error) {
	m.sc.SetBase(m.off)
	if c := src[i]; m.sc.OpenFast(c == '{') {
		m.push(0, c == '[')
		return append(dst, c), i + 1, nil
	}
	tok, i, err := m.sc.Next(src, i)
	if err != nil {
		return dst, i, m.fail(err)
	}
	m.push(0, tok.Kind == tokenizer.ArrayStart)
	return append(dst, byte(tok.Kind)), i, nil
}

// maxNamedKey is the longest raw key, quotes not counted, of a dropped
// member that errors name (SPEC V3).
const maxNamedKey = 256

// keyCap bounds the bytes kept of a key across windows, quotes included:
// enough for any key that can match (6 raw bytes per unescaped byte), and
// for naming dropped keys in errors.
func (m *Machine) keyCap() int { return 2 + max(maxNamedKey, 6*m.prog.MaxKeyLen()) }

// keepKey copies the current key out of the window that is about to go away.
func (m *Machine) keepKey() {
	if !m.keyInSrc {
		return
	}
	m.keyInSrc = false
	if len(m.key) > m.keyCap() && (len(m.frames) == 0 || m.frames[len(m.frames)-1].entry == compile.NoEntry) {
		m.key = nil // dropped: not needed, and not named (SPEC V3)
		return
	}
	// A key with an entry is written with its value. Only a wildcard's can
	// be longer than keyCap, and it was whole in this window.
	m.keyBuf = append(m.keyBuf[:0], m.key...)
	m.key = m.keyBuf
}

// pooledCap bounds what a pooled Machine keeps: one that grew past it for a
// deep or odd document is left to the garbage collector.
const pooledCap = 64 << 10

// Small reports whether m's buffers are small enough to keep in a pool.
func (m *Machine) Small() bool {
	return cap(m.frames)*int(unsafe.Sizeof(frame{})) <= pooledCap && cap(m.keyBuf) <= pooledCap &&
		cap(m.scratch) <= pooledCap && cap(m.lead.runs) <= pooledCap && m.sc.Small() &&
		cap(m.names.keys) <= pooledCap && cap(m.names.at)*int(unsafe.Sizeof(wildName{})) <= pooledCap
}

// overLimit reports whether n more bytes take the input past Config.MaxInput.
func (m *Machine) overLimit(n int) bool {
	return m.cfg.MaxInput > 0 && m.off+int64(n) > m.cfg.MaxInput
}
