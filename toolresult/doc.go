// Package toolresult turns a tool's response into what a model sees (SPEC
// section 9): small structured data passes as it is, large structured data
// becomes a stored variable that the model gets as a note, a schema and a
// preview, and plaintext enters whole.
//
// A [Processor] holds a token budget, a [Tokenizer] (exact BPE counts,
// o200k_base by default), an optional mask and a [Store]. Its
// [Processor.Process] reads a body once, streaming:
//
//  1. display_instructions_for_model members of an object body are taken
//     out and returned as instructions (C2), unless [WithInstructions] is
//     off; they are capped at [MaxInstructionTokens] and the data gets the
//     budget they leave;
//  2. the mask applies (sections 1 to 6); then, with [WithJSONStrings],
//     strings that hold JSON text are read as that JSON (C11, P3), and put
//     back as they were if the data turns out not to be JSON;
//  3. data that is not a JSON object or array is plaintext, returned whole
//     (C4); structured data is held while it may still fit the budget, and
//     written to a draft in the store as soon as it cannot (it is then more
//     than 128 bytes per allowed token, the longest token's length);
//  4. in the same pass the data's schema is inferred (package schema), a
//     bounded sample is kept for the preview, and strings that hold JSON are
//     noted (C11); the data going to the draft is hashed and written on a
//     goroutine of its own, beside them;
//  5. at the end, held data is counted once with an early exit past the
//     budget (data of at most budget bytes needs no count to pass); data
//     over the budget is committed as a variable named after its SHA-256
//     (C6), and the model text is fitted to the budget (C8, C9): only pieces
//     and the final text are counted. The preview adds breadth first,
//     shallow scalars first; a container sampled shows its first member
//     rather than {}; ids and URLs are shown whole or not at all; strings
//     are cut at any length that fits. Data that costs fewer tokens than
//     the smallest note about it passes as it is (unless the variable is
//     named).
//
// [Processor.ReadVariable] answers the read_variable tool (SPEC P5): it reads
// the part of a stored variable that a JSON Pointer names, or a range of an
// array's elements, streaming, and returns it under the same budget rules.
// [Processor.Query] answers query_variable (C13, P7): a jq program (gojq)
// over the whole variable, or over the value at a JSON Pointer (the only
// part decoded), within load, time and output limits, its output returned
// under the same rules. Stores are named by URL ([OpenStore], C15); the cloud
// ones live in the package toolresult/blobstore.
//
// # Security considerations
//
// A query runs over the variable as stored (masked), without the process's
// environment, files or further input; its errors never quote the data
// (gojq's messages are cut to their own words). A variable named by its
// content is checked against it when a DirStore opens it, so a file edited
// on disk is refused; the default store is private to its user.
//
// A mask stands between the data and the model: with one, the body is
// validated by the mask before anything of it is returned or stored, and on
// any error (the mask's, the reader's, the store's) nothing of the body is
// returned and the draft is removed. Instructions are taken out before the
// mask applies: they reach the model as instructions whatever the mask says,
// so a mask cannot be used to keep them, and a tool cannot hide data in
// them from the mask's point of view (they are returned separately, capped at
// [MaxInstructions] bytes). Without a mask, a body that is not valid JSON is
// returned whole as plaintext. Taking a member out never makes a broken body
// look valid: a member the body breaks in (`{"display_instructions_for_model"}`),
// or one whose separator after it is wrong, stays in
// the data and is not reported as instructions, so the mask rejects the body,
// or the plaintext holds it as it came.
//
// Memory: the variable route holds at most the budget's caps (a sample of
// about 16 bytes per budget token, up to half more for the first members of
// containers sampled, and 128 bytes per budget token before the draft is
// made), and 512 KiB of data on its way to the draft, whatever the body's
// size. Plaintext, and data with the budget off, are held whole.
// Counting a plaintext holding a run of n bytes with no space or quote
// after a letter or digit (where BPE pieces are cut) costs memory
// proportional to n while it is counted.
//
// A Processor and the Tokenizers of NewTokenizer are safe for concurrent
// use; a Result is not shared.
package toolresult
