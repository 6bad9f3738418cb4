package fallback

import (
	"math"
	"reflect"
	"sync"

	"github.com/jsonmask/jsonmask/compile"
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
// json.Marshal and the machine's Append would give, by plans built once per Go type and mask
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
	return dst, withPointer(err)
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
