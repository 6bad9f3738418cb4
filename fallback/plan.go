package fallback

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// This file masks Go values with plans: per Go type and mask node, a
// function built once that walks only what the node keeps. A struct's plan
// holds the fields the node names, each with the encoder of its type (kept
// whole) or the plan of its type under the nested node; a map's plan looks
// each key up; containers' plans hand their elements to the plan of the
// element type under the same node (arrays are transparent, SPEC A3). What
// the mask drops is never encoded, nor read.

// ValueEncoder masks Go values with one compiled mask: it appends what
// ReferenceValue appends, faster, by plans built once per Go type and mask
// node and kept for the encoder's life (a type's plans are those of its
// fields and elements, so a program's set of types bounds them). It is safe
// for concurrent use; its plans do not depend on the options, so one
// encoder serves a Program under any ValueOptions.
type ValueEncoder struct {
	prog  *compile.Program
	plans sync.Map // planKey -> planFunc
	nodes sync.Map // int32 -> *nodeKeys
}

// NewValueEncoder returns a ValueEncoder for prog.
func NewValueEncoder(prog *compile.Program) *ValueEncoder {
	return &ValueEncoder{prog: prog}
}

type planKey struct {
	t    reflect.Type
	node int32
}

// planFunc appends v, a value where a nested mask applies, masked, and
// reports whether it appended anything: under SPEC A6 a scalar is dropped.
type planFunc func(s *encState, v reflect.Value, quoted bool) (kept bool, err error)

// Append appends the JSON encoding of v, masked, to dst: the bytes that
// masking encoding/json's encoding of v would give (SPEC sections 2 and 3),
// without encoding what the mask drops.
//
// It fails where encoding/json would fail on what it encodes: a NaN or
// infinite float, an invalid json.Number, a method that fails or writes
// invalid JSON, a channel, function, complex number or map with keys of
// another kind, a cycle; and, as Append would, where the encoding nests
// deeper than opt.MaxDepth (*DepthError). Members the mask does not name are
// not looked at, nor are scalars that SPEC A6 drops: they cannot fail.
func (e *ValueEncoder) Append(dst []byte, v any, opt ValueOptions) ([]byte, error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = tokenizer.DefaultMaxDepth
	}
	s := states.Get().(*encState)
	s.b, s.enc, s.prog, s.opt = dst, e, e.prog, opt
	s.depth, s.maxDepth, s.ptrLevel, s.unmasked = 0, opt.MaxDepth, 0, false
	err := s.root(v)
	dst = s.b
	s.release(err)
	return dst, finish(err)
}

// class is what a root value encodes to, as far as SPEC B1 to B4 care.
type class uint8

const (
	passed   class = iota // not an object, nor an array under Arrays: as it is
	object                // a struct or a map: masked
	array                 // a slice or an array: masked under Arrays
	byMethod              // its own method decides
)

// classify follows pointers and interfaces from v, as encoding/json does, to
// what decides the encoding's first byte: a method, a nil, or a kind. A
// pointer that leads to itself (type P *P) is passed on to the encoder,
// which finds the cycle.
func classify(v reflect.Value) (reflect.Value, class, method, bool) {
	for range cycleAfter {
		if m, onAddr := methodOf(v.Type(), v.CanAddr()); m != noMethod {
			return v, byMethod, m, onAddr
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return v, passed, noMethod, false
			}
			v = v.Elem()
			continue
		case reflect.Struct:
			return v, object, noMethod, false
		case reflect.Map:
			if !v.IsNil() {
				return v, object, noMethod, false
			}
		case reflect.Slice:
			if !v.IsNil() && !isBytes(v.Type()) {
				return v, array, noMethod, false
			}
		case reflect.Array:
			return v, array, noMethod, false
		}
		break
	}
	return v, passed, noMethod, false
}

// root appends v at the top of the document. A value whose encoding is an
// object (or an array, under Arrays) goes through the plan of its type at
// the mask's root, as it would nested; any other is encoded as it is, with
// no limit on its depth (SPEC B3: Append would not look at it).
func (s *encState) root(v any) error {
	if m, ok := v.(map[string]any); ok && m != nil {
		_, err := s.maskMapAny(m, 0)
		return err
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		s.b = append(s.b, "null"...)
		return s.passThrough(len(s.b) - 4)
	}
	e, c, m, onAddr := classify(rv)
	switch {
	case c == object || c == array && s.opt.Arrays:
		_, err := s.enc.plan(rv.Type(), 0)(s, rv, false)
		return err
	case c == byMethod:
		// What it encodes to decides: masked (and checked) if an object,
		// else passed on as it is.
		mark := len(s.b)
		s.unmasked = true
		err := s.appendMethod(e, m, onAddr)
		s.unmasked = false
		if err != nil {
			return err
		}
		if first := s.b[mark]; first == '{' || first == '[' && s.opt.Arrays {
			s.raw = append(s.raw[:0], s.b[mark:]...)
			s.b = s.b[:mark]
			_, err := s.maskRaw(0)
			return err
		}
		return s.passThrough(mark)
	}
	s.maxDepth, s.unmasked = math.MaxInt, true
	mark := len(s.b)
	err := encoderOf(rv.Type())(s, rv, false)
	s.unmasked = false
	if err != nil {
		return err
	}
	return s.passThrough(mark)
}

// passThrough keeps what s.b holds from mark on, the encoding of a root that
// is not masked (SPEC B3), or rejects it (B5).
func (s *encState) passThrough(mark int) error {
	if s.opt.Strict {
		first := s.b[mark]
		s.b = s.b[:mark]
		return &NotObjectError{First: first, Arrays: s.opt.Arrays}
	}
	return nil
}

// plan returns the plan of type t under node, built once. A recursive type
// meets its own entry while it is being built, as in encoderOf.
func (e *ValueEncoder) plan(t reflect.Type, node int32) planFunc {
	key := planKey{t, node}
	if f, ok := e.plans.Load(key); ok {
		return f.(planFunc)
	}
	built := sync.OnceValue(func() planFunc { return e.newPlan(t, node, true) })
	f, loaded := e.plans.LoadOrStore(key, planFunc(func(s *encState, v reflect.Value, q bool) (bool, error) {
		return built()(s, v, q)
	}))
	if loaded {
		return f.(planFunc)
	}
	e.plans.Store(key, built())
	return built()
}

// newPlan builds the plan of type t under node; allowAddr as in newEncoder.
func (e *ValueEncoder) newPlan(t reflect.Type, node int32, allowAddr bool) planFunc {
	if allowAddr {
		if m, onAddr := methodOf(t, true); onAddr {
			withMethod, without := methodPlan(m, true, node), e.newPlan(t, node, false)
			return func(s *encState, v reflect.Value, q bool) (bool, error) {
				if v.CanAddr() {
					return withMethod(s, v, q)
				}
				return without(s, v, q)
			}
		}
	}
	if m, _ := methodOf(t, false); m != noMethod {
		return methodPlan(m, false, node)
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return scalarPlan(encoderOf(t))
	case reflect.Pointer:
		return e.newPointerPlan(t, node)
	case reflect.Interface:
		return newInterfacePlan(t, node)
	case reflect.Struct:
		return e.newStructPlan(t, node)
	case reflect.Map:
		return e.newMapPlan(t, node)
	case reflect.Slice:
		if isBytes(t) {
			return scalarPlan(encodeBytes)
		}
		return e.newSlicePlan(t, node)
	case reflect.Array:
		return e.newArrayPlan(t, node)
	}
	enc := unsupported(t)
	return func(s *encState, v reflect.Value, q bool) (bool, error) { return false, enc(s, v, q) }
}

// null is a nil where a nested mask applies: the scalar null (SPEC A4, A6).
func (s *encState) null() (bool, error) {
	if s.opt.DropMismatched {
		return false, nil
	}
	s.b = append(s.b, "null"...)
	return true, nil
}

// scalarPlan is the plan of a scalar type (or of []byte, a base64 string):
// kept as it is (SPEC A4), or dropped unread (A6).
func scalarPlan(enc encoderFunc) planFunc {
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if s.opt.DropMismatched {
			return false, nil
		}
		return true, enc(s, v, q)
	}
}

// methodPlan is the plan of a type with a method of its own: what the method
// writes is masked as a document would be (through the reference's tree:
// such values are the exception).
func methodPlan(m method, onAddr bool, node int32) planFunc {
	return func(s *encState, v reflect.Value, _ bool) (bool, error) {
		mark := len(s.b)
		if err := s.appendMethod(v, m, onAddr); err != nil {
			return false, err
		}
		if c := s.b[mark]; c != '{' && c != '[' {
			if s.opt.DropMismatched {
				s.b = s.b[:mark]
				return false, nil
			}
			return true, nil
		}
		s.raw = append(s.raw[:0], s.b[mark:]...)
		s.b = s.b[:mark]
		return s.maskRaw(node)
	}
}

// maskRaw appends s.raw, a method's valid JSON, masked by node.
func (s *encState) maskRaw(node int32) (bool, error) {
	if err := s.checkNesting(s.raw); err != nil {
		return false, err
	}
	tree, err := decode(s.raw, s.maxDepth)
	if err != nil {
		return false, err
	}
	kept, ok := applyProgram(s.prog, node, tree, s.opt.DropMismatched)
	if ok {
		s.b = encode(s.b, kept)
	}
	return ok, nil
}

func (e *ValueEncoder) newPointerPlan(t reflect.Type, node int32) planFunc {
	elem := e.plan(t.Elem(), node)
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if v.IsNil() {
			return s.null()
		}
		self := func() reflect.Value { return v }
		if err := s.enter(self); err != nil {
			return false, err
		}
		kept, err := elem(s, v.Elem(), q)
		if err == nil {
			s.leave(self)
		}
		return kept, err
	}
}

func newInterfacePlan(t reflect.Type, node int32) planFunc {
	empty := t.NumMethod() == 0
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if v.IsNil() {
			return s.null()
		}
		if empty {
			return s.maskAny(v.Interface(), node)
		}
		el := v.Elem()
		return s.enc.plan(el.Type(), node)(s, el, q)
	}
}

// maskAny appends x where node applies: what a field or element of type
// any, or a map[string]any, holds. The types that decoded JSON holds go
// without reflect.
func (s *encState) maskAny(x any, node int32) (bool, error) {
	switch x := x.(type) {
	case nil:
		return s.null()
	case map[string]any:
		return s.maskMapAny(x, node)
	case []any:
		return s.maskSliceAny(x, node)
	case string, float64, bool:
		if s.opt.DropMismatched {
			return false, nil
		}
		return true, s.appendAny(x)
	}
	v := reflect.ValueOf(x)
	return s.enc.plan(v.Type(), node)(s, v, false)
}

// keptField is a struct field that a mask node names.
type keptField struct {
	structField
	enc  encoderFunc // the mask keeps it whole
	plan planFunc    // or applies a nested node to it
}

func (e *ValueEncoder) newStructPlan(t reflect.Type, node int32) planFunc {
	var fields []keptField
	for _, f := range typeFields(t) {
		en := e.prog.Lookup(node, []byte(f.name)) // f.name is valid UTF-8: the key as Append would see it
		if en == compile.NoEntry {
			continue
		}
		k := keptField{structField: f}
		if sub := e.prog.Entry(en).Node; sub == compile.Keep {
			k.enc = encoderOf(f.typ)
		} else {
			k.plan = e.plan(f.typ, sub)
		}
		fields = append(fields, k)
	}
	return func(s *encState, v reflect.Value, _ bool) (bool, error) {
		if err := s.open('{'); err != nil {
			return false, err
		}
		wrote := false
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldOf(v, f.index)
			if !ok || f.omitted(fv) {
				continue
			}
			mark := len(s.b)
			if wrote {
				s.b = append(s.b, ',')
			}
			s.b = append(s.b, f.key...)
			if f.enc != nil {
				if err := f.enc(s, fv, f.quoted); err != nil {
					return false, under(err, f.name)
				}
			} else if kept, err := f.plan(s, fv, f.quoted); err != nil {
				return false, under(err, f.name)
			} else if !kept {
				s.b = s.b[:mark] // SPEC A6: the member goes, key and all
				continue
			}
			wrote = true
		}
		s.close('}')
		return true, nil
	}
}

// lookup returns node's entry for a Go string key. encoding/json writes a
// byte that is not UTF-8 as \ufffd, so a key with one is looked up as
// Append would see it.
func (s *encState) lookup(nk *nodeKeys, node int32, key string) int32 {
	// Lookup reads key and keeps nothing of it: no copy of every key.
	en := s.prog.Lookup(node, unsafe.Slice(unsafe.StringData(key), len(key)))
	if en == compile.NoEntry && !nk.fffd || utf8.ValidString(key) {
		return en // as it is written; or nothing, which only a key with U+FFFD could change
	}
	return s.prog.Lookup(node, []byte(keyOf(key)))
}

// nodeKeys is what the plans of maps need to know of a mask node's keys.
type nodeKeys struct {
	node    int32
	keys    []string // the keys that a Go string can be written as, in order
	written []string // each as a member's start: `"key":`, escaped
	subs    []int32  // their entries' nodes
	// direct: a key of the map that is not one of keys has no entry (no key
	// holds U+FFFD, and the node matches nothing else, as a wildcard would),
	// so the node's keys can be looked up in the map instead.
	direct bool
	// fffd: a key holds U+FFFD, which a Go key that is not UTF-8 is
	// written with: such a key must be looked up as Append would see it.
	fffd bool
}

// keysOf returns node's nodeKeys, made once.
func (e *ValueEncoder) keysOf(node int32) *nodeKeys {
	if nk, ok := e.nodes.Load(node); ok {
		return nk.(*nodeKeys)
	}
	nk := &nodeKeys{node: node}
	for _, en := range e.prog.Keys(node) {
		k := e.prog.Entry(en)
		if strings.ContainsRune(k.Key, utf8.RuneError) {
			nk.fffd = true
		}
		if utf8.ValidString(k.Key) { // encoding/json writes no other: "\ud800" in a mask matches no Go key
			nk.keys, nk.subs = append(nk.keys, k.Key), append(nk.subs, k.Node)
			nk.written = append(nk.written, string(jsonwire.AppendMarshalString(nil, k.Key))+":")
		}
	}
	nk.direct = !nk.fffd && e.prog.Lookup(node, []byte{0xFF}) == compile.NoEntry // 0xFF is in no JSON key
	got, _ := e.nodes.LoadOrStore(node, nk)
	return got.(*nodeKeys)
}

// keeps reports whether node keeps the member of key k whose value is a
// string: it names it, and keeps it whole or keeps scalars (SPEC A4, A6).
func (nk *nodeKeys) keeps(s *encState, k string) bool {
	en := s.lookup(nk, nk.node, k)
	return en != compile.NoEntry && (!s.opt.DropMismatched || s.prog.Entry(en).Node == compile.Keep)
}

// maskMapAny appends m, masked by node: the members the node names, sorted
// by key as encoding/json sorts them. Only those are read: where m has more
// members than node has keys, the keys are looked up in m, in order.
func (s *encState) maskMapAny(m map[string]any, node int32) (bool, error) {
	if m == nil {
		return s.null()
	}
	self := func() reflect.Value { return reflect.ValueOf(m) }
	if err := s.begin(self, '{'); err != nil {
		return false, err
	}
	wrote := false
	if nk := s.enc.keysOf(node); nk.direct && len(m) > len(nk.keys) {
		for i, k := range nk.keys {
			if x, ok := m[k]; ok {
				var err error
				if wrote, err = s.anyMember(k, nk.written[i], x, nk.subs[i], wrote); err != nil {
					return false, err
				}
			}
		}
	} else {
		base := len(s.anyEntries)
		for k, x := range m {
			if en := s.lookup(nk, node, k); en != compile.NoEntry {
				s.anyEntries = append(s.anyEntries, anyEntry{k, x, s.prog.Entry(en).Node})
			}
		}
		end := len(s.anyEntries)
		if end-base > 1 {
			slices.SortFunc(s.anyEntries[base:end], compareAny)
		}
		for i := base; i < end; i++ {
			e := s.anyEntries[i]
			var err error
			if wrote, err = s.anyMember(e.name, "", e.v, e.node, wrote); err != nil {
				return false, err
			}
		}
		clear(s.anyEntries[base:end])
		s.anyEntries = s.anyEntries[:base]
	}
	s.end(self, '}')
	return true, nil
}

// anyMember writes member name of a map[string]any (written: its start,
// `"name":`, if known), its value x under node sub, after a comma if a
// member was written before; it reports whether one has been written now.
func (s *encState) anyMember(name, written string, x any, sub int32, wrote bool) (bool, error) {
	mark := len(s.b)
	if wrote {
		s.b = append(s.b, ',')
	}
	if written != "" {
		s.b = append(s.b, written...)
	} else {
		s.b = append(jsonwire.AppendMarshalString(s.b, name), ':')
	}
	if sub == compile.Keep {
		return true, under(s.appendAny(x), name)
	}
	kept, err := s.maskAny(x, sub)
	if err != nil {
		return false, under(err, name)
	}
	if !kept {
		s.b = s.b[:mark] // SPEC A6: the member goes, key and all
		return wrote, nil
	}
	return true, nil
}

func (s *encState) maskSliceAny(a []any, node int32) (bool, error) {
	if a == nil {
		return s.null()
	}
	self := func() reflect.Value { return reflect.ValueOf(a) }
	if err := s.begin(self, '['); err != nil {
		return false, err
	}
	wrote := false
	for i, x := range a {
		mark := len(s.b)
		if wrote {
			s.b = append(s.b, ',')
		}
		if kept, err := s.maskAny(x, node); err != nil {
			return false, underIndex(err, i)
		} else if !kept {
			s.b = s.b[:mark]
			continue
		}
		wrote = true
	}
	s.end(self, ']')
	return true, nil
}

func (e *ValueEncoder) newMapPlan(t reflect.Type, node int32) planFunc {
	keyName, ok := mapKeyFunc(t.Key())
	if !ok {
		enc := unsupported(t)
		return func(s *encState, v reflect.Value, q bool) (bool, error) { return false, enc(s, v, q) }
	}
	switch t { // without reflect, the common ones
	case mapStringAnyType:
		return func(s *encState, v reflect.Value, _ bool) (bool, error) {
			return s.maskMapAny(v.Interface().(map[string]any), node)
		}
	case mapStringStringType:
		return func(s *encState, v reflect.Value, _ bool) (bool, error) {
			if v.IsNil() {
				return s.null()
			}
			return true, s.appendMapString(v.Interface().(map[string]string), s.enc.keysOf(node))
		}
	}
	keep := encoderOf(t.Elem())
	values := valuesOf(t.Elem())
	return func(s *encState, v reflect.Value, _ bool) (bool, error) {
		if v.IsNil() {
			return s.null()
		}
		self := func() reflect.Value { return v }
		if err := s.begin(self, '{'); err != nil {
			return false, err
		}
		base := len(s.entries)
		nk := s.enc.keysOf(node)
		err := s.members(v, keyName, values, func(name string) (int32, bool) {
			en := s.lookup(nk, node, name)
			if en == compile.NoEntry {
				return 0, false
			}
			return s.prog.Entry(en).Node, true
		})
		if err != nil {
			return false, err
		}
		end := len(s.entries)
		if end-base > 1 {
			slices.SortFunc(s.entries[base:end], compareEntries)
		}
		wrote := false
		for i := base; i < end; i++ {
			me := s.entries[i]
			mark := len(s.b)
			if wrote {
				s.b = append(s.b, ',')
			}
			s.b = append(jsonwire.AppendMarshalString(s.b, me.name), ':')
			if me.node == compile.Keep {
				if err := keep(s, me.v, false); err != nil {
					return false, under(err, me.name)
				}
			} else if kept, err := e.plan(t.Elem(), me.node)(s, me.v, false); err != nil {
				return false, under(err, me.name)
			} else if !kept {
				s.b = s.b[:mark]
				continue
			}
			wrote = true
		}
		clear(s.entries[base:end])
		s.entries = s.entries[:base]
		s.end(self, '}')
		return true, nil
	}
}

func (e *ValueEncoder) newSlicePlan(t reflect.Type, node int32) planFunc {
	array := e.newArrayPlan(t, node)
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if v.IsNil() {
			return s.null()
		}
		self := func() reflect.Value { return v }
		if err := s.enter(self); err != nil {
			return false, err
		}
		if _, err := array(s, v, q); err != nil {
			return false, err
		}
		s.leave(self)
		return true, nil
	}
}

// newArrayPlan is the plan of slices and arrays: each element under the same
// node (SPEC A3), those that A6 drops left out.
func (e *ValueEncoder) newArrayPlan(t reflect.Type, node int32) planFunc {
	elem := e.plan(t.Elem(), node)
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if err := s.open('['); err != nil {
			return false, err
		}
		wrote := false
		for i := range v.Len() {
			mark := len(s.b)
			if wrote {
				s.b = append(s.b, ',')
			}
			if kept, err := elem(s, v.Index(i), q); err != nil {
				return false, underIndex(err, i)
			} else if !kept {
				s.b = s.b[:mark]
				continue
			}
			wrote = true
		}
		s.close(']')
		return true, nil
	}
}
