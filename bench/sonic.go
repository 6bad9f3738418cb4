package bench

import "github.com/bytedance/sonic"

// sonicAPI is sonic's default configuration (no string validation, no key
// sorting, strings not copied: its fastest safe setup) plus UseNumber, so that
// numbers keep their spelling as with the other implementations.
var sonicAPI = sonic.Config{UseNumber: true}.Froze()

// sonicMasker is stdlibMasker with sonic in place of encoding/json.
type sonicMasker struct{ t tree }

func newSonic(t tree) masker { return sonicMasker{t} }

func (s sonicMasker) Mask(dst, doc []byte) ([]byte, error) {
	var v any
	if err := sonicAPI.Unmarshal(doc, &v); err != nil {
		return dst, err
	}
	out, err := sonicAPI.Marshal(s.t.applyAny(v))
	if err != nil {
		return dst, err
	}
	return append(dst, out...), nil
}
