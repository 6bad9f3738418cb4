// Package jsonmask applies a response_mask to JSON on its way from an API to
// an LLM or a client: the mask names the fields to keep, everything else is
// dropped, in one streaming pass that validates as it goes.
//
// # Masks
//
// A mask is a JSON object. A member whose value is true keeps the field's
// value whole; a member whose value is an object recurses into the field:
//
//	{"id": true, "user": {"name": true, "email": true}}
//
// Fields the mask does not name are dropped. Arrays are transparent: a mask
// applies to every element of an array it meets. A nested mask that meets a
// scalar keeps it as it is (or drops it, with WithDropMismatched). Keys are
// compared after JSON unescaping, exactly. The full semantics, rule by rule,
// are in SPEC.md; errors and comments cite its rule ids (M1, A3, ...).
//
// The same mask can be written in the text syntax of Google APIs' fields
// parameter and of json-mask, "id,user(name,email)" (see [CompileFields]),
// where "*" stands for every key without an entry of its own; JSON masks read
// "*" so with [WithWildcards].
//
// # Bodies
//
// A body whose first byte other than whitespace (after an optional UTF-8
// byte-order mark) is '{' is masked. Any other body (an array unless
// WithArrays, a string, a number, an error page in plain text, an empty body)
// is passed through byte for byte, unvalidated. The output of a masked body is
// compact JSON: keys in input order, duplicates kept, strings and numbers
// exactly as written (an escape stays an escape, 1E400 stays 1E400).
//
// # Entry points
//
// [Compile] turns a mask into a [*Mask], immutable and safe for concurrent use;
// [CompileFields] does the same from the text syntax.
// [Mask.Append] masks a body in memory, allocating nothing when dst has room;
// [Mask.Copy], [Mask.NewReader] and [Mask.NewWriter] mask a stream in memory
// bounded by a fixed window, whatever the body's size. All of them write the
// same bytes and reject the same bodies, however the input is split.
// [Mask.Explain] and [Mask.Paths] tell a mask's author what the mask does to a
// document, on a path of their own that the masker pays nothing for.
//
// # Errors
//
// A rejected body gives a [*SyntaxError] with the byte offset and, where the
// masker knows it, the JSON Pointer (RFC 6901) of the member being read:
//
//	jsonmask: invalid character '}' after object key at offset 812 (/user/ssn)
//
// Every message is one line: keys in the pointer are escaped as Go's %q
// escapes them, and a pointer longer than 200 bytes is shortened in the
// message (the Pointer field keeps it whole).
//
// A mask that does not compile gives a [*MaskError]. Nesting deeper than the
// limit gives an error that wraps [ErrMaxDepth]. Errors from the io.Reader and
// io.Writer given to the streaming calls are returned as they are.
//
// Every message of this package begins with "jsonmask: ", once. A program
// that says its own name and context first wraps the error with %w and
// writes [SyntaxError.Detail] or [MaskError.Detail], the message without the
// prefix, where it would otherwise cut the prefix off the text: the CLI
// writes "jsonmask: FILE: " and the Detail of a rejected input
// ([SyntaxError.RedactedDetail] where the input must not be quoted).
//
// # Security considerations
//
// Masks are used to keep data from reaching models and clients, so the masker
// is built to fail closed:
//
//   - A dropped member's bytes never reach the output, not even before an
//     error: streaming output written before an error is a prefix of what a
//     valid body would give and holds nothing dropped.
//   - Masked bodies are validated in full by default (RFC 8259, UTF-8 per
//     RFC 3629), dropped parts included, so a malformed body cannot smuggle a
//     field past the mask by confusing the scanner. WithTrustedInput gives this
//     up for dropped parts: use it only for bodies from a source you trust to
//     send valid JSON.
//   - A second document after the first, comments, trailing commas, single
//     quotes, NaN, and bytes after the root are all rejected.
//   - Bodies that are not JSON objects pass through unmasked (SPEC B3). If a
//     route must never pass data unmasked, check the content before, or
//     enable WithArrays for endpoints that return arrays.
//   - Nesting is limited (WithMaxDepth, default 10000, as encoding/json) and
//     never uses the Go stack per level, so no input can overflow it.
//   - Memory is bounded: streaming holds the window (WithBufferSize); each
//     call in flight holds about 33 KB, allocated once and pooled, most of it
//     what the tokenizer remembers of layouts; and at most 6 bytes per byte
//     of the mask's longest key, whatever the size of the body or of any
//     string in it. Nesting costs a bit per level inside values dropped or
//     kept whole, and 32 bytes per level that the mask recurses into (under
//     64 with the slack of a growing stack; a call that goes deeper than any
//     before it allocates about 160 bytes per such level as the stack grows,
//     and one deeper than 2048 such levels is not pooled). A mask nested that
//     deep takes about 150 bytes per level itself. Whitespace before the
//     first byte of a body is kept until the body is classified, so that it
//     can be passed through if it is not an object: at most half a byte per
//     byte whatever its pattern, a few bytes for a run of one character.
//   - Time is linear in the input, whatever its shape: deep nesting, long
//     strings, keys or numbers, many or duplicate keys.
//   - Limits, off by default: WithMaxDepth (on, 10000), WithMaxInputSize for
//     the whole input (a body that never ends costs at most that much work,
//     and bounds the whitespace kept above) and WithMaxTokenSize for a single
//     string or number. Their errors wrap ErrMaxDepth, ErrInputTooLarge and
//     ErrTokenTooLarge. A gateway facing untrusted clients should set all three.
//   - Error messages quote at most one byte of the body, and name members by
//     their keys, escaped as Go's %q escapes them (a key holding a newline or
//     a terminal escape cannot forge a log line), and shortened past 200
//     bytes; the error's Pointer field holds the key as it is.
//
// # Concurrency
//
// A *Mask is safe for concurrent use. The readers and writers it returns are
// not: each serves one body.
package jsonmask
