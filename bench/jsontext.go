package bench

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// jsontextOptions configure both ends of the token stream to match jsonmask's
// contract: duplicate names are allowed and each is masked on its own (SPEC
// A5), and kept strings are written with their escapes as they were (SPEC O2).
// Without AllowDuplicateNames jsontext would also track every name, work that
// jsonmask does not do.
var jsontextOptions = []jsontext.Options{
	jsontext.AllowDuplicateNames(true),
	jsontext.PreserveRawStrings(true),
}

// jsontextMasker copies a jsontext token stream from a Decoder to an Encoder,
// following the mask: a dropped member is skipped with SkipValue, a kept value
// is copied whole with ReadValue and WriteValue, and a masked object or array
// is entered token by token. Nesting is tracked on an explicit stack, not by
// recursion. Decoder and Encoder are reused, reading from and appending to
// bytes.Buffers, which jsontext reads and writes in place.
type jsontextMasker struct {
	t     tree
	in    bytes.Buffer
	out   bytes.Buffer
	dec   *jsontext.Decoder
	enc   *jsontext.Encoder
	stack []jsontextFrame
	name  []byte // scratch for unescaping a member name
}

// jsontextFrame is an object or array being masked.
type jsontextFrame struct {
	t      tree
	object bool
}

func newJSONText(t tree) masker {
	m := &jsontextMasker{t: t}
	m.dec = jsontext.NewDecoder(&m.in, jsontextOptions...)
	m.enc = jsontext.NewEncoder(&m.out, jsontextOptions...)
	return m
}

var errNotContainer = errors.New("jsontext: masked body is not an object or array")

func (m *jsontextMasker) Mask(dst, doc []byte) ([]byte, error) {
	m.in = *bytes.NewBuffer(doc) // no copy: the decoder reads doc in place
	m.out = *bytes.NewBuffer(dst)
	m.dec.Reset(&m.in, jsontextOptions...)
	m.enc.Reset(&m.out, jsontextOptions...)
	err := m.mask()
	dst = m.out.Bytes()
	m.in, m.out = bytes.Buffer{}, bytes.Buffer{} // hold no caller's bytes
	if err != nil {
		return dst, err
	}
	// The encoder ends a top-level value with a newline; jsonmask does not.
	return bytes.TrimSuffix(dst, []byte{'\n'}), nil
}

func (m *jsontextMasker) mask() error {
	dec, enc := m.dec, m.enc
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	k := tok.Kind()
	if k != '{' && k != '[' {
		return errNotContainer // passthrough sends only these here
	}
	if err := enc.WriteToken(tok); err != nil {
		return err
	}
	m.stack = append(m.stack[:0], jsontextFrame{m.t, k == '{'})
	for len(m.stack) > 0 {
		top := m.stack[len(m.stack)-1]
		if k := dec.PeekKind(); k == '}' || k == ']' {
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if err := enc.WriteToken(tok); err != nil {
				return err
			}
			m.stack = m.stack[:len(m.stack)-1]
			continue
		}
		sub := top.t // an array's elements take the array's mask (SPEC A3)
		if top.object {
			name, err := dec.ReadValue() // the quoted name, as in the input
			if err != nil {
				return err
			}
			key, err := m.unquote(name)
			if err != nil {
				return err
			}
			s, ok := top.t[string(key)]
			if !ok {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				continue
			}
			if err := enc.WriteValue(name); err != nil {
				return err
			}
			sub = s
		}
		if k := dec.PeekKind(); sub != nil && (k == '{' || k == '[') {
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if err := enc.WriteToken(tok); err != nil {
				return err
			}
			m.stack = append(m.stack, jsontextFrame{sub, k == '{'})
			continue
		}
		// Kept whole: the mask says true, or the value is a scalar (SPEC A4).
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if err := enc.WriteValue(v); err != nil {
			return err
		}
	}
	// jsontext reads a stream of values; jsonmask accepts one (SPEC V1).
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errTrailingData
		}
		return err
	}
	return nil
}

// unquote returns the unescaped text of a quoted name, without copying when
// the name has no escapes.
func (m *jsontextMasker) unquote(name jsontext.Value) ([]byte, error) {
	if bytes.IndexByte(name, '\\') < 0 {
		return name[1 : len(name)-1], nil
	}
	var err error
	m.name, err = jsontext.AppendUnquote(m.name[:0], name)
	return m.name, err
}
