package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// stdlibMasker masks with encoding/json as most Go code would: decode into
// any, filter the map tree, marshal the result. It decodes with UseNumber so
// that numbers keep their spelling, as jsonmask's do (SPEC O2).
type stdlibMasker struct {
	t tree
	r bytes.Reader
}

func newStdlib(t tree) masker { return &stdlibMasker{t: t} }

func (s *stdlibMasker) Mask(dst, doc []byte) ([]byte, error) {
	s.r.Reset(doc)
	dec := json.NewDecoder(&s.r)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return dst, err
	}
	// Decode stops after the first value; jsonmask also rejects whatever but
	// whitespace follows it (SPEC V1), so check that here too.
	if _, err := dec.Token(); err != io.EOF {
		return dst, errTrailingData
	}
	out, err := json.Marshal(s.t.applyAny(v))
	if err != nil {
		return dst, err
	}
	return append(dst, out...), nil
}

var errTrailingData = errors.New("data after the top-level value")
