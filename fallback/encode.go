package fallback

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// This file encodes the values a mask keeps whole, as encoding/json's Marshal
// encodes them, byte for byte: one encoderFunc per type, built once and
// cached like encoding/json's own, that writes into the call's encState.

// encState is the state of one ValueEncoder.Append call: the output, the
// containers open around the value being written, encoding/json's cycle
// check, and scratch space that nested maps share as stacks. States are
// pooled; release clears what they hold of the caller's values.
type encState struct {
	b        []byte
	enc      *ValueEncoder
	prog     *compile.Program
	opt      ValueOptions
	depth    int  // containers open around the value being written
	unmasked bool // the value being written is a root passed on as it is (SPEC B3)
	maxDepth int  // opt.MaxDepth, or no limit for a body passed through (SPEC B3)
	ptrLevel int  // pointers, maps and slices entered, as encoding/json counts them
	ptrSeen  map[cycleKey]struct{}

	entries    []mapEntry // members of maps being written, sorted in place
	anyEntries []anyEntry // the same for map[string]any, without reflect
	keys       []string   // the same for map[string]string
	raw        []byte     // a method's output, to be masked
	compact    bytes.Buffer
}

// mapEntry is a member of a map: its key as encoding/json resolves it, its
// value, and, under a mask, the mask's entry for it.
type mapEntry struct {
	name string
	v    reflect.Value
	node int32
}

type anyEntry struct {
	name string
	v    any
	node int32
}

func compareEntries(a, b mapEntry) int { return strings.Compare(a.name, b.name) }
func compareAny(a, b anyEntry) int     { return strings.Compare(a.name, b.name) }

var states = sync.Pool{New: func() any { return new(encState) }}

// release returns s to the pool holding nothing of the call's values. After
// an error, maps may have left entries behind.
func (s *encState) release(err error) {
	if err != nil {
		clear(s.entries[:cap(s.entries)])
		clear(s.anyEntries[:cap(s.anyEntries)])
		clear(s.keys[:cap(s.keys)])
		s.entries, s.anyEntries, s.keys = s.entries[:0], s.anyEntries[:0], s.keys[:0]
	}
	clear(s.ptrSeen)
	// What methods wrote may hold what the mask dropped: it goes, and so do
	// buffers over 64 KiB.
	clear(s.raw[:cap(s.raw)])
	s.raw = s.raw[:0]
	if cap(s.raw) > 64<<10 {
		s.raw = nil
	}
	c := s.compact.Bytes()
	clear(c[:cap(c)])
	s.compact.Reset()
	if s.compact.Cap() > 64<<10 {
		s.compact = bytes.Buffer{}
	}
	s.b, s.enc, s.prog = nil, nil, nil
	states.Put(s)
}

// begin opens a map or slice at the start of its encoding, with c: it
// counts it for the cycle check (enter) and one level deeper (open). self
// returns it, for the cycle check.
func (s *encState) begin(self func() reflect.Value, c byte) error {
	if err := s.enter(self); err != nil {
		return err
	}
	return s.open(c)
}

// end closes what begin opened.
func (s *encState) end(self func() reflect.Value, c byte) {
	s.close(c)
	s.leave(self)
}

// open writes the start of an object or array, one level deeper: an error
// past the limit, as Append gives for the encoding (SPEC V2).
func (s *encState) open(c byte) error {
	if s.depth++; s.depth > s.maxDepth {
		return &DepthError{Limit: s.opt.MaxDepth}
	}
	s.b = append(s.b, c)
	return nil
}

func (s *encState) close(c byte) {
	s.depth--
	s.b = append(s.b, c)
}

// checkNesting reports an error if out, valid JSON written by a method in
// the containers open, nests past the limit.
func (s *encState) checkNesting(out []byte) error {
	if s.depth+len(out)/2 > s.maxDepth && s.depth+nesting(out) > s.maxDepth {
		return &DepthError{Limit: s.opt.MaxDepth}
	}
	return nil
}

// cycleAfter is how many pointers, maps and slices deep encoding/json goes
// before it starts to look for a cycle.
const cycleAfter = 1000

// cycleKey is a pointer, map or slice entered, as encoding/json tells them
// apart: a pointer by its type and address, a map by its address, a slice
// by its address and length.
type cycleKey struct {
	typ reflect.Type
	ptr unsafe.Pointer
	len int
}

func keyOfCycle(v reflect.Value) cycleKey {
	switch v.Kind() {
	case reflect.Pointer:
		return cycleKey{typ: v.Type(), ptr: v.UnsafePointer()}
	case reflect.Slice:
		return cycleKey{ptr: v.UnsafePointer(), len: v.Len() + 1}
	}
	return cycleKey{ptr: v.UnsafePointer()}
}

// enter counts a pointer, map or slice on the way down, and past cycleAfter
// of them fails on one already on the way, as encoding/json does: a cycle
// the depth limit would not stop in time, such as one of pointers alone.
// v is only looked at past cycleAfter.
func (s *encState) enter(v func() reflect.Value) error {
	if s.ptrLevel++; s.ptrLevel <= cycleAfter {
		return nil
	}
	return s.enterDeep(v)
}

// enterDeep is enter past cycleAfter, apart so that enter inlines.
func (s *encState) enterDeep(v func() reflect.Value) error {
	rv := v()
	k := keyOfCycle(rv)
	if _, ok := s.ptrSeen[k]; ok {
		return &json.UnsupportedValueError{Value: rv, Str: "encountered a cycle via " + rv.Type().String()}
	}
	if s.ptrSeen == nil {
		s.ptrSeen = map[cycleKey]struct{}{}
	}
	s.ptrSeen[k] = struct{}{}
	return nil
}

func (s *encState) leave(v func() reflect.Value) {
	if s.ptrLevel > cycleAfter {
		s.leaveDeep(v)
	}
	s.ptrLevel--
}

// leaveDeep is leave past cycleAfter, apart so that leave inlines.
func (s *encState) leaveDeep(v func() reflect.Value) {
	delete(s.ptrSeen, keyOfCycle(v()))
}

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

// method is how a value encodes itself, if it does.
type method uint8

const (
	noMethod   method = iota
	jsonMethod        // MarshalJSON
	textMethod        // MarshalText, as a JSON string
)

// methodOf returns the method that encoding/json encodes a value of type t
// with, and whether it calls it on the value's address: it looks for
// MarshalJSON, then MarshalText, each first on the address of a value that
// has one (canAddr), then on the value.
func methodOf(t reflect.Type, canAddr bool) (_ method, onAddr bool) {
	onPtr := canAddr && t.Kind() != reflect.Pointer
	switch {
	case onPtr && reflect.PointerTo(t).Implements(marshalerType):
		return jsonMethod, true
	case t.Implements(marshalerType):
		return jsonMethod, false
	case onPtr && reflect.PointerTo(t).Implements(textMarshalerType):
		return textMethod, true
	case t.Implements(textMarshalerType):
		return textMethod, false
	}
	return noMethod, false
}

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

// methodEncoder encodes a value with its own method: MarshalJSON's output
// compacted and HTML-escaped, or MarshalText's as a string.
func methodEncoder(m method, onAddr bool) encoderFunc {
	return func(s *encState, v reflect.Value, _ bool) error {
		mark := len(s.b)
		if err := s.appendMethod(v, m, onAddr); err != nil {
			return err
		}
		return s.checkNesting(s.b[mark:])
	}
}

// appendMethod appends what v's method m encodes v to, as encoding/json's
// marshalerEncoder and textMarshalerEncoder do: null for a nil pointer or
// interface, and the method's errors wrapped in *json.MarshalerError.
func (s *encState) appendMethod(v reflect.Value, m method, onAddr bool) error {
	t := v.Type()
	if onAddr {
		v = v.Addr()
	} else if v.Kind() == reflect.Pointer && v.IsNil() {
		s.b = append(s.b, "null"...)
		return nil
	}
	if !v.CanInterface() {
		return fmt.Errorf("json: cannot call the method of %s, reached through an unexported field", t)
	}
	if m == textMethod {
		tm, ok := reflect.TypeAssert[encoding.TextMarshaler](v)
		if !ok {
			s.b = append(s.b, "null"...)
			return nil
		}
		b, err := tm.MarshalText()
		if err != nil {
			return textError(t, err)
		}
		s.b = jsonwire.AppendMarshalString(s.b, unsafe.String(unsafe.SliceData(b), len(b))) // read, not kept
		return nil
	}
	jm, ok := reflect.TypeAssert[json.Marshaler](v)
	if !ok {
		s.b = append(s.b, "null"...)
		return nil
	}
	b, err := jm.MarshalJSON()
	if err == nil {
		s.compact.Reset()
		err = json.Compact(&s.compact, b)
	}
	if err == nil && !s.unmasked && !utf8.Valid(s.compact.Bytes()) {
		err = errInvalidUTF8
	}
	if err != nil {
		return &json.MarshalerError{Type: t, Err: err}
	}
	s.b = appendHTMLEscaped(s.b, s.compact.Bytes())
	return nil
}

// errInvalidUTF8 is the error of a MarshalJSON method (json.RawMessage's
// too) whose output holds bytes that are not UTF-8, where the mask keeps it
// whole: encoding/json passes them on, but Append rejects that encoding
// (SPEC V1), and what AppendValue masks, like what Append masks, is valid
// JSON. A root that is not masked passes as it is, as Append passes it
// (SPEC B3).
var errInvalidUTF8 = errors.New("jsonmask: invalid UTF-8 in the JSON it returned")

// failingText stands for a value whose MarshalText failed, so that
// textError gets encoding/json's own error for it.
type failingText struct{ err error }

func (f failingText) MarshalText() ([]byte, error) { return nil, f.err }

// textError returns the *json.MarshalerError that encoding/json gives when
// MarshalText of a t fails: one that names MarshalText, which only
// encoding/json can make.
func textError(t reflect.Type, err error) error {
	_, jerr := json.Marshal(failingText{err})
	if me, ok := jerr.(*json.MarshalerError); ok {
		me.Type = t
		return me
	}
	return &json.MarshalerError{Type: t, Err: err}
}

// appendHTMLEscaped appends src, JSON from a MarshalJSON method, with <, >,
// &, U+2028 and U+2029 escaped as encoding/json escapes them: they can only
// be in strings.
func appendHTMLEscaped(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = jsonwire.AppendEscape(dst, rune(c))
			start = i + 1
		case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
			dst = append(dst, src[start:i]...)
			dst = jsonwire.AppendEscape(dst, 0x2020+rune(src[i+2]&0xF)) // U+2028 or U+2029
			i += 2
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
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
			return under(err, k)
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
			return underIndex(err, i)
		}
	}
	s.end(self, ']')
	return nil
}

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
				return under(err, f.name)
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
			return keyError(t, err)
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

// keyError is encoding/json's error for a key whose MarshalText fails.
func keyError(t reflect.Type, err error) error {
	return fmt.Errorf("json: encoding error for type %q: %q", t.String(), err.Error())
}

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
				return under(err, e.name)
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
				return underIndex(err, i)
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
