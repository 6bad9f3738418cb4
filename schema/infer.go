package schema

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// Caps on what an Inferrer describes (SPEC C7). Past them a place becomes {}
// with a description that says why, which every value validates against.
const (
	MaxKeys  = 256   // distinct keys at one place
	MaxDepth = 32    // nesting: a place at this depth or deeper is {}
	MaxNodes = 16384 // places in one schema
)

// Lengths past which strings and keys are not looked into.
const (
	maxKeyBytes  = 1024 // raw bytes of a key the schema names; a longer one makes its object {}
	maxEnumBytes = 64   // a longer string ends a place's enum
	maxEnum      = 8    // distinct values an enum may hold
	maxFormatRaw = 1536 // raw bytes of a string looked at for formats and enums (256 characters escaped)
)

// Type bits of a node: the JSON types seen at its place.
const (
	tObject uint8 = 1 << iota
	tArray
	tString
	tInteger
	tNumber // a number with a fraction or an exponent
	tBoolean
	tNull
)

// node is one place in the documents: a root, a member's value, or the items
// of an array. It merges every value seen there.
type node struct {
	types uint8
	cut   string // why the node is {} (a cap), or ""
	depth int

	objects int      // objects seen here
	props   []*prop  // keys in the order first seen
	slots   []uint16 // props by key (keys.go)
	lead    *prop    // the first key of the last object
	items   *node    // the merged elements of the arrays seen here

	strings int      // strings seen here
	formats uint8    // the formats every string here has
	enum    []string // distinct strings, while they are few and short
	noEnum  bool
	nulls   int
}

// prop is a key seen at an object place.
type prop struct {
	name    string
	hash    uint64 // of name, for the node's table
	n       *node
	present int    // objects it appeared in
	last    int64  // the object it last appeared in, so duplicates count once
	after   *prop  // the key that followed it in the last object that had it
	head    uint64 // the tokenizer's name of the last head that had this key as written (MemberSpan.Head), or 0
}

// frame is an open container.
type frame struct {
	n    *node // its place; nil where nothing is described (under a cut)
	obj  int64 // an object's id, for required keys
	arr  bool
	prev *prop // an object's last key
}

// Kind is the kind of a value that an Observer sees, named by the first
// byte of the value as written ('{', '[', '"', '0' for any number, 't',
// 'f', 'n'): the byte values of the tokenizer's kinds, so that an observer
// that scans with the tokenizer itself may convert one to the other.
type Kind byte

// The kinds of JSON values.
const (
	Object Kind = '{'
	Array  Kind = '['
	String Kind = '"'
	Number Kind = '0'
	True   Kind = 't'
	False  Kind = 'f'
	Null   Kind = 'n'
)

// An Observer sees the tokens an Inferrer reads, as it reads them.
type Observer interface {
	// Begin starts a value of kind k: an object, an array or a scalar. For a
	// member it follows Key.
	Begin(k Kind)
	// Key names the member whose value comes next: raw is the key as written,
	// without quotes; text is raw unescaped. whole is false when the key is
	// longer than 1024 bytes: then raw and text hold its first bytes only.
	Key(raw, text []byte, whole bool)
	// Piece gives the next bytes of the scalar begun: a string's content as
	// written (escapes included, quotes not), a number or literal as is. last
	// reports its end. A piece may be empty.
	Piece(p []byte, last bool)
	// End ends an object or array.
	End(k Kind)
}

// A QuietObserver is an Observer that need not see every member. Before
// each run of members that the Inferrer reads at once (the members of one
// object that a window holds whole), it calls Quiet, and leaves out the
// Key, Begin and Piece of every member of the run whose value is a scalar
// of fewer than Quiet's bytes as written, a string's quotes included
// (0: none is left out). What it sees of other members is unchanged.
type QuietObserver interface {
	Observer
	Quiet() int
}

// Inferrer infers a schema from the documents written to it. Its zero value
// is ready to use. See the package documentation.
type Inferrer struct {
	root  *node
	nodes int
	objs  int64

	sc      tokenizer.Scanner
	started bool // a document is being read
	stack   []frame
	next    *node // the place of the member's value to come
	spans   [32]tokenizer.MemberSpan

	// A token that crosses the end of a window is read a piece at a time.
	cur     *node // the place of the scalar being read
	kind    tokenizer.Kind
	inTok   bool // a token goes on from the last window
	key     []byte
	keyLong bool
	str     []byte // a string's raw content, up to maxFormatRaw
	strLong bool
	frac    bool // the number being read has a fraction or exponent

	text  []byte // a key unescaped
	unesc []byte // a string unescaped

	base int64 // offset of the current window in the document
	err  error
	obs  Observer
	qobs QuietObserver // obs, when it is one
	docs int
}

// SetObserver makes o see the tokens of the documents read from now on.
func (in *Inferrer) SetObserver(o Observer) {
	in.obs = o
	in.qobs, _ = o.(QuietObserver)
}

// Write reads the next window of the current document (starting one when
// none is under way). When the document is not valid JSON it returns an
// error that wraps a *tokenizer.Error (errors.As) with the offset in the
// document; after an error, every call returns it.
func (in *Inferrer) Write(p []byte) (int, error) {
	if in.err != nil {
		return 0, in.err
	}
	if !in.started {
		in.sc.Reset(0)
		in.started, in.base, in.stack, in.next, in.inTok = true, 0, in.stack[:0], nil, false
		if in.root == nil {
			in.root = in.newNode(0)
		}
	}
	// The scanner counts offsets from the document: an error can name a
	// byte of an earlier window (the lead byte of a UTF-8 sequence that
	// this window's first byte cannot continue).
	in.sc.SetBase(in.base)
	if err := in.scan(p); err != nil {
		return 0, in.fail(err)
	}
	in.base += int64(len(p))
	return len(p), nil
}

// scan reads the window p. It drives the scanner with its fast paths, which
// read what is whole in the window and leave the rest, having consumed
// nothing, to Next, a token (or a piece of one) at a time:
//
//	cut token  a token that the last window cut goes on: Next (token)
//	root       Peek, then the value
//	array      Element, then the value; its ']' ends the array
//	object     Members: a run of members, each key with its value when that
//	           is a scalar whole in the window (members); its '}' ends the
//	           object; a value left (a container, or a scalar that the window
//	           cuts) goes on below; nothing read: Next, one token
//	value      a container is opened (begin); a scalar whole in the window
//	           is read at once (scalar); else Next, a piece at a time
func (in *Inferrer) scan(p []byte) error {
	var err error
	for i := 0; i < len(p); {
		if in.inTok {
			if i, err = in.nextToken(p, i); err != nil {
				return err
			}
			continue
		}
		var k tokenizer.Kind
		var j int
		switch d := len(in.stack); {
		case d == 0:
			if k, j, err = in.sc.Peek(p, i); err != nil || k == tokenizer.None {
				return err
			}
		case in.stack[d-1].arr:
			if k, j = in.sc.Element(p, i); k == tokenizer.None {
				if i, err = in.nextToken(p, i); err != nil {
					return err
				}
				continue
			}
			if k == tokenizer.ArrayEnd {
				in.end(k)
				i = j
				continue
			}
		default:
			n, at, closed := in.sc.Members(p, i, in.spans[:], false, ^uint64(0), nil)
			in.members(p, n)
			switch {
			case closed:
				in.end(tokenizer.ObjectEnd)
				i = at
				continue
			case n == 0:
				if i, err = in.nextToken(p, i); err != nil {
					return err
				}
				continue
			case in.spans[n-1].ValueEnd != 0:
				i = at
				continue
			}
			// Members left the last member's value: a container, or a
			// scalar that the window cuts.
			if k, j = tokenizer.ValueKind(p[at]), at; k != tokenizer.ObjectStart && k != tokenizer.ArrayStart {
				if i, err = in.nextToken(p, j); err != nil {
					return err
				}
				continue
			}
		}
		if k == tokenizer.ObjectStart || k == tokenizer.ArrayStart {
			if i, err = in.sc.Open(p, j); err != nil {
				return err
			}
			in.begin(k)
			continue
		}
		if e, ok := in.sc.Scalar(p, j, false); ok {
			in.scalar(in.valueNode(), k, p[j:e], in.obs != nil)
			i = e
			continue
		}
		if i, err = in.nextToken(p, j); err != nil {
			return err
		}
	}
	return nil
}

// nextToken reads the token, or the piece of one, that starts at p[i].
func (in *Inferrer) nextToken(p []byte, i int) (int, error) {
	t, j, err := in.sc.Next(p, i)
	if err != nil {
		return j, err
	}
	if t.Kind != tokenizer.None {
		in.token(p, t)
	}
	return j, nil
}

// End ends the current document: it reports one that is incomplete, and
// makes the next Write start another. A document that was never written to
// is an empty document, an error.
func (in *Inferrer) End() error {
	if in.err != nil {
		return in.err
	}
	if !in.started {
		in.Write(nil)
	}
	in.sc.SetBase(in.base) // End's offset is the document's end
	if err := in.sc.End(0); err != nil {
		return in.fail(err)
	}
	if in.inTok { // a number at the very end of the document ends there
		in.scalarEnd(nil)
	}
	in.started = false
	in.docs++
	return nil
}

// Documents returns the number of documents read whole.
func (in *Inferrer) Documents() int { return in.docs }

func (in *Inferrer) fail(err error) error {
	var te *tokenizer.Error
	if errors.As(err, &te) {
		// The error keeps its type and cause (ErrMaxDepth).
		err = errs.Errorf("%w", te)
	}
	in.err = err
	return err
}

func (in *Inferrer) newNode(depth int) *node {
	n := &node{depth: depth}
	switch {
	case depth >= MaxDepth:
		n.cut = "deeper than " + strconv.Itoa(MaxDepth) + " levels: not described"
	case in.nodes >= MaxNodes:
		n.cut = "more than " + strconv.Itoa(MaxNodes) + " places in the schema: not described"
	default:
		in.nodes++
	}
	return n
}

// token handles one token, or a piece of one, that Next read.
func (in *Inferrer) token(p []byte, t tokenizer.Token) {
	switch t.Kind {
	case tokenizer.ObjectStart, tokenizer.ArrayStart:
		in.begin(t.Kind)
	case tokenizer.ObjectEnd, tokenizer.ArrayEnd:
		in.end(t.Kind)
	default:
		piece := p[t.Start:t.End]
		first := !in.inTok
		if t.Kind == tokenizer.String {
			if first {
				piece = piece[1:]
			}
			if !t.More {
				piece = piece[:len(piece)-1]
			}
		}
		if t.Key {
			in.keyPiece(piece, first, !t.More)
		} else {
			if first {
				in.scalarBegin(t.Kind)
			}
			in.scalarPiece(piece)
			if !t.More {
				in.scalarEnd(piece)
			} else if in.obs != nil {
				in.obs.Piece(piece, false)
			}
		}
		in.inTok = t.More
	}
}

// begin opens an object or array, at the place of the value that starts now.
func (in *Inferrer) begin(k tokenizer.Kind) {
	n := in.valueNode()
	arr := k == tokenizer.ArrayStart
	f := frame{n: n, arr: arr}
	if n != nil {
		if arr {
			n.types |= tArray
		} else {
			n.types |= tObject
			n.objects++
			in.objs++
			f.obj = in.objs
		}
	}
	in.stack = append(in.stack, f)
	if in.obs != nil {
		in.obs.Begin(Kind(k))
	}
}

// end closes the innermost object or array.
func (in *Inferrer) end(k tokenizer.Kind) {
	in.stack = in.stack[:len(in.stack)-1]
	if in.obs != nil {
		in.obs.End(Kind(k))
	}
}

// valueNode returns the place of the value that starts now: the root, a
// member's place, or an array's items; nil where nothing is described.
func (in *Inferrer) valueNode() *node {
	if len(in.stack) == 0 {
		return in.root
	}
	f := &in.stack[len(in.stack)-1]
	if !f.arr {
		n := in.next
		in.next = nil
		return n
	}
	if f.n == nil || f.n.cut != "" {
		return nil
	}
	if f.n.items == nil {
		f.n.items = in.newNode(f.n.depth + 1)
	}
	return described(f.n.items)
}

// described returns n, or nil when n is cut: nothing under it is described.
func described(n *node) *node {
	if n == nil || n.cut != "" {
		return nil
	}
	return n
}

// members records the n members that Members read into in.spans: each key,
// and each value that is a scalar whole in the window.
func (in *Inferrer) members(p []byte, n int) {
	if n == 0 {
		return
	}
	f := &in.stack[len(in.stack)-1]
	quiet := 0 // the observer does without members whose scalar values are shorter
	if in.qobs != nil {
		quiet = in.qobs.Quiet()
	}
	for k := range n {
		sp := &in.spans[k]
		tell := in.obs != nil && (sp.ValueEnd == 0 || sp.ValueEnd-sp.ValueStart >= quiet)
		var vn *node
		if pr := guessedByHead(f, sp.Head); pr != nil && !tell {
			vn = in.recordMember(f, pr) // the key is not looked at
		} else {
			raw := p[sp.KeyStart+1 : sp.KeyEnd-1]
			long := len(raw) > maxKeyBytes
			if long {
				raw = cutEscape(raw[:maxKeyBytes])
			}
			vn = in.member(f, raw, sp.Head, sp.Escaped, long, tell)
		}
		if sp.ValueEnd == 0 {
			in.next = vn
			return
		}
		v := p[sp.ValueStart:sp.ValueEnd]
		in.scalar(vn, tokenizer.ValueKind(v[0]), v, tell)
	}
}

// keyPiece reads a key that Next gives a piece at a time, keeping its first
// maxKeyBytes.
func (in *Inferrer) keyPiece(piece []byte, first, last bool) {
	if first {
		in.key, in.keyLong = in.key[:0], false
	}
	if room := maxKeyBytes - len(in.key); len(piece) > room {
		piece, in.keyLong = piece[:room], true
	}
	in.key = append(in.key, piece...)
	if !last {
		return
	}
	raw := in.key
	if in.keyLong {
		raw = cutEscape(raw)
	}
	in.next = in.member(&in.stack[len(in.stack)-1], raw, 0, bytes.IndexByte(raw, '\\') >= 0, in.keyLong, in.obs != nil)
}

// member records a member's key, raw as written (its first maxKeyBytes when
// long), at the place of f, the innermost object, and returns the place of
// its value, or nil where nothing is described. head is the tokenizer's name
// for the member's head (MemberSpan.Head), or 0. tell says whether the
// observer sees it.
func (in *Inferrer) member(f *frame, raw []byte, head uint64, escaped, long, tell bool) *node {
	text := raw
	if escaped {
		in.text = tokenizer.AppendUnescaped(in.text[:0], raw)
		text = in.text
	}
	if tell {
		in.obs.Key(raw, text, !long)
	}
	n := described(f.n)
	if n == nil {
		return nil
	}
	if long {
		n.cutObject("a key longer than " + strconv.Itoa(maxKeyBytes) + " bytes: not described")
		return nil
	}
	// Objects at one place mostly list their keys in the same order: the
	// key that followed this one last time comes first.
	guess := n.lead
	if f.prev != nil {
		guess = f.prev.after
	}
	// A head named as the guess's was last time spells its key: no
	// comparison of the names (a head names one key for the life of the
	// process, so a name kept here is never stale).
	pr := guess
	if pr == nil || (head == 0 || pr.head != head) && pr.name != string(text) {
		if pr = in.prop(n, text); pr == nil {
			return nil
		}
		if f.prev == nil {
			n.lead = pr
		} else {
			f.prev.after = pr
		}
	}
	if head != 0 {
		pr.head = head
	}
	return in.recordMember(f, pr)
}

// guessedByHead returns the prop of the member whose head the tokenizer
// named head (MemberSpan.Head) when it is the one guessed at the place of
// f, the innermost object, as member would find it; else nil.
func guessedByHead(f *frame, head uint64) *prop {
	if head == 0 || f.n == nil || f.n.cut != "" {
		return nil
	}
	guess := f.n.lead
	if f.prev != nil {
		guess = f.prev.after
	}
	if guess == nil || guess.head != head {
		return nil
	}
	return guess
}

// recordMember records that the object of f has the member of pr, and
// returns the place of its value, or nil where nothing is described.
func (in *Inferrer) recordMember(f *frame, pr *prop) *node {
	f.prev = pr
	if pr.last != f.obj {
		pr.present++
		pr.last = f.obj
	}
	return described(pr.n)
}

// cutEscape drops an escape that a cut left unfinished at the end of raw.
func cutEscape(raw []byte) []byte {
	if k := bytes.LastIndexByte(raw, '\\'); k >= 0 && len(raw)-k < 12 {
		// Keep only escapes that are whole: walk from the last safe point.
		for j := 0; j < len(raw); {
			if raw[j] != '\\' {
				j++
				continue
			}
			w := 2
			if j+1 < len(raw) && raw[j+1] == 'u' {
				w = 6
			}
			if j+w > len(raw) {
				return raw[:j]
			}
			j += w
		}
	}
	return raw
}

// cutObject makes n {}: it drops what n described.
func (n *node) cutObject(why string) {
	n.cut, n.props, n.slots, n.lead, n.items, n.enum = why, nil, nil, nil, nil, nil
}

func (in *Inferrer) scalarBegin(k tokenizer.Kind) {
	in.cur, in.kind = in.valueNode(), k
	in.str, in.strLong, in.frac = in.str[:0], false, false
	if in.obs != nil {
		in.obs.Begin(Kind(k))
	}
}

func (in *Inferrer) scalarPiece(piece []byte) {
	if in.cur == nil {
		return
	}
	switch in.kind {
	case tokenizer.String:
		if in.strLong {
			return
		}
		if len(in.str)+len(piece) > maxFormatRaw {
			in.strLong = true
			return
		}
		in.str = append(in.str, piece...)
	case tokenizer.Number:
		if !in.frac && hasFraction(piece) {
			in.frac = true
		}
	}
}

// scalarEnd records the scalar that Next gave a piece at a time; last is its
// last piece, for the observer.
func (in *Inferrer) scalarEnd(last []byte) {
	if in.obs != nil {
		in.obs.Piece(last, true)
	}
	in.inTok = false
	n := in.cur
	if n == nil {
		return
	}
	switch in.kind {
	case tokenizer.String:
		in.addString(n, in.str, in.strLong)
	case tokenizer.Number:
		if in.frac {
			n.types |= tNumber
		} else {
			n.types |= tInteger
		}
	default:
		n.addLiteral(in.kind)
	}
}

// scalar records the scalar v of kind k, whole as written (a string with
// its quotes), at n, the place of the value that starts now; tell says
// whether the observer sees it.
func (in *Inferrer) scalar(n *node, k tokenizer.Kind, v []byte, tell bool) {
	if k == tokenizer.String {
		v = v[1 : len(v)-1]
	}
	if tell {
		in.obs.Begin(Kind(k))
		in.obs.Piece(v, true)
	}
	if n == nil {
		return
	}
	switch k {
	case tokenizer.String:
		if n.strings > 0 && n.formats == 0 && n.noEnum {
			n.strings++ // nothing more to learn from strings here
			return
		}
		in.addString(n, v, len(v) > maxFormatRaw)
	case tokenizer.Number:
		// Once a place has a number with a fraction, its type is
		// "number" whatever the others.
		if n.types&tNumber == 0 {
			if hasFraction(v) {
				n.types |= tNumber
			} else {
				n.types |= tInteger
			}
		}
	default:
		n.addLiteral(k)
	}
}

// hasFraction reports whether a number's bytes hold a fraction or exponent.
func hasFraction(v []byte) bool {
	for _, c := range v {
		if c == '.' || c|0x20 == 'e' {
			return true
		}
	}
	return false
}

func (n *node) addLiteral(k tokenizer.Kind) {
	if k == tokenizer.Null {
		n.types |= tNull
		n.nulls++
		return
	}
	n.types |= tBoolean
}

// addString records a string at n: raw is its content as written, or its
// first bytes when long. Formats and enums are looked for only while the
// place may still have them.
func (in *Inferrer) addString(n *node, raw []byte, long bool) {
	n.types |= tString
	first := n.strings == 0
	n.strings++
	if !first && n.formats == 0 && n.noEnum {
		return
	}
	if long {
		n.formats, n.noEnum, n.enum = 0, true, nil
		return
	}
	s := raw
	if bytes.IndexByte(raw, '\\') >= 0 {
		in.unesc = tokenizer.AppendUnescaped(in.unesc[:0], raw)
		s = in.unesc
	}
	if first {
		n.formats = formatsOf(s)
	} else if n.formats != 0 && !hasFormat(n.formats, s) {
		n.formats = 0
	}
	n.addEnum(s)
}

func (n *node) addEnum(s []byte) {
	if n.noEnum {
		return
	}
	if len(s) > maxEnumBytes {
		n.noEnum, n.enum = true, nil
		return
	}
	for _, e := range n.enum {
		if e == string(s) {
			return
		}
	}
	if len(n.enum) == maxEnum {
		n.noEnum, n.enum = true, nil
		return
	}
	n.enum = append(n.enum, string(s))
}
