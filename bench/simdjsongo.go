package bench

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/minio/simdjson-go"
)

// simdjsonGoMasker parses the body with minio/simdjson-go (a Go port of
// simdjson's two stages, AVX2 or AVX-512 and CLMUL: it needs them) into a
// reused tape, walks the tape following the mask and writes the kept values
// back with MarshalJSONBuffer. Strings are not copied out of the input
// (WithCopyStrings(false), its fastest setup). The tape keeps numbers as
// int64, uint64 or float64, not as text, so a kept float is written in Go's
// shortest form: the same number, not always the same spelling.
type simdjsonGoMasker struct {
	t  tree
	pj *simdjson.ParsedJson
}

func newSimdjsonGo(t tree) masker { return &simdjsonGoMasker{t: t} }

// newSimdjsonGoImpl is peer(newSimdjsonGo) where the CPU has what
// simdjson-go needs, and errUnsupported elsewhere: the benchmark and the test
// then skip it.
func newSimdjsonGoImpl(w *Workload) (masker, error) {
	if !simdjson.SupportedCPU() {
		return nil, errSimdjsonCPU
	}
	return peer(newSimdjsonGo)(w)
}

var errSimdjsonCPU = fmt.Errorf("simdjson-go: the CPU lacks AVX2 or CLMUL: %w", errUnsupported)

func (m *simdjsonGoMasker) Mask(dst, doc []byte) ([]byte, error) {
	if !simdjson.SupportedCPU() {
		return dst, errSimdjsonCPU
	}
	pj, err := simdjson.Parse(doc, m.pj, simdjson.WithCopyStrings(false))
	if err != nil {
		return dst, err
	}
	m.pj = pj
	it := pj.Iter()
	if it.Advance() != simdjson.TypeRoot {
		return dst, errors.New("simdjson-go: no root")
	}
	var root simdjson.Iter
	if _, _, err := it.Root(&root); err != nil {
		return dst, err
	}
	return appendSimdjsonGo(dst, m.t, &root)
}

// appendSimdjsonGo appends the value at it masked by t, a nested mask (not
// nil).
func appendSimdjsonGo(dst []byte, t tree, it *simdjson.Iter) ([]byte, error) {
	switch it.Type() {
	case simdjson.TypeObject:
		var o simdjson.Object
		if _, err := it.Object(&o); err != nil {
			return dst, err
		}
		dst = append(dst, '{')
		first := true
		var elem simdjson.Iter
		for {
			key, typ, err := o.NextElementBytes(&elem)
			if err != nil {
				return dst, err
			}
			if typ == simdjson.TypeNone {
				break
			}
			sub, ok := t[string(key)] // key is unescaped; the lookup does not allocate
			if !ok {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendJSONString(dst, key)
			dst = append(dst, ':')
			if sub == nil {
				// elem holds this value alone: MarshalJSONBuffer writes
				// the rest of its iterator's scope.
				dst, err = elem.MarshalJSONBuffer(dst)
			} else {
				dst, err = appendSimdjsonGo(dst, sub, &elem)
			}
			if err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case simdjson.TypeArray:
		var a simdjson.Array
		if _, err := it.Array(&a); err != nil {
			return dst, err
		}
		dst = append(dst, '[')
		ai := a.Iter()
		for n := 0; ai.Advance() != simdjson.TypeNone; n++ {
			if n > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendSimdjsonGo(dst, t, &ai); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	default: // a scalar under a nested mask is kept (SPEC A4)
		return appendSimdjsonScalar(dst, it)
	}
}

// appendSimdjsonScalar writes the scalar at it. An array's iterator spans the
// rest of the array, so MarshalJSONBuffer would write more than this value.
func appendSimdjsonScalar(dst []byte, it *simdjson.Iter) ([]byte, error) {
	switch it.Type() {
	case simdjson.TypeString:
		s, err := it.StringBytes()
		return appendJSONString(dst, s), err
	case simdjson.TypeInt:
		n, err := it.Int()
		return strconv.AppendInt(dst, n, 10), err
	case simdjson.TypeUint:
		n, err := it.Uint()
		return strconv.AppendUint(dst, n, 10), err
	case simdjson.TypeFloat:
		f, err := it.Float()
		return strconv.AppendFloat(dst, f, 'g', -1, 64), err
	case simdjson.TypeBool:
		b, err := it.Bool()
		return strconv.AppendBool(dst, b), err
	case simdjson.TypeNull:
		return append(dst, "null"...), nil
	default:
		return dst, errors.New("simdjson-go: unexpected value type")
	}
}
