package schema

import (
	"bytes"
	"errors"
	"strconv"

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

	objects int              // objects seen here
	props   []*prop          // keys in the order first seen
	index   map[string]*prop // props by name, once there are more than a few
	items   *node            // the merged elements of the arrays seen here

	strings int      // strings seen here
	formats uint8    // the formats every string here has
	enum    []string // distinct strings, while they are few and short
	noEnum  bool
	nulls   int
}

// prop is a key seen at an object place.
type prop struct {
	name    string
	n       *node
	present int   // objects it appeared in
	last    int64 // the object it last appeared in, so duplicates count once
}

// frame is an open container.
type frame struct {
	n   *node // its place; nil where nothing is described (under a cut)
	obj int64 // an object's id, for required keys
	arr bool
}

// An Observer sees the tokens an Inferrer reads, as it reads them.
type Observer interface {
	// Begin starts a value of kind k: an object, an array or a scalar. For a
	// member it follows Key.
	Begin(k tokenizer.Kind)
	// Key names the member whose value comes next: raw is the key as written,
	// without quotes; text is raw unescaped. whole is false when the key is
	// longer than 1024 bytes: then raw and text hold its first bytes only.
	Key(raw, text []byte, whole bool)
	// Piece gives the next bytes of the scalar begun: a string's content as
	// written (escapes included, quotes not), a number or literal as is. last
	// reports its end. A piece may be empty.
	Piece(p []byte, last bool)
	// End ends an object or array.
	End(k tokenizer.Kind)
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
	cur     *node // the place of the scalar being read
	kind    tokenizer.Kind
	inTok   bool // a token goes on from the last window
	key     []byte
	keyLong bool
	text    []byte // a key unescaped
	str     []byte // a string's raw content, up to maxFormatRaw
	strLong bool
	frac    bool // the number being read has a fraction or exponent

	base int64 // offset of the current window in the document
	err  error
	obs  Observer
	docs int
}

// SetObserver makes o see the tokens of the documents read from now on.
func (in *Inferrer) SetObserver(o Observer) { in.obs = o }

// Write reads the next window of the current document (starting one when
// none is under way). It returns a *tokenizer.Error-based error with the
// document's offset when the document is not valid JSON; after an error,
// every call returns it.
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
	for i := 0; i < len(p); {
		t, j, err := in.sc.Next(p, i)
		if err != nil {
			return 0, in.fail(err)
		}
		if t.Kind == tokenizer.None {
			break
		}
		in.token(p, t)
		i = j
	}
	in.base += int64(len(p))
	return len(p), nil
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
		err = errors.New("jsonmask: " + te.Msg + " at offset " + strconv.FormatInt(in.base+te.Offset, 10))
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

// token handles one token or piece of one.
func (in *Inferrer) token(p []byte, t tokenizer.Token) {
	switch t.Kind {
	case tokenizer.ObjectStart, tokenizer.ArrayStart:
		n := in.valueNode()
		arr := t.Kind == tokenizer.ArrayStart
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
			in.obs.Begin(t.Kind)
		}
	case tokenizer.ObjectEnd, tokenizer.ArrayEnd:
		in.stack = in.stack[:len(in.stack)-1]
		if in.obs != nil {
			in.obs.End(t.Kind)
		}
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
	return live(f.n.items)
}

// live returns n, or nil when n is cut: nothing under it is described.
func live(n *node) *node {
	if n == nil || n.cut != "" {
		return nil
	}
	return n
}

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
	in.text = tokenizer.AppendUnescaped(in.text[:0], raw)
	if in.obs != nil {
		in.obs.Key(raw, in.text, !in.keyLong)
	}
	f := &in.stack[len(in.stack)-1]
	n := live(f.n)
	in.next = nil
	if n == nil {
		return
	}
	if in.keyLong {
		n.cutObject("a key longer than " + strconv.Itoa(maxKeyBytes) + " bytes: not described")
		return
	}
	pr := n.lookup(in.text)
	if pr == nil {
		if len(n.props) == MaxKeys {
			n.cutObject("more than " + strconv.Itoa(MaxKeys) + " keys: not described")
			return
		}
		pr = &prop{name: string(in.text), n: in.newNode(n.depth + 1)}
		n.props = append(n.props, pr)
		if n.index != nil || len(n.props) > 8 {
			if n.index == nil {
				n.index = make(map[string]*prop, 16)
				for _, q := range n.props {
					n.index[q.name] = q
				}
			}
			n.index[pr.name] = pr
		}
	}
	if pr.last != f.obj {
		pr.present++
		pr.last = f.obj
	}
	in.next = live(pr.n)
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

func (n *node) lookup(name []byte) *prop {
	if n.index != nil {
		return n.index[string(name)]
	}
	for _, p := range n.props {
		if p.name == string(name) {
			return p
		}
	}
	return nil
}

// cutObject makes n {}: it drops what n described.
func (n *node) cutObject(why string) {
	n.cut, n.props, n.index, n.items, n.enum = why, nil, nil, nil, nil
}

func (in *Inferrer) scalarBegin(k tokenizer.Kind) {
	in.cur, in.kind = in.valueNode(), k
	in.str, in.strLong, in.frac = in.str[:0], false, false
	if in.obs != nil {
		in.obs.Begin(k)
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
		if !in.frac && bytes.ContainsAny(piece, ".eE") {
			in.frac = true
		}
	}
}

// scalarEnd records the scalar just read at its place; last is its last piece,
// for the observer.
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
		n.types |= tString
		var s []byte
		if !in.strLong {
			s = tokenizer.AppendUnescaped(in.text[:0], in.str)
			in.text = s
		}
		if n.strings == 0 {
			n.formats = formatsOf(s, in.strLong)
		} else if n.formats != 0 {
			n.formats &= formatsOf(s, in.strLong)
		}
		n.strings++
		n.addEnum(s, in.strLong)
	case tokenizer.Number:
		if in.frac {
			n.types |= tNumber
		} else {
			n.types |= tInteger
		}
	case tokenizer.True, tokenizer.False:
		n.types |= tBoolean
	case tokenizer.Null:
		n.types |= tNull
		n.nulls++
	}
}

func (n *node) addEnum(s []byte, long bool) {
	if n.noEnum {
		return
	}
	if long || len(s) > maxEnumBytes {
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
