package bench

import (
	"github.com/go-faster/jx"
)

// jxMasker reads the body with a reused go-faster/jx Decoder, a streaming
// tokenizer without a value tree: it walks the levels the mask names, skips
// the members it drops with Skip and copies each kept value's raw bytes with
// Raw. jx unescapes object keys before the lookup (SPEC M5); keys are written
// back from their unescaped form, as fastjson's are.
type jxMasker struct {
	t tree
	d jx.Decoder
}

func newJX(t tree) masker { return &jxMasker{t: t} }

func (m *jxMasker) Mask(dst, doc []byte) ([]byte, error) {
	m.d.ResetBytes(doc)
	dst, err := appendJX(dst, m.t, &m.d)
	if err != nil {
		return dst, err
	}
	// Only whitespace may follow the body: Skip of anything else fails, and
	// an empty rest ends in io.EOF.
	if tt := m.d.Next(); tt != jx.Invalid {
		return dst, errTrailingData
	}
	return dst, nil
}

// appendJX appends the value at d masked by t, a nested mask (not nil).
func appendJX(dst []byte, t tree, d *jx.Decoder) ([]byte, error) {
	switch d.Next() {
	case jx.Object:
		dst = append(dst, '{')
		first := true
		err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
			sub, ok := t[string(key)] // the lookup does not allocate
			if !ok {
				return d.Skip()
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendJSONString(dst, key)
			dst = append(dst, ':')
			var err error
			if sub == nil {
				var raw jx.Raw
				raw, err = d.Raw()
				dst = append(dst, raw...)
			} else {
				dst, err = appendJX(dst, sub, d)
			}
			return err
		})
		return append(dst, '}'), err
	case jx.Array:
		dst = append(dst, '[')
		first := true
		err := d.Arr(func(d *jx.Decoder) error {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			var err error
			dst, err = appendJX(dst, t, d)
			return err
		})
		return append(dst, ']'), err
	default: // a scalar under a nested mask is kept (SPEC A4)
		raw, err := d.Raw()
		return append(dst, raw...), err
	}
}
