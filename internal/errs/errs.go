// Package errs makes the errors of the module's packages (docs/STYLE.md,
// "Errors"): each says "jsonmask: " once, at its start, and gives the text
// after it as its Detail, so that a layer that says where an error happened
// ("jsonmask: config FILE: ROUTE: ...") writes the prefix once without
// cutting a message apart. Every package of the module may import it; the
// root package's typed errors (*jsonmask.SyntaxError, *jsonmask.MaskError)
// have a Detail method of their own, which Detail reads the same way.
package errs

import (
	"errors"
	"fmt"
)

// Prefix begins the message of every error of the module.
const Prefix = "jsonmask: "

// Error is an error of the module: Prefix and its detail.
type Error struct {
	err error // the detail, and what it wraps
}

// New returns an error whose message is Prefix and detail.
func New(detail string) error { return &Error{errors.New(detail)} }

// Errorf returns an error whose message is Prefix and the formatted detail;
// a %w verb wraps its argument, as fmt.Errorf does.
func Errorf(format string, args ...any) error {
	return &Error{fmt.Errorf(format, args...)}
}

func (e *Error) Error() string { return Prefix + e.err.Error() }

// Detail is the message without Prefix.
func (e *Error) Detail() string { return e.err.Error() }

// Unwrap returns the error that Errorf's %w wrapped, or nil, as
// errors.Unwrap does of what fmt.Errorf returns (the module's errors wrap
// one error at most).
func (e *Error) Unwrap() error { return errors.Unwrap(e.err) }

// Detail returns err's message without the module's Prefix: the Detail of
// an error that has one (this package's, and the root package's typed
// errors), else the whole message of an error from outside the module (an
// os or net error, which has no prefix).
func Detail(err error) string {
	if d, ok := err.(interface{ Detail() string }); ok {
		return d.Detail()
	}
	return err.Error()
}
