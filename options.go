package jsonmask

import (
	"strconv"

	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/stream"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// config is what the options set: the machine's own Config, handed to it
// as it is, and the streaming window. Its zero value is the default.
type config struct {
	stream.Config
	bufferSize int
	wildcards  bool // how the mask is read: Compile's, not With's
}

// DefaultBufferSize is the size of the window that streaming reads and masks
// at a time, unless WithBufferSize says otherwise (Copy and NewReader read at
// most 16 KiB at a time: see WithBufferSize).
const DefaultBufferSize = 32 << 10

// DefaultMaxDepth is the nesting limit unless WithMaxDepth says otherwise:
// that of encoding/json.
const DefaultMaxDepth = tokenizer.DefaultMaxDepth

// An Option changes how a Mask masks. Options apply in order: a later one
// overrides an earlier one. An option given a bad argument makes Compile fail.
type Option func(*config) error

// WithArrays, when on, masks a body whose root is an array too, by applying
// the mask to each element (SPEC B4), and validates it like an object body.
// Default: off; such bodies pass through untouched, like every body that is not
// an object.
func WithArrays(on bool) Option {
	return func(c *config) error { c.Arrays = on; return nil }
}

// WithDropMismatched, when on, drops a member whose mask entry is a nested mask
// but whose value is a scalar, and the scalar elements of arrays under a nested
// mask (SPEC A6), for masks used to stop data from leaking. Default: off; such
// scalars are kept as they are (SPEC A4).
func WithDropMismatched(on bool) Option {
	return func(c *config) error { c.DropMismatched = on; return nil }
}

// WithStrict, when on, rejects every body that would otherwise pass through
// unmasked (SPEC B5): an array (unless WithArrays), a string, a number, a
// literal, an empty body, text that is not JSON, an XSSI prefix such as
// ")]}'", a broken byte-order mark. The error wraps ErrNotObject and names the
// body's first byte at its offset. With WithNDJSON a blank line is still
// written as a blank line: it holds no data. For callers that must never
// forward an unmasked body, such as a gateway that masks to stop leaks.
// Default: off; such bodies pass through byte for byte (SPEC B3).
func WithStrict(on bool) Option {
	return func(c *config) error { c.Strict = on; return nil }
}

// WithTrustedInput, when on, skips dropped values and copies kept ones
// checking only string quoting and bracket nesting (SPEC V4): faster, for
// inputs known to be valid JSON. The masked levels (keys, and the structure
// around them) are still checked, whitespace is still removed, and for valid
// input the output is the same as without the option; for invalid input it
// may be invalid too. Default: off; everything is validated.
func WithTrustedInput(on bool) Option {
	return func(c *config) error { c.Trusted = on; return nil }
}

// WithMaxDepth sets the nesting limit (SPEC V2): a document, or a mask, that
// nests deeper is rejected with an error that wraps ErrMaxDepth, whether the
// deep part is kept or dropped. n must be at least 1. Default:
// DefaultMaxDepth. Memory grows with the levels actually used: a bit per
// level inside values dropped or kept whole, 32 bytes per level that the
// mask recurses into (see the package doc's Security considerations).
func WithMaxDepth(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errs.New("WithMaxDepth: depth must be at least 1, got " + strconv.Itoa(n))
		}
		c.MaxDepth = n
		return nil
	}
}

// WithBufferSize sets the size of the window that Copy, NewReader and
// NewWriter read and mask at a time; it bounds their memory (SPEC S2). Copy
// and NewReader ask each Read of their source for at most 16 KiB, whatever
// the window: a Read's copy into a buffer that stays in the CPU's L1 cache
// with its source costs less than half of one into 32 KiB. A source whose
// Reads cost more than their bytes (a file, a system call each) can be
// wrapped in a bufio.Reader. n must be at least 1. Default:
// DefaultBufferSize. Append is not affected.
func WithBufferSize(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errs.New("WithBufferSize: size must be at least 1, got " + strconv.Itoa(n))
		}
		c.bufferSize = n
		return nil
	}
}

// WithNDJSON, when on, treats the input as newline-delimited JSON (SPEC S3):
// every line is a document, classified and masked on its own, and every output
// line ends with "\n". An error names its line and stops the stream. Default:
// off; the input is one document.
func WithNDJSON(on bool) Option {
	return func(c *config) error { c.NDJSON = on; return nil }
}

// WithMaxInputSize rejects an input longer than n bytes, masked or passed
// through, with an error that wraps ErrInputTooLarge at offset n. Streaming
// stops at the first window that crosses the limit, so a client that sends an
// endless body costs at most n bytes of work. n must be at least 0. Default: 0,
// no limit.
func WithMaxInputSize(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return errs.New("WithMaxInputSize: size must be at least 0, got " + strconv.FormatInt(n, 10))
		}
		c.MaxInput = n
		return nil
	}
}

// WithMaxTokenSize rejects, in a masked body, a string (key or value, quotes
// included) or a number longer than n bytes, with an error that wraps
// ErrTokenTooLarge at the offset where the token crosses the limit. Streaming
// memory does not depend on token sizes anyway (SPEC S2); this is for
// gateways that want to refuse absurd values early. With WithTrustedInput,
// numbers inside the containers it skips or copies are not measured. n must be at least 0.
// Default: 0, no limit.
func WithMaxTokenSize(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return errs.New("WithMaxTokenSize: size must be at least 0, got " + strconv.Itoa(n))
		}
		c.MaxToken = n
		return nil
	}
}
