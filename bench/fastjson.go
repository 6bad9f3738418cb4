package bench

import (
	"github.com/valyala/fastjson"
)

// fastjsonMasker parses into a reused fastjson.Parser, walks the value tree
// following the mask and writes the structure and keys itself, kept values
// with MarshalTo. fastjson keeps an object's members in input order, so the
// output's order is the input's, as jsonmask's is.
type fastjsonMasker struct {
	t tree
	p fastjson.Parser
}

func newFastjson(t tree) masker { return &fastjsonMasker{t: t} }

func (f *fastjsonMasker) Mask(dst, doc []byte) ([]byte, error) {
	v, err := f.p.ParseBytes(doc)
	if err != nil {
		return dst, err
	}
	return appendFastjson(dst, f.t, v), nil
}

// appendFastjson appends v masked by t. t is a nested mask (not nil): a kept
// value is written by the caller with MarshalTo, without the call to Type that
// would make fastjson unescape a string only to escape it again.
func appendFastjson(dst []byte, t tree, v *fastjson.Value) []byte {
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object() // cannot fail: the type is checked
		dst = append(dst, '{')
		first := true
		o.Visit(func(key []byte, val *fastjson.Value) {
			sub, ok := t[string(key)] // key is unescaped; the lookup does not allocate
			if !ok {
				return
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendJSONString(dst, key)
			dst = append(dst, ':')
			if sub == nil {
				dst = val.MarshalTo(dst)
			} else {
				dst = appendFastjson(dst, sub, val)
			}
		})
		return append(dst, '}')
	case fastjson.TypeArray:
		a, _ := v.Array() // cannot fail: the type is checked
		dst = append(dst, '[')
		for i, e := range a {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendFastjson(dst, t, e)
		}
		return append(dst, ']')
	default:
		return v.MarshalTo(dst) // a scalar under a nested mask is kept (SPEC A4)
	}
}

// appendJSONString appends s, unescaped text, as a JSON string. fastjson
// hands object keys over unescaped and has no exported way to quote them.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c) // UTF-8 is valid in a JSON string as it is
		}
	}
	return append(dst, '"')
}
