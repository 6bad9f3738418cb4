package fallback

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// ValueOptions are the masking options that apply to Go values.
type ValueOptions struct {
	Arrays         bool // SPEC B4, for a value that encodes to an array
	DropMismatched bool // SPEC A6
	Strict         bool // SPEC B5: a value that would pass through is a *NotObjectError
	MaxDepth       int  // SPEC V2: nesting of the value; 0 for tokenizer.DefaultMaxDepth
}

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
// it is masked. A value nested deeper than opt.MaxDepth gives a *DepthError.
func ReferenceValue(dst []byte, prog *compile.Program, v any, opt ValueOptions) ([]byte, error) {
	dst, err := referenceValue(dst, prog, v, opt)
	return dst, finish(err)
}

func referenceValue(dst []byte, prog *compile.Program, v any, opt ValueOptions) ([]byte, error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = tokenizer.DefaultMaxDepth
	}
	w := &valueWriter{prog: prog, opt: opt}
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
			dst, _, err = w.maskBytes(dst, 0, b, 0)
			return dst, err
		}
		return passThrough(dst, b, opt)
	case isObject(e) || isArray(e) && opt.Arrays:
		dst, _, err = w.nested(dst, 0, rv, 1)
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
func passThrough(dst, b []byte, opt ValueOptions) ([]byte, error) {
	if opt.Strict {
		return dst, &NotObjectError{First: b[0], Arrays: opt.Arrays}
	}
	return append(dst, b...), nil
}

type valueWriter struct {
	prog *compile.Program
	opt  ValueOptions
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
		return nil, errors.New("jsonmask: cannot encode an unexported value")
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

// object writes the members of the struct or map v that node keeps.
func (w *valueWriter) object(dst []byte, node int32, v reflect.Value, depth int) ([]byte, error) {
	if depth > w.opt.MaxDepth {
		return dst, &DepthError{Limit: w.opt.MaxDepth}
	}
	dst = append(dst, '{')
	wrote := false
	var err error
	for _, m := range members(v) {
		e := w.prog.Lookup(node, []byte(keyOf(m.key))) // a byte that is not UTF-8 is written, and so read, as U+FFFD
		if e == compile.NoEntry {
			continue
		}
		mark := len(dst)
		if wrote {
			dst = append(dst, ',')
		}
		key, _ := json.Marshal(m.key) // encoding/json's escaping, HTML included
		dst = append(append(dst, key...), ':')
		kept := true
		if n := w.prog.Entry(e).Node; n == compile.Keep {
			var b []byte
			if b, err = w.marshalAt(m.value, depth); err != nil {
				return dst, under(err, m.key)
			}
			dst = append(dst, b...)
		} else if dst, kept, err = w.nested(dst, n, m.value, depth+1); err != nil {
			return dst, under(err, m.key)
		}
		if !kept {
			dst = dst[:mark] // SPEC A6: the member goes, key and all
			continue
		}
		wrote = true
	}
	return append(dst, '}'), nil
}

// array writes the elements of v, each masked by node (SPEC A3).
func (w *valueWriter) array(dst []byte, node int32, v reflect.Value, depth int) ([]byte, error) {
	if depth > w.opt.MaxDepth {
		return dst, &DepthError{Limit: w.opt.MaxDepth}
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
		if dst, kept, err = w.nested(dst, node, v.Index(i), depth+1); err != nil {
			return dst, underIndex(err, i)
		}
		if !kept {
			dst = dst[:mark]
			continue
		}
		wrote = true
	}
	return append(dst, ']'), nil
}

// nested writes v where the nested mask node applies, and reports whether
// anything was written (a scalar is dropped under SPEC A6).
func (w *valueWriter) nested(dst []byte, node int32, v reflect.Value, depth int) ([]byte, bool, error) {
	if opaque(v) {
		b, err := marshal(v)
		if err != nil {
			return dst, false, err
		}
		return w.maskBytes(dst, node, b, depth-1)
	}
	e, isNil := deref(v)
	switch {
	case isNil:
		if w.opt.DropMismatched {
			return dst, false, nil
		}
		return append(dst, "null"...), true, nil
	case opaque(e):
		return w.nested(dst, node, e, depth)
	case isObject(e):
		dst, err := w.object(dst, node, e, depth)
		return dst, true, err
	case isArray(e):
		dst, err := w.array(dst, node, e, depth)
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
		err = &DepthError{Limit: w.opt.MaxDepth}
	}
	if err == nil && !utf8.Valid(b) { // from a MarshalJSON method: see errInvalidUTF8
		err = &json.MarshalerError{Type: v.Type(), Err: errInvalidUTF8}
	}
	return b, err
}

// nesting returns how deep the containers of the valid JSON b nest.
func nesting(b []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if d++; d > most {
				most = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// maskBytes writes b, a JSON encoding found inside containers nested depth
// deep, masked by node, as the reference does.
func (w *valueWriter) maskBytes(dst []byte, node int32, b []byte, depth int) ([]byte, bool, error) {
	if depth+nesting(b) > w.opt.MaxDepth {
		return dst, false, &DepthError{Limit: w.opt.MaxDepth}
	}
	tree, err := decode(b, w.opt.MaxDepth)
	if err != nil {
		return dst, false, err
	}
	kept, ok := applyProgram(w.prog, node, tree, w.opt.DropMismatched)
	if !ok {
		return dst, false, nil
	}
	return encode(dst, kept), true, nil
}

// applyProgram is apply with a Program's nodes instead of a refMask.
func applyProgram(prog *compile.Program, mask int32, n *node, dropMismatched bool) (*node, bool) {
	switch n.kind {
	case tokenizer.ObjectStart:
		out := &node{kind: n.kind}
		for i, k := range n.keys {
			e := prog.Lookup(mask, []byte(unescape(k)))
			if e == compile.NoEntry {
				continue
			}
			v := n.kids[i]
			if sub := prog.Entry(e).Node; sub != compile.Keep {
				var ok bool
				if v, ok = applyProgram(prog, sub, v, dropMismatched); !ok {
					continue
				}
			}
			out.keys, out.kids = append(out.keys, k), append(out.kids, v)
		}
		return out, true
	case tokenizer.ArrayStart:
		out := &node{kind: n.kind}
		for _, e := range n.kids {
			if e, ok := applyProgram(prog, mask, e, dropMismatched); ok {
				out.kids = append(out.kids, e)
			}
		}
		return out, true
	}
	return n, !dropMismatched
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
		if f.omitEmpty && isEmpty(fv) || f.omitZero && (f.isZero == nil && fv.IsZero() || f.isZero != nil && f.isZero(fv)) {
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
		if !validTag(name) {
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
				f.omitZero, f.isZero = true, zeroFunc(sf.Type)
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
