package fallback

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// This file encodes the values a mask keeps whole, as encoding/json's Marshal
// encodes them, byte for byte: one encoderFunc per type, built once and
// cached like encoding/json's own, that writes into the call's encState.

// encoderFunc appends v, kept whole, to s.b. quoted is the ",string" option.
type encoderFunc func(s *encState, v reflect.Value, quoted bool) error

var encoders sync.Map // reflect.Type -> encoderFunc

// encoderOf returns the encoderFunc of type t, built once. A recursive type
// meets its own entry while it is being built: that entry calls the encoder
// once it is built, as in encoding/json's typeEncoder.
func encoderOf(t reflect.Type) encoderFunc {
	if f, ok := encoders.Load(t); ok {
		return f.(encoderFunc)
	}
	built := sync.OnceValue(func() encoderFunc { return newEncoder(t, true) })
	f, loaded := encoders.LoadOrStore(t, encoderFunc(func(s *encState, v reflect.Value, q bool) error {
		return built()(s, v, q)
	}))
	if loaded {
		return f.(encoderFunc)
	}
	encoders.Store(t, built())
	return built()
}

var (
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
	mapStringAnyType    = reflect.TypeFor[map[string]any]()
	mapStringStringType = reflect.TypeFor[map[string]string]()
)

// newEncoder builds t's encoder. Where only t's pointer has a method, the
// encoder calls it for an addressable value and encodes other values as if
// t had none (allowAddr false), as encoding/json does.
func newEncoder(t reflect.Type, allowAddr bool) encoderFunc {
	if allowAddr {
		if m, onAddr := methodOf(t, true); onAddr {
			withMethod, without := methodEncoder(m, true), newEncoder(t, false)
			return func(s *encState, v reflect.Value, q bool) error {
				if v.CanAddr() {
					return withMethod(s, v, q)
				}
				return without(s, v, q)
			}
		}
	}
	if m, _ := methodOf(t, false); m != noMethod {
		return methodEncoder(m, false)
	}
	switch t.Kind() {
	case reflect.Bool:
		return encodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return encodeInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return encodeUint
	case reflect.Float32:
		return encodeFloat32
	case reflect.Float64:
		return encodeFloat64
	case reflect.String:
		if t == numberType {
			return encodeNumber
		}
		return encodeString
	case reflect.Interface:
		return encodeInterface
	case reflect.Struct:
		return newStructEncoder(t)
	case reflect.Map:
		return newMapEncoder(t)
	case reflect.Slice:
		return newSliceEncoder(t)
	case reflect.Array:
		return newArrayEncoder(t)
	case reflect.Pointer:
		return newPointerEncoder(t)
	}
	return unsupported(t)
}

// unsupported is the encoder of a type that JSON cannot hold: channels,
// functions, complex numbers, maps with other keys. It fails even for a nil
// value, as encoding/json does.
func unsupported(t reflect.Type) encoderFunc {
	return func(*encState, reflect.Value, bool) error { return &json.UnsupportedTypeError{Type: t} }
}

func quote(b []byte, quoted bool) []byte {
	if quoted {
		return append(b, '"')
	}
	return b
}

func encodeBool(s *encState, v reflect.Value, quoted bool) error {
	s.b = quote(strconv.AppendBool(quote(s.b, quoted), v.Bool()), quoted)
	return nil
}

func encodeInt(s *encState, v reflect.Value, quoted bool) error {
	s.b = quote(strconv.AppendInt(quote(s.b, quoted), v.Int(), 10), quoted)
	return nil
}

func encodeUint(s *encState, v reflect.Value, quoted bool) error {
	s.b = quote(strconv.AppendUint(quote(s.b, quoted), v.Uint(), 10), quoted)
	return nil
}

func encodeFloat32(s *encState, v reflect.Value, quoted bool) error {
	return s.appendFloat(v.Float(), 32, quoted, v)
}

func encodeFloat64(s *encState, v reflect.Value, quoted bool) error {
	return s.appendFloat(v.Float(), 64, quoted, v)
}

// appendFloat appends f; NaN and the infinities have no JSON form. v is for
// the error, and is only called for it.
func (s *encState) appendFloat(f float64, bits int, quoted bool, v reflect.Value) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &json.UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	s.b = quote(appendFloat(quote(s.b, quoted), f, bits), quoted)
	return nil
}

func encodeString(s *encState, v reflect.Value, quoted bool) error {
	if quoted {
		s.b = jsonwire.AppendMarshalString(s.b, string(jsonwire.AppendMarshalString(nil, v.String()))) // the string's JSON, as a string
		return nil
	}
	s.b = jsonwire.AppendMarshalString(s.b, v.String())
	return nil
}

func encodeNumber(s *encState, v reflect.Value, quoted bool) error {
	return s.appendNumber(v.String(), quoted)
}

// appendNumber appends a json.Number as it is: the empty one is 0, one that
// is not a JSON number an error.
func (s *encState) appendNumber(n string, quoted bool) error {
	if n == "" {
		n = "0"
	}
	if !validNumber(n) {
		return fmt.Errorf("json: invalid number literal %q", n)
	}
	s.b = quote(append(quote(s.b, quoted), n...), quoted)
	return nil
}

func encodeInterface(s *encState, v reflect.Value, _ bool) error {
	if v.IsNil() {
		s.b = append(s.b, "null"...)
		return nil
	}
	if v.NumMethod() == 0 {
		return s.appendAny(v.Interface()) // without reflect for the types that decoded JSON holds
	}
	e := v.Elem()
	return encoderOf(e.Type())(s, e, false)
}

// appendAny appends x, kept whole: what a field or element of type any, or a
// map[string]any, holds.
func (s *encState) appendAny(x any) error {
	switch x := x.(type) {
	case nil:
		s.b = append(s.b, "null"...)
	case string:
		s.b = jsonwire.AppendMarshalString(s.b, x)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return &json.UnsupportedValueError{Value: reflect.ValueOf(x), Str: strconv.FormatFloat(x, 'g', -1, 64)}
		}
		s.b = appendFloat(s.b, x, 64)
	case bool:
		s.b = strconv.AppendBool(s.b, x)
	case map[string]any:
		return s.appendMapAny(x)
	case []any:
		return s.appendSliceAny(x)
	case json.Number:
		return s.appendNumber(string(x), false)
	case int:
		s.b = strconv.AppendInt(s.b, int64(x), 10)
	case int64:
		s.b = strconv.AppendInt(s.b, x, 10)
	default:
		v := reflect.ValueOf(x)
		return encoderOf(v.Type())(s, v, false)
	}
	return nil
}

// appendMapAny appends m with its keys sorted, as encoding/json does.
func (s *encState) appendMapAny(m map[string]any) error {
	if m == nil {
		s.b = append(s.b, "null"...)
		return nil
	}
	self := func() reflect.Value { return reflect.ValueOf(m) }
	if err := s.begin(self, '{'); err != nil {
		return err
	}
	// The keys alone are sorted, then each value looked up again: moving
	// strings is cheaper than moving key-value pairs.
	base := len(s.keys)
	for k := range m {
		s.keys = append(s.keys, k)
	}
	end := len(s.keys)
	slices.Sort(s.keys[base:end])
	for i := base; i < end; i++ {
		k := s.keys[i]
		if i > base {
			s.b = append(s.b, ',')
		}
		s.b = append(jsonwire.AppendMarshalString(s.b, k), ':')
		if err := s.appendAny(m[k]); err != nil {
			return atMember(err, k)
		}
	}
	clear(s.keys[base:end])
	s.keys = s.keys[:base]
	s.end(self, '}')
	return nil
}

// appendMapString appends m with its keys sorted, those that node names
// if nk is not nil (then the values are where a nested mask may apply: a
// string is kept, or dropped under SPEC A6). It sorts its keys as
// appendMapAny does, with a copy of that code: a generic function for both
// cost appendMapAny 0.9% more instructions on maps kept whole (callgrind,
// twitter.json as map[string]any under {"statuses":true,...}).
func (s *encState) appendMapString(m map[string]string, nk *nodeKeys) error {
	if m == nil {
		s.b = append(s.b, "null"...)
		return nil
	}
	self := func() reflect.Value { return reflect.ValueOf(m) }
	if err := s.begin(self, '{'); err != nil {
		return err
	}
	base := len(s.keys)
	for k := range m {
		if nk == nil || nk.keeps(s, k) {
			s.keys = append(s.keys, k)
		}
	}
	end := len(s.keys)
	slices.Sort(s.keys[base:end])
	for i, k := range s.keys[base:end] {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		s.b = jsonwire.AppendMarshalString(append(jsonwire.AppendMarshalString(s.b, k), ':'), m[k])
	}
	clear(s.keys[base:end])
	s.keys = s.keys[:base]
	s.end(self, '}')
	return nil
}

func (s *encState) appendSliceAny(a []any) error {
	if a == nil {
		s.b = append(s.b, "null"...)
		return nil
	}
	self := func() reflect.Value { return reflect.ValueOf(a) }
	if err := s.begin(self, '['); err != nil {
		return err
	}
	for i, e := range a {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		if err := s.appendAny(e); err != nil {
			return atIndex(err, i)
		}
	}
	s.end(self, ']')
	return nil
}
