package tokenizer

import (
	"errors"
	"strconv"
)

// ErrMaxDepth is wrapped by the [Error] returned when a document nests deeper
// than the limit given to [Scanner.Reset].
var ErrMaxDepth = errors.New("maximum nesting depth exceeded")

// ErrTokenTooLarge is wrapped by the [Error] for a string or number longer
// than the limit given to [Scanner.SetMaxToken].
var ErrTokenTooLarge = errors.New("string or number too large")

// Error is a syntax error at a byte offset. It is allocated only when a
// document is rejected; scanning valid input allocates nothing. Its message
// has no "jsonmask: " prefix: the front door adds it.
type Error struct {
	Offset int64  // offset of the offending byte, or the input length at a premature end
	Msg    string // what went wrong, without the offset
	Err    error  // ErrMaxDepth, or nil

	// found is where an invalid UTF-8 sequence was found to be invalid: the
	// byte that breaks it, past Offset, its first byte. 0 for other errors,
	// found at Offset.
	found int64
}

// foundAt returns the offset of the byte at which e was found.
func (e *Error) foundAt() int64 {
	if e.found != 0 {
		return e.found
	}
	return e.Offset
}

func (e *Error) Error() string {
	return e.Msg + " at offset " + strconv.FormatInt(e.Offset, 10)
}

func (e *Error) Unwrap() error { return e.Err }

// Context words for "invalid character 'x' <context>", in the style of
// encoding/json so that messages read the same as the standard library's.
const (
	ctxValue      = "looking for beginning of value"
	ctxKey        = "looking for beginning of object key string"
	ctxColon      = "after object key"
	ctxObjectNext = "after object key:value pair"
	ctxArrayNext  = "after array element"
	ctxTop        = "after top-level value"
	ctxString     = "in string literal"
	ctxEscape     = "in string escape code"
	ctxHex        = `in \u hexadecimal character escape`
	ctxNumber     = "in numeric literal"
)

func (s *Scanner) errChar(src []byte, i int, context string) error {
	return &Error{Offset: s.offset + int64(i), Msg: "invalid character " + QuoteChar(src[i]) + " " + context}
}

func (s *Scanner) errAt(i int, msg string) error {
	return &Error{Offset: s.offset + int64(i), Msg: msg}
}

// errEOF reports a document that ended before it was complete.
func (s *Scanner) errEOF(i int) error {
	return &Error{Offset: s.offset + int64(i), Msg: "unexpected end of JSON input"}
}

func (s *Scanner) errDepth(i int) error {
	return &Error{Offset: s.offset + int64(i), Msg: "exceeded max depth " + strconv.Itoa(s.maxDepth), Err: ErrMaxDepth}
}

// QuoteChar formats c for an error message: 'x', '\”, '"', '\n', '\xff'.
func QuoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c < utf8Self:
		q := strconv.Quote(string(rune(c)))
		return "'" + q[1:len(q)-1] + "'"
	default:
		return `'\x` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16) + "'"
	}
}

const utf8Self = 0x80
