package jsonwire

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// DecodeStrict decodes data, one JSON value, into v, a pointer to a
// struct with json tags, and refuses what encoding/json lets pass (SPEC
// G11): a key given twice, a key that names a field in another case, an
// unknown key, and data after the value. It is the one parser of the
// config files of `jsonmask serve`, the Envoy server, Caddy's JSON and
// `jsonmask mcp`. Each error is one line that names the key, its place and
// the offset: `routes[1]: key "STRICT" is "strict" in another case, at
// offset 57`. The members of a map with string keys (tools by name) are
// places too, `tools.search`, and a name given twice is an error; a name
// that is not a plain word is quoted, `tools["a b"]`. The values of
// json.RawMessage fields (a mask, which its compiler reads strictly) are
// not looked into. A scalar of the wrong type for a bool, number or string
// field is an error that names its place: `key "tools.search.budget" must
// be int, got string at offset 40`; other values of the wrong type are
// errors as encoding/json says them.
func DecodeStrict(data []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return errors.New("jsonwire: DecodeStrict needs a pointer")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := walker{dec: dec, size: len(data)}
	if err := w.value(t.Elem(), ""); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("data after the config's value at offset %d", w.offset())
	}
	full := json.NewDecoder(bytes.NewReader(data))
	full.DisallowUnknownFields()
	if err := full.Decode(v); err != nil {
		return decodeError(err, full, len(data))
	}
	return nil
}

// walker checks the keys of a JSON value against the Go type it decodes
// into, token by token, without recursion on the Go stack per level of the
// input beyond the depth of the type (deeper input is skipped flat).
type walker struct {
	dec  *json.Decoder
	size int
}

func (w *walker) offset() int64 { return w.dec.InputOffset() }

func (w *walker) token() (json.Token, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, syntaxError(err, w.size)
	}
	return tok, nil
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// value checks the next value, which decodes into t, at place.
func (w *walker) value(t reflect.Type, place string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		switch {
		case t == rawMessage:
			return w.skip(1)
		case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
			return w.mapMembers(t.Elem(), place)
		case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
			return w.wrongType(t, "object", place)
		case t.Kind() != reflect.Struct:
			return w.skip(1)
		}
		return w.object(t, place)
	case json.Delim('['):
		switch k := t.Kind(); {
		case t == rawMessage:
			return w.skip(1)
		case k == reflect.Struct || k == reflect.Map:
			return w.wrongType(t, "array", place)
		case k != reflect.Slice:
			return w.skip(1)
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(t.Elem(), place+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		_, err := w.token()
		return err
	}
	return w.scalar(tok, t, place)
}

// scalar checks a scalar token against t, a bool, number or string
// field's type; null, any other type, and a type that reads itself
// (Duration) are left to encoding/json.
func (w *walker) scalar(tok json.Token, t reflect.Type, place string) error {
	if tok == nil || reflect.PointerTo(t).Implements(unmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	got := ""
	switch k := t.Kind(); {
	case k == reflect.Bool:
		if _, ok := tok.(bool); !ok {
			got = kindOf(tok)
		}
	case k == reflect.String:
		if _, ok := tok.(string); !ok {
			got = kindOf(tok)
		}
	case k == reflect.Struct || k == reflect.Map || k == reflect.Slice || k == reflect.Array:
		got = kindOf(tok)
	case reflect.Int <= k && k <= reflect.Float64:
		n, ok := tok.(json.Number)
		switch {
		case !ok:
			got = kindOf(tok)
		case k >= reflect.Float32:
			if _, err := strconv.ParseFloat(string(n), t.Bits()); err != nil {
				got = "number " + string(n)
			}
		case k >= reflect.Uint:
			if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
				got = "number " + string(n)
			}
		default:
			if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
				got = "number " + string(n)
			}
		}
	}
	if got == "" {
		return nil
	}
	return w.wrongType(t, got, place)
}

// wrongType says that the value at place, got, is not of type t: `key
// "tools.a" must be an object, got bool at offset 20`.
func (w *walker) wrongType(t reflect.Type, got, place string) error {
	want := t.String()
	if k := t.Kind(); k == reflect.Struct || k == reflect.Map {
		want = "an object"
	}
	return fmt.Errorf("key %q must be %s, got %s at offset %d", place, want, got, w.offset())
}

var (
	unmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// kindOf names the kind of a scalar token as encoding/json does.
func kindOf(tok json.Token) string {
	switch tok.(type) {
	case bool:
		return "bool"
	case string:
		return "string"
	}
	return "number"
}

// mapMembers checks the members of a map with string keys, after its
// '{': a name given twice is an error, and each value decodes into elem.
func (w *walker) mapMembers(elem reflect.Type, place string) error {
	return w.members(place, func(key string, _ int64) error {
		return w.value(elem, member(place, key))
	})
}

// members reads the members of an object or map after its '{' and its
// '}': a key given twice is an error; each other key goes to each, with
// its offset, and each reads the key's value.
func (w *walker) members(place string, each func(key string, off int64) error) error {
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.token()
		if err != nil {
			return err
		}
		key, off := tok.(string), w.offset()
		if seen[key] {
			return fmt.Errorf("%skey %q given twice, at offset %d", where(place), key, off)
		}
		seen[key] = true
		if err := each(key, off); err != nil {
			return err
		}
	}
	_, err := w.token()
	return err
}

// where is how an error names place before what it says: "place: ", or
// nothing at the top.
func where(place string) string {
	if place == "" {
		return ""
	}
	return place + ": "
}

// member is the place of a map's member key at place: place.key, or
// place["key"] if key is not a plain word.
func member(place, key string) string {
	plain := key != ""
	for _, c := range key {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			plain = false
			break
		}
	}
	switch {
	case !plain:
		return place + "[" + strconv.Quote(key) + "]"
	case place == "":
		return key
	}
	return place + "." + key
}

// object checks the members of an object, after its '{', against the
// fields of struct t.
func (w *walker) object(t reflect.Type, place string) error {
	fields := jsonFields(t)
	return w.members(place, func(key string, off int64) error {
		ft, ok := fields[key]
		if !ok {
			for name := range fields {
				if strings.EqualFold(name, key) {
					return fmt.Errorf("%skey %q is %q in another case, at offset %d", where(place), key, name, off)
				}
			}
			return fmt.Errorf("%sunknown key %q, at offset %d", where(place), key, off)
		}
		sub := key
		if place != "" {
			sub = place + "." + key
		}
		return w.value(ft, sub)
	})
}

// skip reads to the end of the containers opened, depth of them.
func (w *walker) skip(depth int) error {
	for depth > 0 {
		tok, err := w.token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// jsonFields maps the JSON names of struct t's exported fields, those of
// embedded structs included, to their types, as encoding/json names them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			for k, v := range jsonFields(f.Type) {
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			}
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// syntaxError says what is wrong with JSON that does not parse; size is
// the input's.
func syntaxError(err error, size int) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
		return fmt.Errorf("invalid JSON: the config ends early at offset %d", size)
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at offset %d: %s", se.Offset, strings.TrimPrefix(err.Error(), "json: "))
	}
	return err
}

// decodeError says what encoding/json found wrong, in the config's terms;
// size is the config's.
func decodeError(err error, dec *json.Decoder, size int) error {
	var te *json.UnmarshalTypeError
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.As(err, &te):
		// The path names embedded structs (routes.MaskConfig.statuses),
		// which are no keys: JSON keys here are in lower case.
		var keys []string
		for k := range strings.SplitSeq(te.Field, ".") {
			if k != "" && !('A' <= k[0] && k[0] <= 'Z') {
				keys = append(keys, k)
			}
		}
		return fmt.Errorf("key %q must be %s, got %s at offset %d", strings.Join(keys, "."), te.Type, te.Value, te.Offset)
	case strings.HasPrefix(msg, "unknown field "):
		return fmt.Errorf("unknown key %s, before offset %d", strings.TrimPrefix(msg, "unknown field "), dec.InputOffset())
	}
	if e := syntaxError(err, size); e != err {
		return e
	}
	return errors.New(msg)
}
