// Package jsonwire holds the small pieces of JSON's wire format that every
// layer of jsonmask needs, each written once: the lead of a body (SPEC B1:
// an optional UTF-8 byte-order mark, then whitespace), string quoting in the
// house's two dialects, JSON Pointer (RFC 6901) reference tokens, \uXXXX
// escapes, the names of JSON's kinds of value, the rule that gives up a
// source whose reads make no progress (Progress), and DecodeStrict, the one
// strict parser of the route configs (SPEC G11) that config and mcpproxy
// share.
//
// It is a leaf: it imports nothing of the project, so that any package may
// import it, the tokenizer included. Its functions are small and safe for
// concurrent use; all but DecodeStrict (which reads a config, never a
// body) allocate only what they return.
package jsonwire
