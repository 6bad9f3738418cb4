package reference

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/fallback"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// ReferenceValue is the reference for ValueEncoder.Append, the simple way:
// it appends the JSON encoding of v, masked by prog, to dst: what
// encoding/json would write for v, masked as a body is (SPEC sections 2 and
// 3), without encoding what the mask drops. It walks structs (exported
// fields, json tags, omitempty, omitzero), maps with string or integer keys,
// slices, arrays, pointers and interfaces with reflect, and encodes the
// values the mask keeps whole with encoding/json.
// A value it does not walk (one with a MarshalJSON or MarshalText method, a
// struct with embedded fields or ",string" options, a map with other keys) is
// encoded whole by encoding/json and then masked. The root takes the path
// that the same value takes nested: only what it encodes to decides whether
// it is masked. A value nested deeper than opt.MaxDepth gives a
// *fallback.DepthError (without its Pointer).
func ReferenceValue(dst []byte, prog *compile.Program, v any, opt fallback.ValueOptions) ([]byte, error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = tokenizer.DefaultMaxDepth
	}
	w := &valueWriter{opt: opt}
	root := maskOf(prog, 0)
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return passThrough(dst, []byte("null"), opt)
	}
	e, isNil := rv, false
	if !opaque(rv) {
		e, isNil = deref(rv)
	}
	var err error
	switch {
	case isNil:
		return passThrough(dst, []byte("null"), opt)
	case opaque(e):
		// What it encodes to decides (SPEC B2, B3).
		var b []byte
		if b, err = marshal(e); err != nil {
			return dst, err
		}
		if b[0] == '{' || b[0] == '[' && opt.Arrays {
			dst, _, err = w.maskBytes(dst, root, b, 0)
			return dst, err
		}
		return passThrough(dst, b, opt)
	case isObject(e) || isArray(e) && opt.Arrays:
		dst, _, err = w.nested(dst, root, rv, 1)
		return dst, err
	}
	b, err := marshal(rv)
	if err != nil {
		return dst, err
	}
	return passThrough(dst, b, opt)
}

// passThrough appends b, the encoding of a root that is not masked, as it
// is (SPEC B3), or rejects it (B5).
func passThrough(dst, b []byte, opt fallback.ValueOptions) ([]byte, error) {
	if opt.Strict {
		return dst, &fallback.NotObjectError{First: b[0], Arrays: opt.Arrays}
	}
	return append(dst, b...), nil
}

type valueWriter struct {
	opt fallback.ValueOptions
}

// opaque reports whether v is encoded by a method of its own (encoding/json
// calls MarshalJSON or MarshalText before it looks inside), or is a struct or
// map this walker leaves to the encoder.
func opaque(v reflect.Value) bool {
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	if v.CanAddr() {
		if pt := reflect.PointerTo(t); pt.Implements(marshalerType) || pt.Implements(textMarshalerType) {
			return true
		}
	}
	switch t.Kind() {
	case reflect.Struct:
		return fieldsOf(t) == nil
	case reflect.Map:
		k := t.Key()
		if k.Kind() == reflect.String {
			return false // a string key is itself, even with a MarshalText method
		}
		if k.Implements(textMarshalerType) {
			return true // an integer key with MarshalText is its text
		}
		switch k.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return false
		}
		return true
	}
	return false
}

// deref follows pointers and interfaces to the value encoded, stopping at a
// value with a method of its own; isNil reports a nil on the way (null). A
// pointer that leads back to itself (type P *P) is left to encoding/json,
// which reports the cycle.
func deref(v reflect.Value) (_ reflect.Value, isNil bool) {
	for steps := 0; (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && steps < 1000; steps++ {
		if v.IsNil() {
			return v, true
		}
		v = v.Elem()
		if opaque(v) {
			return v, false
		}
	}
	return v, false
}

// refused reports whether encoding/json refuses v wherever it is: a channel,
// a function, a complex number, or a pointer that deref left because it
// leads back to itself.
func refused(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer,
		reflect.Pointer, reflect.Interface:
		return true
	}
	return false
}

func isObject(v reflect.Value) bool {
	return v.Kind() == reflect.Struct || v.Kind() == reflect.Map && !v.IsNil()
}

func isArray(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array:
		return true // [N]byte too: only a []byte slice is a base64 string
	case reflect.Slice:
		return !v.IsNil() && !isBytes(v.Type())
	}
	return false
}

// marshal encodes a value kept whole with encoding/json, through its address
// where it has one, so that methods on the pointer are called as they are in
// place. (Not sonic, which DESIGN.md suggested: its CPU detection fails at
// init under the noasm build tag, which jsonmask's kernels and
// klauspost/compress honour.)
func marshal(v reflect.Value) ([]byte, error) {
	if !v.CanInterface() {
		return nil, errs.New("cannot encode an unexported value")
	}
	if v.CanAddr() {
		return json.Marshal(v.Addr().Interface())
	}
	return json.Marshal(v.Interface())
}

// member is one member of an object, its key as a Go string.
type member struct {
	key   string
	value reflect.Value
}

// object writes the members of the struct or map v that rm keeps.
func (w *valueWriter) object(dst []byte, rm *refMask, v reflect.Value, depth int) ([]byte, error) {
	if depth > w.opt.MaxDepth {
		return dst, &fallback.DepthError{Limit: w.opt.MaxDepth}
	}
	dst = append(dst, '{')
	wrote := false
	var err error
	for _, m := range members(v) {
		key, _ := json.Marshal(m.key) // encoding/json's escaping, HTML included
		var name string               // as Append reads it: a byte that is not UTF-8 is written, and so read, as U+FFFD
		if err := json.Unmarshal(key, &name); err != nil {
			return dst, err
		}
		entry := rm.entry(name)
		if entry == nil {
			continue
		}
		mark := len(dst)
		if wrote {
			dst = append(dst, ',')
		}
		dst = append(append(dst, key...), ':')
		kept := true
		if entry.keep {
			var b []byte
			if b, err = w.marshalAt(m.value, depth); err != nil {
				return dst, err
			}
			dst = append(dst, b...)
		} else if dst, kept, err = w.nested(dst, entry, m.value, depth+1); err != nil {
			return dst, err
		}
		if !kept {
			dst = dst[:mark] // SPEC A6: the member goes, key and all
			continue
		}
		wrote = true
	}
	return append(dst, '}'), nil
}

// array writes the elements of v, each masked by rm (SPEC A3).
func (w *valueWriter) array(dst []byte, rm *refMask, v reflect.Value, depth int) ([]byte, error) {
	if depth > w.opt.MaxDepth {
		return dst, &fallback.DepthError{Limit: w.opt.MaxDepth}
	}
	dst = append(dst, '[')
	wrote := false
	for i := range v.Len() {
		mark := len(dst)
		if wrote {
			dst = append(dst, ',')
		}
		var kept bool
		var err error
		if dst, kept, err = w.nested(dst, rm, v.Index(i), depth+1); err != nil {
			return dst, err
		}
		if !kept {
			dst = dst[:mark]
			continue
		}
		wrote = true
	}
	return append(dst, ']'), nil
}

// nested writes v where the nested mask rm applies, and reports whether
// anything was written (a scalar is dropped under SPEC A6).
func (w *valueWriter) nested(dst []byte, rm *refMask, v reflect.Value, depth int) ([]byte, bool, error) {
	if opaque(v) {
		b, err := marshal(v)
		if err != nil {
			return dst, false, err
		}
		return w.maskBytes(dst, rm, b, depth-1)
	}
	e, isNil := deref(v)
	switch {
	case isNil:
		if w.opt.DropMismatched {
			return dst, false, nil
		}
		return append(dst, "null"...), true, nil
	case opaque(e):
		return w.nested(dst, rm, e, depth)
	case isObject(e):
		dst, err := w.object(dst, rm, e, depth)
		return dst, true, err
	case isArray(e):
		dst, err := w.array(dst, rm, e, depth)
		return dst, true, err
	case refused(e):
		_, err := marshal(e) // encoding/json says why
		return dst, false, err
	case w.opt.DropMismatched: // SPEC A6: a scalar where the mask expects an object
		return dst, false, nil
	}
	b, err := w.marshalAt(e, depth-1) // SPEC A4
	return append(dst, b...), true, err
}

// marshalAt encodes v, a value kept whole inside containers nested depth
// deep: an error if the whole would nest deeper than MaxDepth, as Append
// would find in the encoding.
func (w *valueWriter) marshalAt(v reflect.Value, depth int) ([]byte, error) {
	b, err := marshal(v)
	if err == nil && depth+nesting(b) > w.opt.MaxDepth {
		err = &fallback.DepthError{Limit: w.opt.MaxDepth}
	}
	if err == nil && !utf8.Valid(b) { // from a MarshalJSON method: see errInvalidUTF8
		err = &json.MarshalerError{Type: v.Type(), Err: errInvalidUTF8}
	}
	return b, err
}

// maskBytes writes b, a JSON encoding found inside containers nested depth
// deep, masked by rm.
func (w *valueWriter) maskBytes(dst []byte, rm *refMask, b []byte, depth int) ([]byte, bool, error) {
	if depth+nesting(b) > w.opt.MaxDepth {
		return dst, false, &fallback.DepthError{Limit: w.opt.MaxDepth}
	}
	tree, err := decode(b, w.opt.MaxDepth)
	if err != nil {
		return dst, false, err
	}
	kept, ok := apply(rm, tree, Options{DropMismatched: w.opt.DropMismatched})
	if !ok {
		return dst, false, nil
	}
	return encode(dst, kept), true, nil
}

// members returns the members of the struct or map v in encoding/json's
// order: fields in declaration order, map keys sorted.
func members(v reflect.Value) []member {
	if v.Kind() == reflect.Map {
		ms := make([]member, 0, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := iter.Key()
			var key string
			switch k.Kind() {
			case reflect.String:
				key = k.String()
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				key = strconv.FormatInt(k.Int(), 10)
			default:
				key = strconv.FormatUint(k.Uint(), 10)
			}
			ms = append(ms, member{key, iter.Value()})
		}
		slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
		return ms
	}
	var ms []member
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		if f.omitEmpty && empty(fv) || f.omitZero && (f.isZero == nil && fv.IsZero() || f.isZero != nil && f.isZero(fv)) {
			continue
		}
		ms = append(ms, member{f.name, fv})
	}
	return ms
}

// refField is a struct field as encoding/json encodes it.
type refField struct {
	name                string
	index               int
	omitEmpty, omitZero bool
	isZero              func(reflect.Value) bool
}

var refFields sync.Map // reflect.Type -> []refField, or nil for a struct left to the encoder

// fieldsOf returns the fields encoding/json encodes for struct type t, or nil
// when t has what this walker leaves to the encoder: embedded fields,
// ",string" options, two fields of one name.
func fieldsOf(t reflect.Type) []refField {
	if fs, ok := refFields.Load(t); ok {
		return fs.([]refField)
	}
	fs := []refField{}
	names := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			fs = nil
			break
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validName(name) {
			name = ""
		}
		if name == "" {
			name = sf.Name
		}
		f := refField{name: name, index: i}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				f.omitZero, f.isZero = true, zeroTest(sf.Type)
			case "string":
				fs = nil
			}
		}
		if fs == nil || names[name] {
			fs = nil
			break
		}
		names[name] = true
		fs = append(fs, f)
	}
	refFields.Store(t, fs)
	return fs
}

// nesting returns how deep the containers of the valid JSON b nest: the
// depth of its tree.
func nesting(b []byte) int {
	n, err := decode(b, 0)
	if err != nil {
		return 0
	}
	var depth func(n *node) int
	depth = func(n *node) int {
		if n.kind.IsScalar() {
			return 0
		}
		most := 0
		for _, m := range n.members {
			most = max(most, depth(m.value))
		}
		for _, e := range n.elements {
			most = max(most, depth(e))
		}
		return 1 + most
	}
	return depth(n)
}

// maskOf returns node of prog as a refMask, so that values are masked by
// maps, as documents are, not by the Program's lookup.
func maskOf(prog *compile.Program, node int32) *refMask {
	rm := &refMask{sub: map[string]*refMask{}}
	for e := range prog.Members(node) {
		entry := prog.Entry(e)
		sub := &refMask{keep: true}
		if entry.Node != compile.Keep {
			sub = maskOf(prog, entry.Node)
		}
		if entry.Wildcard {
			rm.other = sub
		} else {
			rm.sub[entry.Key] = sub
		}
	}
	return rm
}

// encoding/json's rules for struct fields and the methods it calls, written
// again from its documentation rather than shared with fallback's.

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	zeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
)

// errInvalidUTF8 is the reference's own error for a MarshalJSON method
// whose output is not UTF-8, which AppendValue refuses.
var errInvalidUTF8 = errors.New("invalid UTF-8 in a MarshalJSON method's output")

// validName reports whether a json tag's name is one encoding/json uses:
// not empty, and only letters, digits and the punctuation it allows.
func validName(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.IsDigit(c) && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c)
	})
}

// empty is omitempty's test: false, 0, a nil pointer or interface, and an
// empty array, slice, map or string. A struct is never empty.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Struct, reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return false
	}
	return v.IsZero()
}

// zeroTest returns omitzero's test for a field of type t when t has an
// IsZero method (on its value or its pointer), nil when the zero value
// decides. A nil pointer or interface is zero without a call.
func zeroTest(t reflect.Type) func(reflect.Value) bool {
	if !t.Implements(zeroerType) && !reflect.PointerTo(t).Implements(zeroerType) {
		return nil
	}
	return func(v reflect.Value) bool {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() {
			return true
		}
		if !t.Implements(zeroerType) {
			c := reflect.New(t) // a copy, to call the method on its address
			c.Elem().Set(v)
			v = c
		}
		return v.MethodByName("IsZero").Call(nil)[0].Bool()
	}
}

// isBytes reports whether t is a slice of bytes, which encoding/json writes
// as a base64 string (unless its elements have methods of their own).
func isBytes(t reflect.Type) bool {
	if t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8 {
		return false
	}
	e := reflect.PointerTo(t.Elem())
	return !e.Implements(marshalerType) && !e.Implements(textMarshalerType)
}
