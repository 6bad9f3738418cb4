package toolresult

import (
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/schema"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// snode is a value of the sample the preview is built from: the first
// elements of every array, every member, strings' first bytes, within caps
// (see sampler). Unsampled values are counted in their parent's total only.
type snode struct {
	kind  tokenizer.Kind
	key   []byte // a member's key as written, without quotes
	keyOK bool   // the key is whole (not cut at the sampler's key limit)
	raw   []byte // a scalar as written; a string's content, up to the sampler's cap
	chars int    // a string's characters in raw
	total int    // a string's characters; a container's members or elements
	kids  []*snode
	depth int

	// The preview's state.
	shown     bool
	showChars int
	keyCost   int        // tokens of `"key":`, -1 until counted
	cost      int        // tokens of the value as shown, with its key and comma
	costs     []costMemo // a string's costs counted, by characters shown
}

// sampler is the schema.Observer that builds the sample and finds hints
// (SPEC C11) in the same pass as the schema.
type sampler struct {
	root  *snode
	open  []sframe // the open containers
	path  []byte   // the keys of the members being read, unescaped, one after another (sframe.keyEnd)
	cur   *snode   // the scalar being read, or nil
	key   []byte   // the key of the member being read, as written, when its object is sampled
	keyOK bool

	nodes, bytes                           int
	maxNodes, maxBytes, maxItems, maxChars int
	esc                                    escState
	strCut                                 bool // the string being read was cut at maxChars
	hintBuf                                hintScan

	// Hints: a string that starts like JSON is validated as it streams.
	hint      *hintScan
	hintFresh bool // hint is to be reset before the string's first piece
	hints     []Hint
	dropped   int // hints past maxHints
}

// maxHints is the number of hints reported; more are counted.
const maxHints = 32

func newSampler(budget int) *sampler {
	clamp := func(v, lo, hi int) int { return max(lo, min(v, hi)) }
	return &sampler{
		maxNodes: clamp(4*budget, 2048, 400000),
		maxBytes: clamp(16*budget, 64<<10, 16<<20),
		maxItems: clamp(budget/2, 8, 50000),
		maxChars: clamp(8*budget, 256, 1<<20),
	}
}

// admit reports whether a new value at depth may be sampled: within the
// caps, or shallow (the decision fields) within a quarter more, or the
// first member or element of a container sampled within half more (C8: a
// container sampled shows something of what it holds, not {}).
func (s *sampler) admit(depth int, first bool) bool {
	if depth > 32 {
		return false
	}
	if s.nodes < s.maxNodes && s.bytes < s.maxBytes {
		return true
	}
	if first && s.nodes < s.maxNodes+s.maxNodes/2 && s.bytes < s.maxBytes+s.maxBytes/2 {
		return true
	}
	return depth <= 2 && s.nodes < s.maxNodes+s.maxNodes/4 && s.bytes < s.maxBytes+s.maxBytes/4
}

func (s *sampler) Begin(kind schema.Kind) {
	k := tokenizer.Kind(kind) // the same bytes
	depth := len(s.open)
	var n, parent *snode
	if depth > 0 {
		f := &s.open[depth-1]
		parent = f.n
		f.idx++
		if parent == nil {
			// Under a value not sampled nothing is: past the caps, that
			// is most values, and only hints are looked for.
			if k == tokenizer.ObjectStart || k == tokenizer.ArrayStart {
				s.open = append(s.open, sframe{obj: k == tokenizer.ObjectStart, keyEnd: f.keyEnd})
				return
			}
			s.cur, s.hint, s.hintFresh = nil, nil, false
			if k == tokenizer.String {
				s.hint, s.hintFresh = &s.hintBuf, true
			}
			return
		}
	}
	switch {
	case depth == 0:
		n = &snode{kind: k}
		s.root = n
	default:
		parent.total++
		fits := parent.kind == tokenizer.ObjectStart || len(parent.kids) < s.maxItems
		if fits && s.admit(depth, len(parent.kids) == 0) && (parent.kind != tokenizer.ObjectStart || s.keyOK) {
			n = &snode{kind: k, depth: depth}
			if parent.kind == tokenizer.ObjectStart {
				n.key, n.keyOK = append([]byte(nil), s.key...), s.keyOK
				s.bytes += len(n.key)
			}
			parent.kids = append(parent.kids, n)
		}
	}
	if n != nil {
		s.nodes++
		n.keyCost = -1
	}
	if k == tokenizer.ObjectStart || k == tokenizer.ArrayStart {
		s.open = append(s.open, sframe{n: n, obj: k == tokenizer.ObjectStart, keyEnd: s.pathAt(depth)})
		return
	}
	s.cur, s.esc, s.strCut, s.hint = n, escState{}, false, nil
	if k == tokenizer.String {
		s.hint, s.hintFresh = &s.hintBuf, true
	}
}

// Quiet tells the Inferrer that under an object not sampled the sampler
// needs only the members whose values may hold a hint (C11): containers,
// and strings of at least hintMin bytes.
func (s *sampler) Quiet() int {
	if d := len(s.open); d > 0 && s.open[d-1].n == nil {
		return hintMin
	}
	return 0
}

func (s *sampler) Key(raw, text []byte, whole bool) {
	d := len(s.open)
	if d == 0 {
		return
	}
	f := &s.open[d-1]
	s.keyOK = whole
	if f.n != nil { // Begin samples the member's value, with its key
		s.key = append(s.key[:0], raw...)
	}
	s.path = append(s.path[:s.pathAt(d-1)], text...)
	f.keyEnd = len(s.path)
}

// pathAt returns where the key of the container at depth d begins in
// s.path: where its parent's ends.
func (s *sampler) pathAt(d int) int {
	if d == 0 {
		return 0
	}
	return s.open[d-1].keyEnd
}

func (s *sampler) Piece(p []byte, last bool) {
	if s.hint != nil && s.hintFresh {
		// A string whole in one piece and shorter than hintMin cannot
		// hold JSON text worth a hint (its content unescaped is no longer
		// than as written): most strings are not looked into at all.
		if s.hintFresh = false; last && len(p) < hintMin {
			s.hint = nil
		} else {
			s.hint.reset()
		}
	}
	if s.hint != nil {
		s.hint.write(p, last)
	}
	if n := s.cur; n != nil {
		if n.kind == tokenizer.String {
			chars := s.esc.count(p)
			n.total += chars
			take := p[:min(len(p), max(0, s.maxChars-len(n.raw)))]
			if len(take) < len(p) {
				s.strCut = true
			}
			n.raw = append(n.raw, take...)
			s.bytes += len(take)
		} else if len(n.raw)+len(p) <= 64 {
			n.raw = append(n.raw, p...)
		} else {
			n.chars = -1 // a number too long to show: never shown
		}
	}
	if last {
		if n := s.cur; n != nil && n.kind == tokenizer.String {
			if s.strCut {
				n.raw = n.raw[:wholeChars(n.raw)]
			}
			n.chars = charsIn(n.raw)
		}
		if s.hint != nil {
			if s.hint.ok() {
				s.addHint()
			}
			s.hint = nil
		}
		s.cur = nil
	}
}

func (s *sampler) End(schema.Kind) {
	s.open = s.open[:len(s.open)-1]
}

// sframe is an open container of the sampler.
type sframe struct {
	n      *snode // nil where not sampled
	idx    int    // the index of the next element or member
	keyEnd int    // where the key of the member being read ends in sampler.path
	obj    bool
}

// pointer returns the JSON Pointer of the value being read.
func (s *sampler) pointer() string {
	var b strings.Builder
	for d, f := range s.open {
		b.WriteByte('/')
		if f.obj {
			b.WriteString(jsonwire.EscapePointerToken(string(s.path[s.pathAt(d):f.keyEnd])))
		} else {
			b.WriteString(strconv.Itoa(f.idx - 1))
		}
	}
	return b.String()
}

// escState counts the characters of a string's content as written, piece by
// piece: an escape is one character, a surrogate pair's two escapes one.
type escState struct {
	in   int  // bytes of an escape still to come after '\'; -1 right after '\'
	high bool // the last escape was a high surrogate
	hex  rune
}

func (e *escState) count(p []byte) int {
	n := 0
	for _, c := range p {
		switch {
		case e.in == -1:
			if c == 'u' {
				e.in, e.hex = 4, 0
			} else {
				e.in, e.high = 0, false
				n++
			}
		case e.in > 0:
			e.hex = e.hex<<4 | rune(hexVal(c))
			if e.in--; e.in == 0 {
				low := e.hex >= 0xDC00 && e.hex < 0xE000
				if !(low && e.high) {
					n++
				}
				e.high = e.hex >= 0xD800 && e.hex < 0xDC00
			}
		case c == '\\':
			e.in = -1
		case c&0xC0 != 0x80:
			e.high = false
			n++
		}
	}
	return n
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// charsIn counts the characters of whole string content.
func charsIn(raw []byte) int {
	n := 0
	for i := 0; i < len(raw); i += charWidth(raw, i) {
		n++
	}
	return n
}

// charWidth returns the length of the character that starts raw[i]: an
// escape (a surrogate pair's two), or a UTF-8 sequence.
func charWidth(raw []byte, i int) int {
	c := raw[i]
	switch {
	case c == '\\':
		if i+1 < len(raw) && raw[i+1] == 'u' {
			if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				if h, l := hex4(raw[i+2:]), hex4(raw[i+8:]); h >= 0xD800 && h < 0xDC00 && l >= 0xDC00 && l < 0xE000 {
					return 12
				}
			}
			return 6
		}
		return 2
	case c >= 0xF0:
		return 4
	case c >= 0xE0:
		return 3
	case c >= 0xC0:
		return 2
	}
	return 1
}

// wholeChars returns the length of the longest prefix of raw that ends at a
// character boundary: not inside an escape, a surrogate pair or a UTF-8
// sequence. A high surrogate escape at the very end is left out, in case its
// pair was cut off.
func wholeChars(raw []byte) int {
	i := 0
	for i < len(raw) {
		w := charWidth(raw, i)
		if i+w > len(raw) || w == 6 && len(raw)-i < 12 && isHigh(raw[i:]) {
			break
		}
		i += w
	}
	return i
}

func isHigh(esc []byte) bool {
	h := hex4(esc[2:])
	return h >= 0xD800 && h < 0xDC00
}

// hex4 is the value of the \uXXXX digits b starts with; 0, which is no
// surrogate, if they are not four hex digits.
func hex4(b []byte) rune {
	r, _ := jsonwire.ParseHex4(b)
	return r
}

// prefixChars returns the bytes of raw (whole characters) that hold its
// first n characters.
func prefixChars(raw []byte, n int) []byte {
	i := 0
	for ; n > 0 && i < len(raw); n-- {
		i += charWidth(raw, i)
	}
	return raw[:i]
}

// hintMin is the length from which JSON text in a string is hinted (C11).
const hintMin = 1 << 10

// hintScan validates a string's content as JSON as it streams by, when it
// starts like an object or an array.
type hintScan struct {
	sc      tokenizer.Scanner
	pend    []byte // an escape cut at the end of the last piece
	buf     []byte
	n       int // content bytes, unescaped
	started bool
	inValue bool
	done    bool
	failed  bool
}

func (h *hintScan) reset() {
	h.pend, h.n, h.started, h.inValue, h.done, h.failed = h.pend[:0], 0, false, false, false, false
	h.sc.Reset(0)
}

func (h *hintScan) write(p []byte, last bool) {
	if !h.failed && !h.started && len(h.pend) == 0 {
		// Most strings are not JSON text: their first character says so,
		// without unescaping them or making the scanner's error.
		if c := firstNonSpace(p); c != 0 && c != '{' && c != '[' && c != '\\' {
			h.failed = true
		}
	}
	if h.failed {
		return
	}
	data := p
	if len(h.pend) > 0 {
		h.pend = append(h.pend, p...)
		data = h.pend
	}
	whole := len(data)
	if !last {
		whole = wholeChars(data)
	}
	h.buf = tokenizer.AppendUnescaped(h.buf[:0], data[:whole])
	rest := data[whole:]
	h.n += len(h.buf)
	i := 0
	for i < len(h.buf) && !h.failed {
		switch {
		case h.inValue:
			j, done, err := h.sc.SkipValue(h.buf, i)
			if err != nil {
				h.failed = true
			}
			i = j
			if done {
				h.inValue, h.done = false, true
			}
		default:
			k, j, err := h.sc.Peek(h.buf, i)
			switch {
			case err != nil:
				h.failed = true
			case k == tokenizer.None:
				i = j
			case !h.started && (k == tokenizer.ObjectStart || k == tokenizer.ArrayStart):
				h.started, h.inValue, i = true, true, j
			default:
				h.failed = true
			}
		}
	}
	if h.n > 0 && !h.started && !h.failed {
		// Only whitespace so far: wait for more.
	}
	h.pend = append(h.pend[:0], rest...)
	if last && !h.failed && h.sc.End(len(h.buf)) != nil {
		h.failed = true
	}
}

// firstNonSpace returns the first byte of p that is not a space, or 0. (In a
// valid string, the other JSON whitespace is escaped.)
func firstNonSpace(p []byte) byte {
	for _, c := range p {
		if c != ' ' {
			return c
		}
	}
	return 0
}

// ok reports whether the whole string was JSON text long enough to hint.
func (h *hintScan) ok() bool {
	return !h.failed && h.done && h.n >= hintMin
}

func (s *sampler) addHint() {
	if len(s.hints) == maxHints {
		s.dropped++
		return
	}
	s.hints = append(s.hints, Hint{Pointer: s.pointer(), Hint: "this string holds JSON text (" + strconv.Itoa(s.hint.n) + " bytes): a tool that returns it as JSON, not as a string, lets it be masked, described and previewed"})
}
