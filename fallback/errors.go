package fallback

import (
	"slices"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// DepthError is a Go value nested deeper than ValueOptions.MaxDepth allows
// (SPEC V2), such as a cycle of pointers: what Append would reject in the
// value's encoding. It wraps tokenizer.ErrMaxDepth.
type DepthError struct {
	Limit   int    // the limit, ValueOptions.MaxDepth
	Pointer string // JSON Pointer (RFC 6901) of the container past the limit; "" when not known
	// segs are the pointer's reference tokens, innermost first, gathered as
	// the error passes up through the containers: only an error pays for
	// its pointer.
	segs []string
}

// Error says what went wrong and where, e.g. `value nested deeper than the
// limit of 3 (/a/0/0)`, on one line: the pointer is quoted as Go quotes a string
// (a key's control bytes cannot forge a log line), and a pointer longer than
// 200 bytes is shortened to its head and tail. Pointer keeps it whole.
func (e *DepthError) Error() string {
	msg := "value nested deeper than the limit of " + strconv.Itoa(e.Limit)
	if e.Pointer == "" {
		return msg
	}
	p := jsonwire.QuotePointer(e.Pointer)
	return msg + " (" + p[1:len(p)-1] + ")"
}

// Unwrap returns tokenizer.ErrMaxDepth, the limit's sentinel.
func (e *DepthError) Unwrap() error { return tokenizer.ErrMaxDepth }

// NotObjectError is a value that ValueOptions.Strict rejects: its encoding
// is not an object (nor an array, under Arrays), so it would pass through
// unmasked (SPEC B5).
type NotObjectError struct {
	First  byte // the encoding's first byte
	Arrays bool // the Arrays option was on
}

// Error names the first byte, e.g. `value does not encode to a JSON object:
// first byte '['`.
func (e *NotObjectError) Error() string {
	what := "a JSON object"
	if e.Arrays {
		what = "a JSON object or array"
	}
	return "value does not encode to " + what + ": first byte " + strconv.QuoteRuneToASCII(rune(e.First))
}

// atMember records, on a *DepthError passing up out of a container, the
// member or element it came from; other errors pass unchanged.
func atMember(err error, seg string) error {
	if de, ok := err.(*DepthError); ok {
		de.segs = append(de.segs, seg)
	}
	return err
}

// atIndex is atMember for an array's element i.
func atIndex(err error, i int) error {
	if de, ok := err.(*DepthError); ok {
		de.segs = append(de.segs, strconv.Itoa(i))
	}
	return err
}

// withPointer sets a *DepthError's Pointer from the tokens gathered on its way up.
func withPointer(err error) error {
	if de, ok := err.(*DepthError); ok && len(de.segs) > 0 {
		var b []byte
		for _, s := range slices.Backward(de.segs) {
			b = jsonwire.AppendPointerToken(append(b, '/'), s)
		}
		de.Pointer, de.segs = string(b), nil
	}
	return err
}
