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
	prog   *compile.Program
	cfg    config
	values *fallback.ValueEncoder // AppendValue's plans, shared by the Masks of one Program
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
	prog, err := compile.Compile(mask, compile.Options{MaxDepth: c.MaxDepth, Wildcards: c.wildcards})
	if err != nil {
		return nil, convertMask(err)
	}
	return newMask(prog, c), nil
}

// With returns a Mask that shares m's compiled mask and masks with m's
// options changed by opts, applied in order after them: one mask compiled
// once can serve routes that differ in options (WithStrict on one,
// WithArrays on another) without compiling it again. m is unchanged. The
// mask's own nesting was checked against the limit Compile was given; a
// smaller WithMaxDepth here limits documents only. WithWildcards, which says
// how the mask is read, cannot change here: With fails if it would.
func (m *Mask) With(opts ...Option) (*Mask, error) {
	c, err := m.cfg.with(opts)
	if err != nil {
		return nil, err
	}
	if c.wildcards != m.cfg.wildcards {
		return nil, errWildcardsWith
	}
	return &Mask{prog: m.prog, cfg: c, values: m.values}, nil // plans do not depend on options
}

// with returns c changed by opts, with defaults where an option is unset.
func (c config) with(opts []Option) (config, error) {
	for _, o := range opts {
		if err := o(&c); err != nil {
			return config{}, err
		}
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = DefaultMaxDepth
	}
	if c.bufferSize == 0 {
		c.bufferSize = DefaultBufferSize
	}
	return c, nil
}

// newMask returns the Mask of a newly compiled prog.
func newMask(prog *compile.Program, c config) *Mask {
	return &Mask{prog: prog, cfg: c, values: fallback.NewValueEncoder(prog)}
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
	mc.Reset(m.prog, m.cfg.Config)
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
		return dst, convert(m.prog, err)
	}
	return dst, nil
}

// AppendValue appends to dst the JSON encoding of v, masked: the bytes that
// Append would give for encoding/json's encoding of v (json.Marshal: tags,
// embedded structs, omitempty, omitzero, ",string", MarshalJSON and
// MarshalText, sorted map keys, HTML-safe escapes), without encoding what
// the mask drops. A value whose encoding is not an object (nor an array,
// with WithArrays) is encoded as it is (SPEC B3), or rejected under
// WithStrict with a *SyntaxError that wraps ErrNotObject, as Append would
// reject the encoding (B5). WithNDJSON and the size limits do not apply.
//
// The first call for a Go type builds a plan of that type under the mask
// and keeps it with m (and the Masks that With makes from m): later calls
// walk only the fields and members the mask names, write what it keeps
// whole directly, and allocate nothing for structs, slices, pointers,
// map[string]any and map[string]string. A value with a method of its own
// is encoded by it and its output masked.
//
// Errors are encoding/json's where it would fail on what AppendValue
// encodes (a NaN, an invalid json.Number, a method's error, a cycle; and a
// channel, function or unsupported map wherever the mask reaches one), a
// MarshalJSON output that is not UTF-8 where the mask keeps it (encoding/json
// passes it on, Append rejects it: a *json.MarshalerError), or a value nested
// deeper than WithMaxDepth, which wraps ErrMaxDepth. Unlike
// Append, AppendValue does not look at what the mask drops: members it
// does not name, and scalars that WithDropMismatched drops, cannot fail.
// On error the bytes appended to dst are not to be used; they never hold a
// dropped value.
func (m *Mask) AppendValue(dst []byte, v any) ([]byte, error) {
	dst, err := m.values.Append(dst, v, fallback.ValueOptions{
		Arrays: m.cfg.Arrays, DropMismatched: m.cfg.DropMismatched, Strict: m.cfg.Strict, MaxDepth: m.cfg.MaxDepth,
	})
	switch e := err.(type) {
	case *fallback.DepthError:
		return dst, &valueDepthError{e}
	case *fallback.NotObjectError:
		// What Append gives for the encoding: its first byte is at offset 0.
		se := newSyntaxError(e.Error() + " at offset 0")
		se.err = ErrNotObject
		return dst, se
	}
	return dst, err
}

// valueDepthError is AppendValue's error for a value nested deeper than
// WithMaxDepth: like Append's, it wraps ErrMaxDepth.
type valueDepthError struct{ de *fallback.DepthError }

func (e *valueDepthError) Error() string { return prefix + e.Detail() }

// Detail is the message without its "jsonmask: ".
func (e *valueDepthError) Detail() string { return e.de.Error() }
func (e *valueDepthError) Unwrap() error  { return ErrMaxDepth }
