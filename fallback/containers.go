package fallback

import (
	"encoding"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// The encoders of containers kept whole: structs (by typeFields), maps
// (keys resolved and sorted as encoding/json sorts them), slices, arrays,
// []byte as base64, and pointers.

// fieldOf returns the field of struct v at index, following embedded
// pointers, and false where one of them is nil: the field is not encoded.
func fieldOf(v reflect.Value, index []int) (reflect.Value, bool) {
	if len(index) == 1 {
		return v.Field(index[0]), true
	}
	for _, i := range index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// omitted reports whether omitempty or omitzero leaves field value v out.
func (f *structField) omitted(v reflect.Value) bool {
	return f.omitEmpty && isEmpty(v) || f.omitZero && f.isZeroValue(v)
}

func newStructEncoder(t reflect.Type) encoderFunc {
	type field struct {
		structField
		enc encoderFunc
	}
	var fields []field
	for _, f := range typeFields(t) {
		fields = append(fields, field{f, encoderOf(f.typ)})
	}
	return func(s *encState, v reflect.Value, _ bool) error {
		if err := s.open('{'); err != nil {
			return err
		}
		first := true
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldOf(v, f.index)
			if !ok || f.omitted(fv) {
				continue
			}
			if !first {
				s.b = append(s.b, ',')
			}
			first = false
			s.b = append(s.b, f.key...)
			if err := f.enc(s, fv, f.quoted); err != nil {
				return atMember(err, f.name)
			}
		}
		s.close('}')
		return nil
	}
}

// keyFunc returns a map key as encoding/json writes it, before escaping.
type keyFunc func(k reflect.Value) (string, error)

// mapKeyFunc returns the keyFunc of maps with keys of type t, or false for a
// type encoding/json does not take as a key. A key of a string kind is
// itself, even with a MarshalText method; one of another kind with
// MarshalText is its text; integers are in decimal.
func mapKeyFunc(t reflect.Type) (keyFunc, bool) {
	switch {
	case t.Kind() == reflect.String:
		return func(k reflect.Value) (string, error) { return k.String(), nil }, true
	case t.Implements(textMarshalerType):
		return func(k reflect.Value) (string, error) {
			if k.Kind() == reflect.Pointer && k.IsNil() {
				return "", nil
			}
			tm, ok := reflect.TypeAssert[encoding.TextMarshaler](k)
			if !ok {
				return "", errors.New("nil key")
			}
			b, err := tm.MarshalText()
			return string(b), err
		}, true
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(k reflect.Value) (string, error) { return strconv.FormatInt(k.Int(), 10), nil }, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(k reflect.Value) (string, error) { return strconv.FormatUint(k.Uint(), 10), nil }, true
	}
	return nil, false
}

// members appends to s.entries the members of map v that pick keeps (all,
// if pick is nil), with their keys as keyName resolves them and the entry
// that pick gives. Every key is resolved, as encoding/json resolves them (a
// MarshalText may fail). The values kept are copied into one slice of type
// values made for the map: three allocations a map (that slice, a holder
// for the keys, the iterator), not two a member. That slice's elements can
// be addressed, which a map's cannot: values is nil where that would change
// the encoding (see addressed), and then each value is copied on its own.
func (s *encState) members(v reflect.Value, keyName keyFunc, values reflect.Type, pick func(name string) (int32, bool)) error {
	t := v.Type()
	key := reflect.New(t.Key()).Elem()
	var vals reflect.Value
	if values != nil {
		vals = reflect.MakeSlice(values, v.Len(), v.Len())
	}
	kept := 0
	var it reflect.MapIter
	it.Reset(v)
	for it.Next() {
		key.SetIterKey(&it)
		name, err := keyName(key)
		if err != nil {
			return &keyError{t, err}
		}
		node := int32(0)
		if pick != nil {
			var ok bool
			if node, ok = pick(name); !ok {
				continue
			}
		}
		var val reflect.Value
		if values != nil {
			val = vals.Index(kept)
			val.SetIterValue(&it)
			kept++
		} else {
			val = it.Value()
		}
		s.entries = append(s.entries, mapEntry{name, val, node})
	}
	return nil
}

// valuesOf returns the type of the slice that members copies a map's values
// of type t into, or nil where an addressable copy would not encode as the
// map's own value does.
func valuesOf(t reflect.Type) reflect.Type {
	if addressed(t, map[reflect.Type]bool{}) {
		return nil
	}
	return reflect.SliceOf(t)
}

// addressed reports whether encoding/json may encode an addressable value
// of type t otherwise than one that is not: t, or a field or element held in
// it (not behind a pointer, slice, map or interface, whose values are
// addressable or not whatever holds them), has a method on its pointer only.
func addressed(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if m, onAddr := methodOf(t, true); onAddr {
		if plain, _ := methodOf(t, false); plain != m {
			return true // only its pointer has this method
		}
	}
	switch t.Kind() {
	case reflect.Array:
		return addressed(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if addressed(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// keyError is the error for a map key of type t whose MarshalText fails:
// encoding/json's message, and, unlike encoding/json's, the method's error
// wrapped, for errors.Is and errors.As.
type keyError struct {
	t   reflect.Type
	err error
}

func (e *keyError) Error() string {
	return fmt.Sprintf("json: encoding error for type %q: %q", e.t.String(), e.err.Error())
}

func (e *keyError) Unwrap() error { return e.err }

func newMapEncoder(t reflect.Type) encoderFunc {
	keyName, ok := mapKeyFunc(t.Key())
	if !ok {
		return unsupported(t)
	}
	switch t { // without reflect, the common ones
	case mapStringAnyType:
		return func(s *encState, v reflect.Value, _ bool) error {
			return s.appendMapAny(v.Interface().(map[string]any))
		}
	case mapStringStringType:
		return func(s *encState, v reflect.Value, _ bool) error {
			return s.appendMapString(v.Interface().(map[string]string), nil)
		}
	}
	elem := encoderOf(t.Elem())
	values := valuesOf(t.Elem())
	return func(s *encState, v reflect.Value, _ bool) error {
		if v.IsNil() {
			s.b = append(s.b, "null"...)
			return nil
		}
		self := func() reflect.Value { return v }
		if err := s.begin(self, '{'); err != nil {
			return err
		}
		base := len(s.entries)
		if err := s.members(v, keyName, values, nil); err != nil {
			return err
		}
		end := len(s.entries)
		slices.SortFunc(s.entries[base:end], compareEntries)
		for i := base; i < end; i++ {
			e := s.entries[i]
			if i > base {
				s.b = append(s.b, ',')
			}
			s.b = append(jsonwire.AppendMarshalString(s.b, e.name), ':')
			if err := elem(s, e.v, false); err != nil {
				return atMember(err, e.name)
			}
		}
		clear(s.entries[base:end])
		s.entries = s.entries[:base]
		s.end(self, '}')
		return nil
	}
}

// isBytes reports whether encoding/json writes slices of type t as base64
// strings: slices of a byte kind whose pointer has no method of its own.
func isBytes(t reflect.Type) bool {
	if t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8 {
		return false
	}
	p := reflect.PointerTo(t.Elem())
	return !p.Implements(marshalerType) && !p.Implements(textMarshalerType)
}

func newSliceEncoder(t reflect.Type) encoderFunc {
	if isBytes(t) {
		return encodeBytes
	}
	array := newArrayEncoder(t)
	return func(s *encState, v reflect.Value, q bool) error {
		if v.IsNil() {
			s.b = append(s.b, "null"...)
			return nil
		}
		self := func() reflect.Value { return v }
		if err := s.enter(self); err != nil {
			return err
		}
		if err := array(s, v, q); err != nil {
			return err
		}
		s.leave(self)
		return nil
	}
}

func encodeBytes(s *encState, v reflect.Value, _ bool) error {
	if v.IsNil() {
		s.b = append(s.b, "null"...)
		return nil
	}
	s.b = append(base64.StdEncoding.AppendEncode(append(s.b, '"'), v.Bytes()), '"')
	return nil
}

func newArrayEncoder(t reflect.Type) encoderFunc {
	elem := encoderOf(t.Elem())
	return func(s *encState, v reflect.Value, q bool) error {
		if err := s.open('['); err != nil {
			return err
		}
		for i := range v.Len() {
			if i > 0 {
				s.b = append(s.b, ',')
			}
			if err := elem(s, v.Index(i), q); err != nil {
				return atIndex(err, i)
			}
		}
		s.close(']')
		return nil
	}
}

func newPointerEncoder(t reflect.Type) encoderFunc {
	elem := encoderOf(t.Elem())
	return func(s *encState, v reflect.Value, q bool) error {
		if v.IsNil() {
			s.b = append(s.b, "null"...)
			return nil
		}
		self := func() reflect.Value { return v }
		if err := s.enter(self); err != nil {
			return err
		}
		if err := elem(s, v.Elem(), q); err != nil {
			return err
		}
		s.leave(self)
		return nil
	}
}
