package jsonmask

import (
	"errors"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/stream"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// ErrMaxDepth is wrapped by the error for a document or mask that nests
// deeper than the limit (WithMaxDepth): test with errors.Is.
var ErrMaxDepth = tokenizer.ErrMaxDepth

// ErrInputTooLarge is wrapped by the error for an input longer than
// WithMaxInputSize allows.
var ErrInputTooLarge = stream.ErrInputTooLarge

// ErrTokenTooLarge is wrapped by the error for a string or number longer than
// WithMaxTokenSize allows.
var ErrTokenTooLarge = tokenizer.ErrTokenTooLarge

// ErrNotObject is wrapped by the error for a body that WithStrict rejects
// because it would pass through unmasked (SPEC B5).
var ErrNotObject = stream.ErrNotObject

// SyntaxError is an input that a Mask rejected: it is not valid JSON (SPEC
// V1), it nests too deep (V2, ErrMaxDepth), or it breaks a size limit
// (ErrInputTooLarge, ErrTokenTooLarge): test with errors.Is.
type SyntaxError struct {
	Offset  int64  // offset in the input of the byte where it went wrong, or its length if it ended early
	Pointer string // JSON Pointer (RFC 6901) of the member being read, where known; "" at the top
	Line    int64  // with WithNDJSON, the line (from 1); otherwise 0
	msg     string
	err     error
}

// Error returns "jsonmask: <what> at offset N (<pointer>)".
func (e *SyntaxError) Error() string { return e.msg }

// Unwrap returns ErrMaxDepth, ErrInputTooLarge or ErrTokenTooLarge for an
// input rejected by a limit, else nil.
func (e *SyntaxError) Unwrap() error { return e.err }

// MaskError is a mask that does not compile (SPEC M2 to M4).
type MaskError struct {
	Offset  int64  // offset in the mask of the byte at fault
	Pointer string // JSON Pointer of the mask member at fault; "" for the mask as a whole
	msg     string
	err     error
}

// Error returns the reason, e.g. `jsonmask: mask member "/members/email" must
// be true or an object, got false`.
func (e *MaskError) Error() string { return "jsonmask: " + e.msg }

// Unwrap returns ErrMaxDepth for a mask nested too deep, else nil.
func (e *MaskError) Unwrap() error { return e.err }

// convert turns the internal packages' errors into the exported types. I/O
// errors pass through as they are.
func convert(err error) error {
	if err == nil {
		return nil
	}
	var se *stream.Error
	if errors.As(err, &se) {
		return &SyntaxError{Offset: se.Offset, Pointer: se.Pointer, Line: se.Line, msg: se.Error(), err: se.Err}
	}
	return err
}

func convertMask(err error) error {
	ce := err.(*compile.Error)
	var inner error
	if errors.Is(ce.Err, ErrMaxDepth) {
		inner = ErrMaxDepth
	}
	return &MaskError{Offset: ce.Offset, Pointer: ce.Pointer, msg: ce.Msg, err: inner}
}
