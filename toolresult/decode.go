package toolresult

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// decodeValue builds from the JSON document doc the values a jq program
// works on (SPEC C13): map[string]any, []any, string, bool, nil, and numbers
// as gojq reads them: an int where the literal is an integer that fits,
// else a float64 where it has a fraction or an exponent, else a *big.Int
// (and ±Inf past float64's range).
//
// It reads doc with the tokenizer's Scanner in one pass, without recursion:
// the values of open containers wait on one stack, and a container is made
// at its end, at its exact size. Two shortcuts take most values past the
// stack: an object read from its start keeps its members in local arrays
// (localMembers), and an array of scalars (a leaf) is read straight into
// the slab it is cut from (leaf); the scanner's loops for them
// (ScalarMembers, ScalarElements) validate each number and read it into
// its parts in one pass, and say which strings hold escapes. Nothing is
// taken from a slab by re-slicing it (the slabs' indices are integers): a
// pointer written into the decoder would take a write barrier while the
// collector marks, one per value. Strings without escapes are not
// copied: they are slices of doc, which decodeValue takes over (the caller
// must not change doc afterwards, and doc stays alive while any of them
// does). Escapes are
// decoded as encoding/json decodes them: a lone surrogate becomes U+FFFD.
// Numbers are read from doc's bytes (decode_float.go). Arrays, and the
// interfaces that hold strings, numbers and arrays, are cut from slabs
// (decode_box.go): a few allocations for thousands of values, which stay
// alive together while any of them does.
//
// Map: decode runs the loop (members and elements for the scanner's fast
// runs, ScalarMembers and ScalarElements, Next for the rest); members is
// localMembers or stackMembers; openLeaf and leaf read leaf arrays, from
// elements and members alike; object (and objectElement) reads an object
// met as a value with localMembers, so that most containers are read
// without a trip through the loop, up to maxNested deep; spill moves
// local members onto the stack where the loop must take over; makeMap,
// endObject and endArray make containers; element and number make
// scalars; boxes box them.
//
// Errors are the scanner's (*tokenizer.Error, with the offset), which never
// quote the document.
func decodeValue(doc []byte, maxDepth int) (any, error) {
	d, _ := decoders.Get().(*decoder)
	if d == nil {
		d = new(decoder)
	}
	v, err := d.decode(doc, maxDepth)
	d.slab, d.slabUsed, d.slabSize = nil, 0, 0
	d.box.reset()
	// The stacks are cleared once, here, not as each container ends: the
	// values left on them must not stay alive in the pool.
	clear(d.vals[:cap(d.vals)])
	clear(d.ekeys[:cap(d.ekeys)])
	if d.small() {
		decoders.Put(d)
	}
	return v, err
}

// decoders keeps decoders, with their stacks, between queries.
var decoders sync.Pool

// decoder is the state of decodeValue, kept for reuse.
type decoder struct {
	sc     tokenizer.Scanner
	frames []frame  // open containers, innermost last
	vals   []any    // the values read in open containers, in order
	keys   []keyRef // the keys read in open objects, in order
	ekeys  []string // the keys that had escapes, unescaped
	esc    []byte   // scratch for unescaping
	// The slab arrays are cut from (array), the values of it used (an
	// index: cutting an array writes no pointer into the decoder, which
	// would take a write barrier while the collector marks), and the size
	// of the next one: all reset at each decode, so that no slab is kept
	// alive by the pool.
	slab     []any
	slabUsed int
	slabSize int
	box      boxes // the strings and numbers, in slabs too
	spans    [32]tokenizer.MemberElement
	espans   [32]tokenizer.ElementSpan
}

// frame is an open container: where its values and keys begin on the stacks.
type frame struct {
	obj  bool
	vals int
	keys int
}

// small reports whether the decoder's stacks are small enough to keep in
// the pool.
func (d *decoder) small() bool {
	return cap(d.vals) <= 1<<16 && cap(d.keys) <= 1<<16 && cap(d.ekeys) <= 1<<16 && cap(d.esc) <= 64<<10 && d.sc.Small()
}

func (d *decoder) decode(doc []byte, maxDepth int) (any, error) {
	d.sc.Reset(maxDepth)
	d.frames, d.vals, d.keys, d.ekeys = d.frames[:0], d.vals[:0], d.keys[:0], d.ekeys[:0]
	var str string
	if len(doc) > 0 {
		str = unsafe.String(&doc[0], len(doc))
	}
	var root any
	i := 0
	for {
		// Inside a container, the scanner's fast loops read runs of plain
		// members and scalar elements; Next reads the rest (containers,
		// and whatever the fast loops leave, errors included).
		if nf := len(d.frames); nf > 0 {
			var done bool
			var v any
			if d.frames[nf-1].obj {
				i, v, done = d.members(str, doc, i)
			} else {
				i, v, done = d.elements(str, doc, i)
			}
			if done {
				if len(d.frames) == 0 {
					root = v
				} else {
					d.vals = append(d.vals, v)
				}
				continue
			}
			if len(d.frames) > nf {
				continue // they opened a container (openObject, openLeaf): read it
			}
		}
		t, j, err := d.sc.Next(doc, i)
		if err != nil {
			return nil, err
		}
		i = j
		if t.More {
			// The token runs to the document's end: only a number may
			// (End says whether it is whole), and only at the top level.
			if err := d.sc.End(len(doc)); err != nil {
				return nil, err
			}
			return number(doc, t.Start, len(doc), &d.box), nil
		}
		var v any
		switch t.Kind {
		case tokenizer.None:
			if err := d.sc.End(len(doc)); err != nil {
				return nil, err
			}
			return root, nil
		case tokenizer.ObjectStart, tokenizer.ArrayStart:
			d.frames = append(d.frames, frame{obj: t.Kind == tokenizer.ObjectStart, vals: len(d.vals), keys: len(d.keys)})
			continue
		case tokenizer.ObjectEnd:
			v = d.endObject(str)
		case tokenizer.ArrayEnd:
			v = d.endArray()
		case tokenizer.String:
			if t.Key {
				d.keys = append(d.keys, d.keyRef(doc, t.Start, t.End, t.Escaped))
				continue
			}
			v = d.box.str(d.str(str, doc, t))
		case tokenizer.Number:
			v = number(doc, t.Start, t.End, &d.box)
		case tokenizer.True:
			v = true
		case tokenizer.False:
			v = false
		case tokenizer.Null:
			v = nil
		}
		if len(d.frames) == 0 {
			root = v
		} else {
			d.vals = append(d.vals, v)
		}
	}
}

// keyRef is a key on the stack: doc[a:b], or d.ekeys[-a-1] when a < 0.
// Offsets, not strings: the stack holds no pointers, which the collector
// would have to be told of at each push while it marks.
type keyRef struct{ a, b int }

// keyRef returns the key token doc[a:b] (with its quotes) as a keyRef.
// (Small enough to be inlined; a key with escapes takes escapedKey's call.)
func (d *decoder) keyRef(doc []byte, a, b int, escaped bool) keyRef {
	if escaped {
		return d.escapedKey(doc, a, b)
	}
	return keyRef{a + 1, b - 1}
}

// escapedKey is keyRef for a key with escapes. (Not inlined, so that keyRef
// is.)
//
//go:noinline
func (d *decoder) escapedKey(doc []byte, a, b int) keyRef {
	d.ekeys = append(d.ekeys, d.unescape(doc, a, b))
	return keyRef{-len(d.ekeys), 0}
}

// members reads the run of members at doc[i] whose values are scalars
// with the scanner's ScalarMembers loop, and the key of a member whose
// value is a container; an array value it reads itself when it is a leaf
// (openLeaf), an object value it opens for the loop in decode. When it
// read the object's end too, it returns the object, and true.
//
// An object read here from its start keeps its members in local arrays
// (on the goroutine's stack: no write barriers while the collector marks)
// and becomes its map at its end, at its exact size; past maxLocal
// members, or at a value that the loop in decode must read (an object, an
// array that is not a leaf, a scalar that is not whole), they go onto the
// stacks, as the members of an object read in several turns do.
func (d *decoder) members(str string, doc []byte, i int) (int, any, bool) {
	if f := d.frames[len(d.frames)-1]; len(d.keys) == f.keys && len(d.vals) == f.vals {
		return d.localMembers(str, doc, i)
	}
	n, at, stop := d.sc.ScalarMembers(doc, i, d.spans[:])
	return d.stackMembers(str, doc, n, at, stop)
}

// localMembers is members for an object read from its start.
func (d *decoder) localMembers(str string, doc []byte, i int) (int, any, bool) {
	fi := len(d.frames) - 1
	var lk [maxLocal]keyRef
	var lv [maxLocal]any
	nk := 0 // members in lk and lv, the last one's value still to read at a container
	for {
		n, at, stop := d.sc.ScalarMembers(doc, i, d.spans[:])
		if nk+n > maxLocal {
			d.spill(fi, lk[:nk], lv[:nk])
			return d.stackMembers(str, doc, n, at, stop)
		}
		for k := range d.spans[:n] {
			sp := &d.spans[k]
			lk[nk] = d.keyRef(doc, sp.KeyStart, sp.KeyEnd, sp.KeyEscaped)
			if sp.Value.End != 0 {
				lv[nk] = d.element(str, doc, &sp.Value)
			}
			nk++
		}
		i = at
		switch stop {
		case tokenizer.ObjectEnd:
			d.frames = d.frames[:fi]
			return i, d.makeMap(str, lk[:nk], lv[:nk]), true
		case tokenizer.ArrayStart: // read here when it is a leaf
			var v any
			var done bool
			if i, v, done = d.openLeaf(str, doc, i); done {
				lv[nk-1] = v
				continue
			}
			d.spill(fi, lk[:nk], lv[:nk-1])
			return i, nil, false
		case tokenizer.ObjectStart: // read here too, when it is small
			var v any
			var done bool
			if i, v, done = d.object(str, doc, i); done {
				lv[nk-1] = v
				continue
			}
			d.spill(fi, lk[:nk], lv[:nk-1])
			return i, nil, false
		}
		if n < len(d.spans) {
			d.spill(fi, lk[:nk], lv[:nk])
			return i, nil, false // Next reads what stopped it, or says why it cannot
		}
	}
}

// stackMembers is members for an object whose members go on the stacks,
// from the n spans of a call to ScalarMembers that returned at and stop.
func (d *decoder) stackMembers(str string, doc []byte, n, at int, stop tokenizer.Kind) (int, any, bool) {
	for {
		for k := range d.spans[:n] {
			sp := &d.spans[k]
			d.keys = append(d.keys, d.keyRef(doc, sp.KeyStart, sp.KeyEnd, sp.KeyEscaped))
			if sp.Value.End != 0 {
				d.vals = append(d.vals, d.element(str, doc, &sp.Value))
			}
		}
		i := at
		switch stop {
		case tokenizer.ObjectEnd:
			return i, d.endObject(str), true
		case tokenizer.ArrayStart:
			var v any
			var done bool
			if i, v, done = d.openLeaf(str, doc, i); !done {
				return i, nil, false
			}
			d.vals = append(d.vals, v)
		case tokenizer.ObjectStart:
			var v any
			var done bool
			if i, v, done = d.object(str, doc, i); !done {
				return i, nil, false
			}
			d.vals = append(d.vals, v)
		default:
			if n < len(d.spans) {
				return i, nil, false
			}
		}
		n, at, stop = d.sc.ScalarMembers(doc, i, d.spans[:])
	}
}

// maxLocal is the most members an object keeps in members' local arrays.
const maxLocal = 8

// spill puts the members of the object of frame fi that members kept in
// local arrays onto the stacks, where they would have been: beneath the
// values of the containers opened since (an array that openLeaf left open).
func (d *decoder) spill(fi int, keys []keyRef, vals []any) {
	f := d.frames[fi]
	d.keys = slices.Insert(d.keys, f.keys, keys...)
	// d.vals = slices.Insert(d.vals, f.vals, vals...), one value at a time
	// (moveVals).
	n, m := len(d.vals), len(vals)
	d.vals = slices.Grow(d.vals, m)[:n+m]
	for k := n - 1; k >= f.vals; k-- {
		d.vals[k+m] = d.vals[k]
	}
	moveVals(d.vals[f.vals:], vals)
	for k := fi + 1; k < len(d.frames); k++ {
		d.frames[k].keys += len(keys)
		d.frames[k].vals += len(vals)
	}
}

// elements reads the run of scalar elements at doc[i] with the scanner's
// ScalarElements, and an array that stops it (openLeaf). When it read the
// array's end too, it returns the array, and true.
//
// In an array that has no values yet, the elements go straight into the
// slab (leaf): a leaf array of scalars, most arrays, is made where it is
// read, not on the stack and then copied.
func (d *decoder) elements(str string, doc []byte, i int) (int, any, bool) {
	var stop tokenizer.Kind
	fromLeaf := false
	if f := d.frames[len(d.frames)-1]; len(d.vals) == f.vals {
		var v any
		var done bool
		if i, v, done, stop = d.leaf(str, doc, i); done {
			return i, v, true
		}
		fromLeaf = true // its elements are on the stack; stop says what stopped it
	}
	for {
		n := len(d.espans)
		if !fromLeaf {
			n, i, stop = d.sc.ScalarElements(doc, i, d.espans[:])
			for k := range d.espans[:n] {
				d.vals = append(d.vals, d.element(str, doc, &d.espans[k]))
			}
		}
		fromLeaf = false
		switch stop {
		case tokenizer.ArrayEnd:
			return i, d.endArray(), true
		case tokenizer.ArrayStart: // read here when it is a leaf
			var v any
			var done bool
			if i, v, done = d.openLeaf(str, doc, i); !done {
				return i, nil, false
			}
			d.vals = append(d.vals, v)
			continue
		case tokenizer.ObjectStart:
			var ok bool
			if i, ok = d.objectElement(str, doc, i); !ok {
				return i, nil, false
			}
			continue
		}
		if n < len(d.espans) {
			return i, nil, false // Next reads what stopped it, or says why it cannot
		}
	}
}

// objectElement reads the object at doc[i], an element of the innermost
// array, with localMembers, and puts it on the stack; it reports whether
// it did. An array of small objects, the commonest kind, is then read
// without a trip through the loop in decode for each, and an object
// whose member is such an array (openLeaf) without spilling its members.
// Otherwise the object is left open (its frame pushed) for the loop in
// decode, or, where it cannot be opened (too deep), unopened for Next.
//
// localMembers and openLeaf call each other through here (and
// localMembers itself, for an object's object, through object): past
// maxNested open containers, the object is left to the loop in decode,
// so that the goroutine's stack stays small however deep the document.
func (d *decoder) objectElement(str string, doc []byte, i int) (int, bool) {
	i, v, done := d.object(str, doc, i)
	if done {
		d.vals = append(d.vals, v)
	}
	return i, done
}

// object reads the object at doc[i], a member's value or an element, with
// localMembers; when it ended there, it returns it, and true. Otherwise
// the object is left open for the loop in decode, as objectElement says.
func (d *decoder) object(str string, doc []byte, i int) (int, any, bool) {
	nf := len(d.frames)
	if i, _, _ = d.openObject(doc, i); len(d.frames) == nf || nf >= maxNested {
		return i, nil, false
	}
	return d.localMembers(str, doc, i)
}

// maxNested is the most open containers at which object reads an object
// itself.
const maxNested = 32

// openObject opens the object at doc[i], where ScalarElements or Members
// left a value, for the loop in decode to read; where it cannot be opened
// (too deep), nothing is consumed, and Next says why.
func (d *decoder) openObject(doc []byte, i int) (int, any, bool) {
	j := i + 1
	if !d.sc.OpenFast(true) {
		var err error
		if j, err = d.sc.Open(doc, i); err != nil {
			return i, nil, false
		}
	}
	d.frames = append(d.frames, frame{obj: true, vals: len(d.vals), keys: len(d.keys)})
	return j, nil, false
}

// openLeaf opens the array at doc[i], where ScalarElements or Members left a
// value, and reads it with leaf: it returns the array, and true, when it
// ended there. Otherwise the array stays open (its frame pushed) for the
// loop in decode; where it cannot be opened (too deep), nothing is
// consumed, and Next says why.
func (d *decoder) openLeaf(str string, doc []byte, i int) (int, any, bool) {
	j := i + 1
	if !d.sc.OpenFast(false) {
		var err error
		if j, err = d.sc.Open(doc, i); err != nil {
			return i, nil, false
		}
	}
	d.frames = append(d.frames, frame{vals: len(d.vals), keys: len(d.keys)})
	i, v, done, stop := d.leaf(str, doc, j)
	if stop == tokenizer.ObjectStart {
		// An array of objects: read here too, when they are small.
		var ok bool
		if i, ok = d.objectElement(str, doc, i); !ok {
			return i, nil, false
		}
		return d.elements(str, doc, i)
	}
	return i, v, done
}

// leaf reads the elements of the array that has just opened straight into
// the slab, while they are scalars and fit in one. When the array ends
// there, leaf returns it, and true; otherwise what it read goes onto the
// stack, and it returns what stopped ScalarElements (a container, or None),
// for the caller to go on.
func (d *decoder) leaf(str string, doc []byte, i int) (int, any, bool, tokenizer.Kind) {
	a := d.slab[d.slabUsed:d.slabUsed] // appended to in place, up to the slab's end
	for {
		n, at, stop := d.sc.ScalarElements(doc, i, d.espans[:])
		if len(a)+n > cap(a) {
			if len(a)+n > maxSlab/4 {
				// Large: on the stack, and made at its exact size.
				d.vals = append(d.vals, a...)
				clear(a)
				for k := range d.espans[:n] {
					d.vals = append(d.vals, d.element(str, doc, &d.espans[k]))
				}
				if stop == tokenizer.ArrayEnd {
					return at, d.endArray(), true, stop
				}
				return at, nil, false, stop
			}
			old := a
			d.newSlab(len(a) + n)
			a = append(d.slab[:0], old...)
			clear(old) // the old slab's rest is left unused
		}
		for k := range d.espans[:n] {
			a = append(a, d.element(str, doc, &d.espans[k]))
		}
		i = at
		if stop == tokenizer.ArrayEnd {
			d.frames = d.frames[:len(d.frames)-1]
			if len(a) == 0 {
				return i, d.box.array([]any{}), true, stop
			}
			d.slabUsed += len(a)
			return i, d.box.array(a[:len(a):len(a)]), true, stop
		}
		if n < len(d.espans) || stop != tokenizer.None {
			d.vals = append(d.vals, a...)
			clear(a)
			return i, nil, false, stop
		}
	}
}

// element is the value of the scalar sp that ScalarElements or
// ScalarMembers read: a number from its parts, a string copied only when
// the scanner saw an escape in it.
func (d *decoder) element(str string, doc []byte, sp *tokenizer.ElementSpan) any {
	switch c := doc[sp.Start]; c {
	case '"':
		s := str[sp.Start+1 : sp.End-1]
		if sp.Escaped {
			s = d.unescape(doc, sp.Start, sp.End)
		}
		return d.box.str(s)
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	return numberFromParts(doc, sp.Start, sp.End, &sp.Num, &d.box)
}

// endObject closes the innermost object: its members are the keys and
// values on the stacks since it opened; a later duplicate key wins.
func (d *decoder) endObject(str string) any {
	f := d.frames[len(d.frames)-1]
	d.frames = d.frames[:len(d.frames)-1]
	m := d.makeMap(str, d.keys[f.keys:], d.vals[f.vals:])
	d.keys, d.vals = d.keys[:f.keys], d.vals[:f.vals]
	return m
}

// makeMap makes the object of the members keys and vals, at its exact
// size; a later duplicate key wins.
func (d *decoder) makeMap(str string, keys []keyRef, vals []any) map[string]any {
	m := make(map[string]any, len(keys))
	vals = vals[:len(keys)]
	for k, key := range keys {
		if key.a >= 0 {
			m[str[key.a:key.b]] = vals[k]
		} else {
			m[d.ekeys[-key.a-1]] = vals[k]
		}
	}
	return m
}

// endArray closes the innermost array.
func (d *decoder) endArray() any {
	f := d.frames[len(d.frames)-1]
	d.frames = d.frames[:len(d.frames)-1]
	a := d.array(len(d.vals) - f.vals)
	moveVals(a, d.vals[f.vals:])
	d.vals = d.vals[:f.vals]
	return d.box.array(a)
}

// moveVals copies src to the start of dst one value at a time. copy
// would take the runtime's bulk barrier while the collector marks
// (bulkBarrierPreWrite), which walks the type's pointer bitmap and
// records both words of each value: several times the cost of the
// compiler's barrier on each store, which records only the data word.
func moveVals(dst, src []any) {
	dst = dst[:len(src)]
	//lint:ignore S1001 copy is what this avoids (above)
	for k, v := range src {
		dst[k] = v
	}
}

// array returns a slice of n values for an array: a part of the slab,
// where arrays are made together, a few allocations for many arrays. Each
// has its capacity cut to its length, so that an append copies it.
func (d *decoder) array(n int) []any {
	if n == 0 {
		return []any{} // not nil: gojq's [] (no allocation)
	}
	if n > len(d.slab)-d.slabUsed {
		if n > maxSlab/4 {
			return make([]any, n)
		}
		d.newSlab(n)
	}
	a := d.slab[d.slabUsed : d.slabUsed+n : d.slabUsed+n]
	d.slabUsed += n
	return a
}

// newSlab replaces the slab with a new one, of n values at least.
func (d *decoder) newSlab(n int) {
	d.slabSize = min(max(2*d.slabSize, 64), maxSlab)
	d.slab, d.slabUsed = make([]any, max(d.slabSize, n)), 0
}

// maxSlab is the most values in one slab (16 bytes each).
const maxSlab = 4096

// str returns the string token t: a slice of str when it has no escapes,
// else a new string with them decoded.
func (d *decoder) str(str string, doc []byte, t tokenizer.Token) string {
	if !t.Escaped {
		return str[t.Start+1 : t.End-1]
	}
	return d.unescape(doc, t.Start, t.End)
}

// unescape returns the string token doc[a:b] (with its quotes) with its
// escapes decoded. The scratch it is decoded in is written back only when
// it grew: a write of it, a pointer into the decoder, would take a write
// barrier while the collector marks.
func (d *decoder) unescape(doc []byte, a, b int) string {
	e := tokenizer.AppendUnescapedAs(d.esc[:0], doc[a+1:b-1], tokenizer.Replace)
	if cap(e) > cap(d.esc) {
		d.esc = e
	}
	return string(e)
}

// number converts the validated number literal doc[a:end] as gojq does: an
// int when it is an integer that fits, a float64 when it has a fraction or
// exponent, else a *big.Int; ±Inf past float64's range. It reads the
// integer part's digits once, for the int and for the float alike.
func number(doc []byte, a, end int, box *boxes) any {
	i, neg := a, doc[a] == '-'
	if neg {
		i++
	}
	man, j := readDigits(doc, i, end, 0)
	if j < end { // '.', 'e' or 'E'
		if f, ok := parseFloat(doc, end, man, i, j, neg); ok {
			return box.float(f)
		}
		if f, err := strconv.ParseFloat(string(doc[a:end]), 64); err == nil {
			return f
		}
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if j-i <= 18 { // up to 18 digits always fit in an int64
		n := int(man)
		if neg {
			n = -n
		}
		return box.int(n)
	}
	if n, err := strconv.ParseInt(string(doc[a:end]), 10, 64); err == nil && math.MinInt <= n && n <= math.MaxInt {
		return int(n)
	}
	n, _ := new(big.Int).SetString(string(doc[a:end]), 10)
	return n
}

// numberFromParts is number for a number that the scanner read into its
// parts p as it validated doc[a:end].
func numberFromParts(doc []byte, a, end int, p *tokenizer.NumberParts, box *boxes) any {
	if p.Int {
		if p.Digits <= 18 { // up to 18 digits always fit in an int64
			n := int(p.Mantissa)
			if p.Neg {
				n = -n
			}
			return box.int(n)
		}
	} else if p.Digits <= 19 {
		if f, ok := floatFromParts(p.Mantissa, p.Exp, p.Neg); ok {
			return box.float(f)
		}
	}
	return number(doc, a, end, box)
}
