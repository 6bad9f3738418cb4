// Package stream is the masking machine: it drives the tokenizer with a
// compiled Program over a document given whole or a window at a time, and
// writes the masked output (SPEC sections 2 to 6).
//
// A [Machine] classifies the body (SPEC B1), passes through what it does not
// mask (B3), and masks objects (and, with Config.Arrays, arrays) level by
// level on an explicit stack of frames, so that no input can deepen the Go
// stack (V2). At those levels the tokenizer reads runs of members into spans
// ([tokenizer.Scanner.Members]) and the machine looks each key up and writes
// the kept ones, one append per member where key and value stand together.
// A run goes on past a dropped container whose key no member of the mask's
// node can have (its length says so: compile.Lengths), from one object
// of an array to the next, and into and out of the object of a member that
// the mask recurses into, once the machine has opened one with that member's
// head (tokenizer.Descents, per node).
// Values that the mask keeps whole are copied by the tokenizer in runs; where
// the AVX-512 kernels run ([tokenizer.WideCopy]), a kept object or array is
// read twice instead, 256 KiB at a time: checked by the validating scanner,
// then copied without its whitespace, 64 bytes at a time, by a second scanner
// over the bytes the first one checked, from L2
// ([tokenizer.Scanner.AppendChecked]). Values the mask drops are skipped,
// validated unless Config.Trusted.
//
// The same code serves the in-memory case ([Machine.Append]) and streaming
// ([Machine.Write], [Machine.Close]): when a window ends inside a token, the
// tokenizer keeps its state and the machine keeps the little it needs (a key
// that may still match, at most 6 bytes per byte of the mask's longest key;
// the whitespace before a body, at most half a byte per byte, SPEC B1).
// [Stream] adds the two buffers of a bounded stream: [Stream.Copy] masks an
// io.Reader into an io.Writer, [Reader] and [Writer] mask pull and push
// style.
//
// Errors are an [*Error] (offset, pointer, line) that may wrap a sentinel
// ([ErrInputTooLarge], [ErrNotObject], tokenizer.ErrMaxDepth, ...); their
// messages have no "jsonmask: " prefix: the front door adds it.
//
// This package is jsonmask's low-level API: the front door (package jsonmask)
// is built on it. A Machine, a Stream, a Reader and a Writer are each for one
// goroutine at a time.
package stream
