package jsonmask

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/stream"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// The errors that a rejected input or mask wraps, for errors.Is. The inner
// packages have their own, without the "jsonmask: " prefix; convert puts
// these in their place.
var (
	// ErrMaxDepth is wrapped by the error for a document or mask that nests
	// deeper than the limit (WithMaxDepth).
	ErrMaxDepth = errs.New("maximum nesting depth exceeded")

	// ErrInputTooLarge is wrapped by the error for an input longer than
	// WithMaxInputSize allows.
	ErrInputTooLarge = errs.New("input too large")

	// ErrTokenTooLarge is wrapped by the error for a string or number longer
	// than WithMaxTokenSize allows.
	ErrTokenTooLarge = errs.New("string or number too large")

	// ErrNotObject is wrapped by the error for a body that WithStrict rejects
	// because it would pass through unmasked (SPEC B5).
	ErrNotObject = errs.New("body is not a JSON object")

	// ErrClosed is returned by a Reader's Read after Close, and by a Writer's
	// Write after Close.
	ErrClosed = errs.New("use of a closed masked stream")
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
	msg     string // prefix + what went wrong (Error); msg[len(prefix):] is Detail
	err     error
	kept    int    // the bytes of Pointer that name what the mask keeps (KeptPointer)
	why     string // what went wrong, quoting nothing of the input; "" if not known
}

// Error returns "jsonmask: <what> at offset N (<pointer>)", on one line: the
// pointer's control bytes, U+2028, U+2029 and invalid UTF-8 are escaped as
// Go's %q escapes them, and a pointer longer than 200 bytes is shortened to
// its head, "…" and its tail (SPEC V3). The Pointer field holds it whole.
func (e *SyntaxError) Error() string { return e.msg }

// Detail returns the message without the "jsonmask: " that Error puts
// first: "<what> at offset N (<pointer>)", for a program that says its own
// name and what it was reading before it, as the CLI does (SPEC L3:
// "jsonmask: FILE: <what> at offset N (<pointer>)").
func (e *SyntaxError) Detail() string { return e.msg[len(prefix):] }

// Unwrap returns ErrMaxDepth, ErrInputTooLarge, ErrTokenTooLarge or
// ErrNotObject for an input rejected by a limit or by WithStrict, else nil.
func (e *SyntaxError) Unwrap() error { return e.err }

// KeptPointer returns Pointer as it may be shown to a client or written to
// a log (SPEC G5, G9): it stops at the last member that the mask keeps,
// and ends in "/…" where Pointer goes on, so that it never names a member
// the mask drops; every control character, bidi control (U+202E, ...),
// U+2028, U+2029 and byte of invalid UTF-8 is escaped as Go's %q escapes it
// ("\u202e"), and one longer than 200 bytes is shortened as in Error. An
// array index is shown where the pointer goes on past it; a last token
// that may be an index or a dropped key is cut. It is "" when Pointer is.
func (e *SyntaxError) KeptPointer() string {
	if e.Pointer == "" {
		return ""
	}
	p := e.Pointer[:min(max(e.kept, 0), len(e.Pointer))]
	if len(p) < len(e.Pointer) {
		p += "/…"
	}
	q := jsonwire.QuotePointer(p)
	return q[1 : len(q)-1]
}

// Redacted returns the error's message as it may be shown to a client or
// written to a log (SPEC G5, G9): the kind of fault without the input's
// bytes ("invalid character after object key", not "invalid character
// 'x' ..."), the line and offset, and KeptPointer:
// "jsonmask: invalid character after object key at offset 12 (/user/…)".
func (e *SyntaxError) Redacted() string { return prefix + e.RedactedDetail() }

// RedactedDetail is Redacted without the "jsonmask: " it puts first, as
// Detail is Error without it: for a program that says its own name and
// context first, where it must redact (SPEC G5).
func (e *SyntaxError) RedactedDetail() string {
	s := ""
	if e.Line > 0 {
		s = "line " + strconv.FormatInt(e.Line, 10) + ": "
	}
	s += e.reason() + " at offset " + strconv.FormatInt(e.Offset, 10)
	if p := e.KeptPointer(); p != "" {
		s += " (" + p + ")"
	}
	return s
}

// reason is what went wrong, in words that quote nothing of the input.
func (e *SyntaxError) reason() string {
	switch e.err {
	case ErrMaxDepth:
		return "nesting deeper than the limit"
	case ErrInputTooLarge:
		return "input larger than the limit"
	case ErrTokenTooLarge:
		return "string or number longer than the limit"
	case ErrNotObject:
		return "not a JSON object, where one is required"
	}
	if e.why != "" {
		return e.why
	}
	return "not valid JSON"
}

// redactMsg is a tokenizer's message without the byte it quotes: "invalid
// character 'x' after object key" is "invalid character after object
// key". Other messages quote nothing; one that is not known gives "".
func redactMsg(msg string) string {
	const ic = "invalid character "
	switch {
	case msg == "unexpected end of JSON input":
		return msg
	case strings.HasPrefix(msg, ic+"'"):
		q := msg[len(ic)+1:]
		j := 0
		for j < len(q) && q[j] != '\'' {
			if q[j] == '\\' {
				j++
			}
			j++
		}
		if j < len(q) {
			return "invalid character" + q[j+1:]
		}
	}
	return ""
}

// Redact returns err's message as it may be shown to a client or written
// to a log (SPEC G5, G9): with the message of a *SyntaxError in its chain
// replaced by that error's Redacted one. The errors of this package that
// concern a mask, not an input, say nothing of the input, and pass as they
// are. It returns "" for a nil err.
func Redact(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	var se *SyntaxError
	if errors.As(err, &se) {
		if full := se.Error(); strings.Contains(s, full) {
			return strings.Replace(s, full, se.Redacted(), 1)
		}
		return se.Redacted()
	}
	return s
}

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

// Detail returns the message without the "jsonmask: " that Error puts
// first, for a program or package that says its own prefix and context
// before it: "the mask: mask member "/a" must be ...".
func (e *MaskError) Detail() string { return e.msg[len(prefix):] }

// Unwrap returns ErrMaxDepth for a mask nested too deep, else nil.
func (e *MaskError) Unwrap() error { return e.err }

// prefix begins the message of every error of this package.
const prefix = "jsonmask: "

// newSyntaxError returns a SyntaxError whose message is prefix + detail.
func newSyntaxError(detail string) *SyntaxError {
	return &SyntaxError{msg: prefix + detail}
}

// convert turns the internal packages' errors into the exported types and
// sentinels, adding the "jsonmask: " prefix that their messages leave out.
// prog is the mask that read the input, for KeptPointer; nil if none. I/O
// errors pass through as they are.
func convert(prog *compile.Program, err error) error {
	if se, ok := err.(*stream.Error); ok {
		e := newSyntaxError(se.Error())
		e.Offset, e.Pointer, e.Line = se.Offset, se.Pointer, se.Line
		e.err, e.kept, e.why = sentinel(se.Err), keptPrefix(prog, se.Pointer), redactMsg(se.Msg)
		return e
	}
	return sentinel(err)
}

// keptPrefix returns how many bytes of ptr, a pointer of the stream's
// (SPEC V3), name members that prog keeps. The stream's pointers name
// kept members and array indexes, and may end with a member that the mask
// drops: the walk checks each token against the mask's nodes, taking a
// number both for an index (arrays are transparent) and for a key, and
// stops at the first token that some reading of the pointer does not keep.
// A last token that may be an index or a dropped key is cut; so is every
// token when prog is nil.
func keptPrefix(prog *compile.Program, ptr string) int {
	if prog == nil || ptr == "" || ptr[0] != '/' {
		return 0
	}
	nodes := []int32{0}
	pos := 0
	for rest := ptr[1:]; ; {
		raw, after, more := strings.Cut(rest, "/")
		key := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		index := isIndex(key)
		var next []int32
		for _, n := range nodes {
			if n == compile.Keep {
				next = append(next, n)
				continue
			}
			e := prog.Lookup(n, []byte(key))
			switch {
			case e != compile.NoEntry:
				next = append(next, prog.Entry(e).Node)
			case !index || !more:
				return pos // a key the mask drops, or may be one
			}
			if index && more {
				next = append(next, n) // an array's element
			}
		}
		pos += 1 + len(raw)
		if !more {
			return pos
		}
		nodes, rest = compactNodes(next), after
	}
}

func isIndex(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// compactNodes drops repeated nodes, so that the walk stays small.
func compactNodes(n []int32) []int32 {
	out := n[:0]
	for _, v := range n {
		dup := false
		for _, w := range out {
			if w == v {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

func convertMask(err error) error {
	var ce *compile.Error
	if !errors.As(err, &ce) {
		return &MaskError{msg: prefix + err.Error()}
	}
	var inner error
	if errors.Is(ce.Err, tokenizer.ErrMaxDepth) {
		inner = ErrMaxDepth
	}
	return &MaskError{Offset: ce.Offset, Pointer: ce.Pointer, msg: prefix + ce.Msg, err: inner}
}
