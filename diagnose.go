package jsonmask

import (
	"bytes"
	"slices"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/stream"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// The diagnostics of SPEC section 12 (Explain, Paths) walk a document's
// tokens with the mask's Program on a path of their own: the masker itself
// (Append, Copy) does not know they exist and pays nothing for them (D3).
// They hold the whole document in memory, and a row per distinct path.

// How a value is treated: what the mask does to it.
const (
	modeDrop uint8 = iota // not in the output
	modeKeep              // in the output whole
	modeMask              // a nested mask applies: a container is masked, a scalar kept (A4) or dropped (A6)
)

// What a path has held, a bit per JSON type, in PathStats.Types' order.
const (
	typeObject uint8 = 1 << iota
	typeArray
	typeString
	typeNumber
	typeBoolean
	typeNull
)

// typeNames are their names, by bit.
var typeNames = [...]string{jsonwire.KindName('{'), jsonwire.KindName('['), jsonwire.KindName('"'),
	jsonwire.KindName('0'), jsonwire.KindName('t'), jsonwire.KindName('n')}

// pathKey names a path by its parent's index and its last segment: an
// unescaped key, or "*" for the elements of an array.
type pathKey struct {
	parent int32
	seg    string
}

// pathRow is what the walker knows of one path.
type pathRow struct {
	key   pathKey
	count int64
	types uint8
	bytes int64 // of its values as compact JSON
	kept  int64 // of them in the output
	mode  uint8 // of its first value: the mask decides by path, apart from A4/A6 on scalars
}

// wframe is an open container.
type wframe struct {
	array   bool
	mode    uint8
	node    int32 // modeMask: the node that applies to the members, or to the elements
	entry   int32 // modeMask: the entry whose nested mask applies (A4 scalars are counted on it); NoEntry at the root
	path    int32
	serial  int64 // an object's number in the document, for Explain's absent entries
	in, out int64 // compact and output bytes of the members or elements so far
	n, k    int64 // members or elements so far, and those in the output
	// The current member of an object, once its key is read.
	keyLen    int
	childPath int32
	childMode uint8
	childNode int32
	childE    int32
}

// walker walks valid documents and keeps what Explain and Paths report. It
// is used once, by one call.
type walker struct {
	prog           *compile.Program
	dropMismatched bool
	sc             tokenizer.Scanner
	frames         []wframe
	scratch        []byte
	root           value // what applies to the root of the document being walked
	rootOut        int64 // its bytes in the output, once it ended

	paths []pathRow
	index map[pathKey]int32

	matched, scalars, absent []int64 // per entry of the Program
	seenIn                   []int64 // per entry: the serial of the last object it matched in
	serial                   int64
	emptied                  map[int32]int64 // per path: objects that had members and became {}
	emptiedOrder             []int32
}

func newWalker(prog *compile.Program, dropMismatched bool) *walker {
	n := prog.Entries()
	w := &walker{prog: prog, dropMismatched: dropMismatched, index: map[pathKey]int32{},
		matched: make([]int64, n), scalars: make([]int64, n), absent: make([]int64, n), seenIn: make([]int64, n),
		emptied: map[int32]int64{}}
	w.paths = append(w.paths, pathRow{key: pathKey{parent: -1}}) // the root, path 0
	return w
}

// path returns the index of the path seg below parent, adding it when new.
func (w *walker) path(parent int32, seg string) int32 {
	k := pathKey{parent, seg}
	if p, ok := w.index[k]; ok {
		return p
	}
	w.paths = append(w.paths, pathRow{key: k})
	p := int32(len(w.paths) - 1)
	w.index[k] = p
	return p
}

// doc walks one whole document, doc, which starts at offset base of the
// input (line > 0: its NDJSON line). masked says that the mask applies
// (SPEC B1 to B4); otherwise it passes through, and every value of it is
// kept. It returns the document's bytes in the output as the walker counts
// them: compact, masked. Each token goes to the method for its kind: key for
// a key, open and scalar for a value, close for a closing bracket.
func (w *walker) doc(doc []byte, base, line int64, masked bool, maxDepth int) (int64, error) {
	if bytes.HasPrefix(doc, []byte(jsonwire.BOM)) { // SPEC B1: not part of the document
		doc, base = doc[len(jsonwire.BOM):], base+int64(len(jsonwire.BOM))
	}
	w.sc.Reset(maxDepth)
	w.frames = w.frames[:0]
	w.root = value{mode: modeKeep, node: 0, entry: compile.NoEntry}
	if masked {
		w.root.mode = modeMask
	}
	for i, last := 0, false; !last; {
		tok, j, err := w.sc.Next(doc, i)
		switch {
		case err != nil:
		case tok.More: // a number at the very end: End completes it, or fails
			err, last = w.sc.End(len(doc)), true
		case tok.Kind == tokenizer.None:
			if err = w.sc.End(len(doc)); err == nil {
				return w.rootOut, nil
			}
		}
		if err != nil {
			te := err.(*tokenizer.Error)
			return 0, convert(nil, &stream.Error{Offset: base + te.Offset, Line: line, Msg: te.Msg, Err: te.Err})
		}
		i = j
		switch tok.Kind {
		case tokenizer.ObjectEnd, tokenizer.ArrayEnd:
			w.close(tok.Kind)
		case tokenizer.ObjectStart, tokenizer.ArrayStart:
			w.open(tok.Kind)
		default:
			if tok.Key {
				w.key(doc[tok.Start:tok.End], tok.Escaped)
			} else {
				w.scalar(tok.Kind, int64(tok.End-tok.Start))
			}
		}
	}
	return w.rootOut, nil
}

// value is what applies to the value that comes next: its path, and what the
// mask does to it.
type value struct {
	path  int32
	mode  uint8
	node  int32 // modeMask: the node that applies
	entry int32 // the entry that matched it, or NoEntry
}

// next returns what applies to the value that comes next: an element of the
// innermost array, the current member's value, or the root.
func (w *walker) next() value {
	if len(w.frames) == 0 {
		return w.root
	}
	f := &w.frames[len(w.frames)-1]
	if f.array {
		return value{w.path(f.path, "*"), f.mode, f.node, f.entry}
	}
	return value{f.childPath, f.childMode, f.childNode, f.childE}
}

// key reads the key raw (quotes included) of the innermost object's next
// member, and decides about the member.
func (w *walker) key(raw []byte, escaped bool) {
	f := &w.frames[len(w.frames)-1]
	name := raw[1 : len(raw)-1]
	if escaped {
		w.scratch = tokenizer.AppendUnescaped(w.scratch[:0], name)
		name = w.scratch
	}
	f.keyLen = len(raw)
	f.childPath = w.path(f.path, string(name))
	f.childMode, f.childNode, f.childE = f.mode, -1, compile.NoEntry
	if f.mode == modeMask {
		w.member(f, name)
	}
}

// open opens a container of kind k, the next value.
func (w *walker) open(k tokenizer.Kind) {
	v := w.next()
	f := wframe{array: k == tokenizer.ArrayStart, mode: v.mode, node: v.node, entry: v.entry, path: v.path}
	if f.mode == modeMask && !f.array {
		w.serial++
		f.serial = w.serial
	}
	w.frames = append(w.frames, f)
}

// close closes the innermost container, of kind k (its closing bracket), and
// counts it as a value of its parent.
func (w *walker) close(k tokenizer.Kind) {
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	in, out := 2+f.in+max(f.n-1, 0), 2+f.out+max(f.k-1, 0)
	if f.mode == modeMask && !f.array {
		w.closeObject(&f)
	}
	if f.mode == modeDrop {
		out = 0
	}
	w.record(f.path, k, in, out, f.mode)
	w.done(in, out, f.mode != modeDrop)
}

// scalar counts a scalar of kind k and size bytes, the next value.
func (w *walker) scalar(k tokenizer.Kind, size int64) {
	v := w.next()
	out, kept := size, v.mode != modeDrop
	switch {
	case v.mode == modeDrop:
		out = 0
	case v.mode == modeMask: // SPEC A4, or A6
		if v.entry != compile.NoEntry {
			w.scalars[v.entry]++
		}
		if w.dropMismatched {
			out, kept = 0, false
		}
	}
	w.record(v.path, k, size, out, v.mode)
	w.done(size, out, kept)
}

// done adds a value that ended, in and out bytes, to its container, or
// remembers the root's out bytes.
func (w *walker) done(in, out int64, kept bool) {
	if len(w.frames) == 0 {
		w.rootOut = out
		return
	}
	w.add(&w.frames[len(w.frames)-1], in, out, kept)
}

// member decides about the member of the masked object f whose key, key, was
// just read.
func (w *walker) member(f *wframe, key []byte) {
	e := w.prog.Lookup(f.node, key)
	f.childE = e
	switch {
	case e == compile.NoEntry:
		f.childMode = modeDrop
		return
	case w.prog.Entry(e).Node == compile.Keep:
		f.childMode = modeKeep
	default:
		f.childNode = w.prog.Entry(e).Node
	}
	w.matched[e]++
	w.seenIn[e] = f.serial
}

// closeObject counts, as the masked object f closes, the entries of its node
// that it had no member for, and whether it became {}.
func (w *walker) closeObject(f *wframe) {
	for e := range w.prog.Members(f.node) {
		if w.seenIn[e] != f.serial {
			w.absent[e]++
		}
	}
	if f.n > 0 && f.k == 0 {
		if w.emptied[f.path] == 0 {
			w.emptiedOrder = append(w.emptiedOrder, f.path)
		}
		w.emptied[f.path]++
	}
}

// add adds a member or element, in and out bytes, to its container f.
func (w *walker) add(f *wframe, in, out int64, kept bool) {
	f.n++
	if !f.array {
		in += int64(f.keyLen) + 1
		out += int64(f.keyLen) + 1
	}
	f.in += in
	if kept {
		f.k++
		f.out += out
	}
}

// record counts a value of kind k at path, in bytes compact and out bytes
// in the output, treated as mode says.
func (w *walker) record(path int32, k tokenizer.Kind, in, out int64, mode uint8) {
	r := &w.paths[path]
	if r.count == 0 {
		r.mode = mode
	}
	r.count++
	r.bytes += in
	r.kept += out
	switch k {
	case tokenizer.ObjectEnd:
		r.types |= typeObject
	case tokenizer.ArrayEnd:
		r.types |= typeArray
	case tokenizer.String:
		r.types |= typeString
	case tokenizer.Number:
		r.types |= typeNumber
	case tokenizer.True, tokenizer.False:
		r.types |= typeBoolean
	case tokenizer.Null:
		r.types |= typeNull
	}
}

// splitDocs calls fn for every document of input: the whole input, or with
// ndjson each line (SPEC S3), with its offset and line number (0 when not
// ndjson). A line's "\n" is not part of it.
func splitDocs(input []byte, ndjson bool, fn func(doc []byte, base, line int64) error) error {
	if !ndjson {
		return fn(input, 0, 0)
	}
	var base int64
	for line := int64(1); len(input) > 0; line++ {
		doc := input
		if nl := bytes.IndexByte(input, '\n'); nl >= 0 {
			doc, input = input[:nl], input[nl+1:]
		} else {
			input = nil
		}
		if err := fn(doc, base, line); err != nil {
			return err
		}
		base += int64(len(doc)) + 1
	}
	return nil
}

// classify tells whether the mask applies to doc (SPEC B1 to B4), and
// whether doc holds anything but whitespace.
func classify(doc []byte, arrays bool) (masked, blank bool) {
	doc = jsonwire.TrimLead(doc)
	if len(doc) == 0 {
		return false, true
	}
	return doc[0] == '{' || doc[0] == '[' && arrays, false
}

// pointer returns path p's JSON Pointer.
func (w *walker) pointer(p int32) string {
	var segs []string
	for ; p > 0; p = w.paths[p].key.parent {
		segs = append(segs, w.paths[p].key.seg)
	}
	var b []byte
	for _, seg := range slices.Backward(segs) {
		b = jsonwire.AppendPointerToken(append(b, '/'), seg)
	}
	return string(b)
}
