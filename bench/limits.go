package bench

import (
	"errors"

	"github.com/bytedance/sonic"
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

// copyLimit copies the body into dst: memcpy, the upper limit of any masker
// that writes its output to memory.
type copyLimit struct{}

func newCopy(*Workload) (masker, error) { return copyLimit{}, nil }

func (copyLimit) Mask(dst, doc []byte) ([]byte, error) { return append(dst, doc...), nil }
