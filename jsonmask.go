package jsonmask

import (
	"sync"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/fallback"
	"github.com/jsonmask/jsonmask/stream"
)

// Mask is a compiled response_mask. It is immutable and safe for concurrent
// use by any number of goroutines (SPEC M7): compile it once, use it for every
// response.
type Mask struct {
	prog *compile.Program
	opts config        // the options, for With
	cfg  stream.Config // what the machine needs of them
	buf  int           // streaming window size
}

// Compile compiles a mask: a JSON object whose members are true (keep the
// field) or nested mask objects (recurse), e.g.
//
//	{"id": true, "user": {"name": true}}
//
// A mask that is not such an object fails with a *MaskError that says where
// (SPEC section 1). An option given a bad argument fails with its own error.
func Compile(mask []byte, opts ...Option) (*Mask, error) {
	c, err := config{}.with(opts)
	if err != nil {
		return nil, err
	}
	prog, err := compile.Compile(mask, compile.Options{MaxDepth: c.maxDepth, Wildcards: c.wildcards})
	if err != nil {
		return nil, convertMask(err)
	}
	return c.mask(prog), nil
}

// With returns a Mask that shares m's compiled mask and masks with m's
// options changed by opts, applied in order after them: one mask compiled
// once can serve routes that differ in options (WithStrict on one,
// WithArrays on another) without compiling it again. m is unchanged. The
// mask's own nesting was checked against the limit Compile was given; a
// smaller WithMaxDepth here limits documents only. WithWildcards, which says
// how the mask is read, cannot change here: With fails if it would.
func (m *Mask) With(opts ...Option) (*Mask, error) {
	c, err := m.opts.with(opts)
	if err != nil {
		return nil, err
	}
	if c.wildcards != m.opts.wildcards {
		return nil, errWildcardsWith
	}
	return c.mask(m.prog), nil
}

// with returns c changed by opts, with defaults where an option is unset.
func (c config) with(opts []Option) (config, error) {
	for _, o := range opts {
		if err := o(&c); err != nil {
			return config{}, err
		}
	}
	if c.maxDepth == 0 {
		c.maxDepth = DefaultMaxDepth
	}
	if c.bufferSize == 0 {
		c.bufferSize = DefaultBufferSize
	}
	return c, nil
}

func (c config) mask(prog *compile.Program) *Mask {
	return &Mask{prog: prog, opts: c, buf: c.bufferSize, cfg: stream.Config{
		Arrays: c.arrays, DropMismatched: c.dropMismatched, Trusted: c.trusted, Strict: c.strict,
		NDJSON: c.ndjson, MaxDepth: c.maxDepth, MaxInput: c.maxInput, MaxToken: c.maxToken,
	}}
}

// MustCompile is like Compile but panics if the mask does not compile. It is
// meant for masks written in the program's source, in package-level variables.
func MustCompile(mask string, opts ...Option) *Mask {
	m, err := Compile([]byte(mask), opts...)
	if err != nil {
		panic(err)
	}
	return m
}

var machines = sync.Pool{New: func() any { return new(stream.Machine) }}

func (m *Mask) machine() *stream.Machine {
	mc := machines.Get().(*stream.Machine)
	mc.Reset(m.prog, m.cfg)
	return mc
}

func release(mc *stream.Machine) {
	if mc.Small() {
		mc.Reset(nil, stream.Config{}) // hold no Program, no caller's bytes
		machines.Put(mc)
	}
}

// Append masks src, a whole response body, and appends the result to dst.
// A JSON object is masked; any other body is appended as it is (SPEC B3).
// When dst has room for the result Append allocates nothing.
//
// On error, a *SyntaxError, the bytes appended to dst are not to be used.
// dst and src must not overlap.
func (m *Mask) Append(dst, src []byte) ([]byte, error) {
	mc := m.machine()
	dst, err := mc.Append(dst, src)
	release(mc)
	if err != nil {
		return dst, convert(err)
	}
	return dst, nil
}

// AppendValue appends to dst the JSON encoding of v, masked: the bytes that
// Append would give for encoding/json's encoding of v, without encoding what
// the mask drops. Structs (json tags, omitempty, omitzero), maps with string
// or integer keys, slices, arrays, pointers and interfaces are walked with
// reflect; values the mask keeps whole are encoded by encoding/json; a value
// with its own MarshalJSON or
// MarshalText, or a struct with embedded fields, is encoded and then masked.
// WithNDJSON does not apply. An error is the encoder's, or a value nested
// deeper than WithMaxDepth (such as a cycle of pointers) in the parts that
// AppendValue walks or encodes: unlike Append, it does not look at what the
// mask drops.
func (m *Mask) AppendValue(dst []byte, v any) ([]byte, error) {
	return fallback.AppendValue(dst, m.prog, v, fallback.ValueOptions{
		Arrays: m.cfg.Arrays, DropMismatched: m.cfg.DropMismatched, MaxDepth: m.cfg.MaxDepth,
	})
}
