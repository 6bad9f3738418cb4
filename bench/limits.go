package bench

import (
	"bytes"
	"errors"

	"github.com/bytedance/sonic"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// sonicValid validates the body with sonic.Valid and writes nothing. It is not
// a masker but a limit: how fast one of the fastest Go JSON libraries can
// merely read the body.
type sonicValid struct{}

func newSonicValid(tree) masker { return sonicValid{} }

var errInvalid = errors.New("sonic.Valid: invalid JSON")

func (sonicValid) Mask(dst, doc []byte) ([]byte, error) {
	if !sonic.Valid(doc) {
		return dst, errInvalid
	}
	return dst, nil
}

// jsonmaskValid validates the body with jsonmask's own tokenizer and writes
// nothing: one Scanner.SkipValue over the whole body, the loop that Append runs
// over every value a mask drops. It is a limit, not a masker: masking the body
// makes the same checks of every byte, most of them in this very loop, and
// writes output besides: it runs at about this speed at best. (Members, which
// reads the masked levels, takes some members faster than this loop would.)
type jsonmaskValid struct{ s tokenizer.Scanner }

func newJSONMaskValid(tree) masker { return &jsonmaskValid{} }

func (v *jsonmaskValid) Mask(dst, doc []byte) ([]byte, error) {
	s := &v.s
	s.Reset(0)
	i := 0
	if bytes.HasPrefix(doc, bom) {
		i = len(bom)
	}
	_, i, err := s.Peek(doc, i)
	if err != nil {
		return dst, err
	}
	if i, _, err = s.SkipValue(doc, i); err != nil {
		return dst, err
	}
	if _, _, err = s.Peek(doc, i); err != nil { // only whitespace may follow
		return dst, err
	}
	return dst, s.End(len(doc))
}

// copyLimit copies the body into dst: memcpy, the upper limit of any masker
// that writes its output to memory.
type copyLimit struct{}

func newCopy(*Workload) (masker, error) { return copyLimit{}, nil }

func (copyLimit) Mask(dst, doc []byte) ([]byte, error) { return append(dst, doc...), nil }
