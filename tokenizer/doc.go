// Package tokenizer is jsonmask's one JSON reader: a zero-allocation, resumable
// scanner over windows of bytes that reports byte offsets.
//
// A [Scanner] holds the whole grammar state of one JSON document (RFC 8259):
// what may come next, the stack of open containers (one bit per level), and
// the state of a token that crossed the end of the last window (inside a
// string, an escape, a UTF-8 sequence, a number or a literal). Every method
// takes the current window and an index into it, consumes what it can, and
// returns the new index; when the window ends in the middle of something the
// scanner remembers where it was and the next call, on the next window, goes on
// from there. The in-memory case is the same code over a single window.
//
// Methods at the token level ([Scanner.Peek], [Scanner.Next]) serve the masked
// levels of a document and the mask compiler. Faster ones read what is whole
// in the window and leave the rest to them, having consumed nothing:
// [Scanner.Members] reads a run of plain members (key and scalar value) into
// spans in one loop, skipping the containers of the keys its caller drops by
// length and, if asked, going on to the next object of an array, or down
// into the object of a member its caller names and back up;
// [Scanner.Element] what comes before an array element,
// [Scanner.Scalar] one scalar. [Scanner.SkipValue], [Scanner.AppendValue],
// [Scanner.SkipTrusted] and [Scanner.AppendTrusted] consume a whole value in
// tight loops, dropping it or appending it without whitespace to the buffer
// the call is given and returns.
//
// Validation follows RFC 8259 in full: structure, string escapes, raw control
// characters, UTF-8 (RFC 3629: no overlong forms, no encoded surrogates, nothing
// above U+10FFFF), number grammar and literals. Escaped lone surrogates such as
// "\ud800" are grammatical and accepted. [Scanner.SkipTrusted] is the exception:
// it checks only string quoting and bracket nesting. On amd64 it and
// [Scanner.AppendTrusted] take 64-byte blocks with assembly kernels: AVX2 to
// classify one block, and AVX-512 (BW, VBMI2) for runs of blocks in which the
// value neither ends nor nests too deep, dropping whitespace with VPCOMPRESSB
// (with AVX2 alone, the copy drops it 8 bytes at a time with a PSHUFB
// shuffle from a table); and in a string taken whole in trusted mode, AVX-512 finds the closing quote
// past runs of escapes. In every mode, a string's content from its first
// escape or non-ASCII byte (a run of \u escapes, text in most scripts) is
// checked 64 bytes at a time where the CPU has AVX-512 or AVX2, UTF-8
// included. Each has a pure-Go twin, which runs elsewhere and under the noasm
// build tag (the escaped-text twin only in tests: elsewhere the byte loop is
// faster), and the fuzz target FuzzKernels compares them (FuzzStringRun and
// FuzzCompactBlock aim at the string kernels and at the trusted copy's
// compaction alone).
//
// Each kernel is a file triple and a twin: classify (AVX2), compact (the
// shuffle compaction, SSSE3 where AVX2 runs), quietBlocks, escapedQuote and
// stringRun (AVX-512; quietBlocks also AVX2, in quiet_amd64.s; stringRun also AVX2, in strrun2_amd64.s) each have x_amd64.go (the dispatch), x_amd64.s (the
// kernel; struct fields through go_asm.h, shared macros in kernels_amd64.h)
// and x_other.go (the twin's dispatch, for other architectures and noasm),
// the twin itself in x.go. What the CPU has is
// detected once, in cpu_amd64.go; kernels.go says which kernels run, which
// tests lower to run every path this CPU can (kernels=none, avx2, twins,
// avx512).
//
// A syntax error is an [*Error] with the offset of the byte at fault (its
// window's offset given by [Scanner.SetBase]; for invalid UTF-8, the first
// byte of the invalid sequence, even when it lies in an earlier window),
// which may wrap [ErrMaxDepth]
// or [ErrTokenTooLarge]; messages have no "jsonmask: " prefix.
//
// A Scanner is not safe for concurrent use; it is small and meant to be reused
// after [Scanner.Reset]. It holds no caller's memory between calls: the
// buffer that AppendValue and AppendTrusted append to goes in and comes back
// with the call.
package tokenizer
