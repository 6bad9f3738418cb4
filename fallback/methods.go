package fallback

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// The values that encode themselves: MarshalJSON and MarshalText, found
// and called as encoding/json finds and calls them, their output checked,
// compacted and HTML-escaped as encoding/json's is.

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
var errInvalidUTF8 = errs.New("invalid UTF-8 in the JSON it returned")

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
