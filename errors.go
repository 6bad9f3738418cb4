package jsonmask

import (
	"errors"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/stream"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// The errors that a rejected input or mask wraps, for errors.Is. The inner
// packages have their own, without the "jsonmask: " prefix; convert puts
// these in their place.
var (
	// ErrMaxDepth is wrapped by the error for a document or mask that nests
	// deeper than the limit (WithMaxDepth).
	ErrMaxDepth = errors.New("jsonmask: maximum nesting depth exceeded")

	// ErrInputTooLarge is wrapped by the error for an input longer than
	// WithMaxInputSize allows.
	ErrInputTooLarge = errors.New("jsonmask: input too large")

	// ErrTokenTooLarge is wrapped by the error for a string or number longer
	// than WithMaxTokenSize allows.
	ErrTokenTooLarge = errors.New("jsonmask: string or number too large")

	// ErrNotObject is wrapped by the error for a body that WithStrict rejects
	// because it would pass through unmasked (SPEC B5).
	ErrNotObject = errors.New("jsonmask: body is not a JSON object")

	// ErrClosed is returned by a Reader's Read after Close, and by a Writer's
	// Write after Close.
	ErrClosed = errors.New("jsonmask: use of a closed masked stream")
)

// sentinel returns the front door's sentinel for an inner package's, and
// any other error as it is.
func sentinel(err error) error {
	switch err {
	case tokenizer.ErrMaxDepth:
		return ErrMaxDepth
	case tokenizer.ErrTokenTooLarge:
		return ErrTokenTooLarge
	case stream.ErrInputTooLarge:
		return ErrInputTooLarge
	case stream.ErrNotObject:
		return ErrNotObject
	case stream.ErrClosed:
		return ErrClosed
	}
	return err
}

// SyntaxError is an input that a Mask rejected: it is not valid JSON (SPEC
// V1), it nests too deep (V2, ErrMaxDepth), it breaks a size limit
// (ErrInputTooLarge, ErrTokenTooLarge), or WithStrict refused it
// (ErrNotObject): test with errors.Is.
type SyntaxError struct {
	Offset  int64  // offset in the input of the byte where it went wrong, or its length if it ended early
	Pointer string // JSON Pointer (RFC 6901) of the member being read, where known; "" at the top
	Line    int64  // with WithNDJSON, the line (from 1); otherwise 0
	msg     string
	err     error
}

// Error returns "jsonmask: <what> at offset N (<pointer>)", on one line: the
// pointer's control bytes, U+2028, U+2029 and invalid UTF-8 are escaped as
// Go's %q escapes them, and a pointer longer than 200 bytes is shortened to
// its head, "…" and its tail (SPEC V3). The Pointer field holds it whole.
func (e *SyntaxError) Error() string { return e.msg }

// Unwrap returns ErrMaxDepth, ErrInputTooLarge, ErrTokenTooLarge or
// ErrNotObject for an input rejected by a limit or by WithStrict, else nil.
func (e *SyntaxError) Unwrap() error { return e.err }

// MaskError is a mask that does not compile (SPEC M2 to M4).
type MaskError struct {
	Offset  int64  // offset in the mask of the byte at fault
	Pointer string // JSON Pointer of the mask member at fault; "" for the mask as a whole
	msg     string
	err     error
}

// Error returns the reason, e.g. `jsonmask: mask member "/members/email" must
// be true or an object, got false`, on one line: the pointer is quoted as in
// a SyntaxError, and shortened alike.
func (e *MaskError) Error() string { return e.msg }

// Unwrap returns ErrMaxDepth for a mask nested too deep, else nil.
func (e *MaskError) Unwrap() error { return e.err }

// convert turns the internal packages' errors into the exported types and
// sentinels, adding the "jsonmask: " prefix that their messages leave out.
// I/O errors pass through as they are.
func convert(err error) error {
	if se, ok := err.(*stream.Error); ok {
		return &SyntaxError{Offset: se.Offset, Pointer: se.Pointer, Line: se.Line, msg: "jsonmask: " + se.Error(), err: sentinel(se.Err)}
	}
	return sentinel(err)
}

func convertMask(err error) error {
	var ce *compile.Error
	if !errors.As(err, &ce) {
		return &MaskError{msg: "jsonmask: " + err.Error()}
	}
	var inner error
	if errors.Is(ce.Err, tokenizer.ErrMaxDepth) {
		inner = ErrMaxDepth
	}
	return &MaskError{Offset: ce.Offset, Pointer: ce.Pointer, msg: "jsonmask: " + ce.Msg, err: inner}
}
