// Package jsonwire holds the small pieces of JSON's wire format that every
// layer of jsonmask needs, each written once: the lead of a body (SPEC B1:
// an optional UTF-8 byte-order mark, then whitespace), string quoting in the
// house's two dialects, JSON Pointer (RFC 6901) reference tokens, \uXXXX
// escapes, and the names of JSON's kinds of value.
//
// It is a leaf: it imports nothing of the project, so that any package may
// import it, the tokenizer included. Its functions are small, allocate only
// what they return, and are safe for concurrent use.
package jsonwire
