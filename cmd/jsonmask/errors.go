package main

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/jsonmask/jsonmask"
)

// How the CLI says an error: one line on standard error that begins with
// "jsonmask: " once (SPEC L3), whatever layers the error went through. The
// line is chosen by the error's type, and no message is cut apart:
//
//   - a *jsonmask.SyntaxError (an input rejected): "jsonmask: WHERE: " and
//     its Detail, "<what> at offset N (<pointer>)";
//   - an error of the module's packages (the mask, the store, a config, a
//     query): its message begins with "jsonmask: " and names what it
//     concerns, so it is written whole, without WHERE;
//   - an *fs.PathError, whose operation and path WHERE already names:
//     "jsonmask: WHERE: " and its cause ("no such file or directory");
//   - anything else (the CLI's own words, the flag package's, I/O):
//     "jsonmask: WHERE: " and its message.
//
// WHERE is what the CLI was doing (a file, a flag, a server), given by a
// *located error or by the caller; a line without one leaves it out.
// redactedLine is the same with a SyntaxError's RedactedDetail, for
// jsonmask context (SPEC G5).

// prefix begins every line the CLI writes about an error, and every error
// of the module's packages.
const prefix = "jsonmask: "

// located is an error met at where: a file, "-mask-file", "-config FILE",
// "mcp: SERVER". Its message is the line the CLI writes for it.
type located struct {
	where string
	err   error
}

func (e *located) Error() string { return errorLine(e.where, e.err) }
func (e *located) Unwrap() error { return e.err }

// errorLine returns the line for err, met at where ("" for none), as the map
// above says. It looks at err's own type, not through its chain: a layer
// that wrapped a *SyntaxError or an *fs.PathError said something of its
// own, which the line keeps.
func errorLine(where string, err error) string {
	switch e := err.(type) {
	case *located:
		return errorLine(join(where, e.where), e.err)
	case *jsonmask.SyntaxError:
		return prefix + join(where, e.Detail())
	}
	if strings.HasPrefix(err.Error(), prefix) {
		// An error of the module's packages, which says "jsonmask: "
		// itself (docs/STYLE.md, "Errors"): *jsonmask.MaskError, the
		// root's sentinels, and the errors of toolresult, mcpproxy and
		// config, most of which have no type to tell them by. The prefix
		// is read, never cut.
		return err.Error()
	}
	if pe, ok := err.(*fs.PathError); ok && where != "" {
		return prefix + join(where, pe.Err.Error())
	}
	return prefix + join(where, err.Error())
}

// redactedLine is errorLine for an error that may quote the input (SPEC
// G5): a *jsonmask.SyntaxError gives its RedactedDetail, and one that a
// layer wrapped is written as jsonmask.Redact writes the chain.
func redactedLine(where string, err error) string {
	var se *jsonmask.SyntaxError
	switch {
	case !errors.As(err, &se):
		return errorLine(where, err)
	case se == err:
		return prefix + join(where, se.RedactedDetail())
	}
	return errorLine(where, errors.New(jsonmask.Redact(err)))
}

// join is "where: what", or what alone.
func join(where, what string) string {
	if where == "" {
		return what
	}
	return where + ": " + what
}
