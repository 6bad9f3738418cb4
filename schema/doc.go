// Package schema infers a JSON Schema (draft 2020-12) from the documents it
// reads, in one pass over jsonmask's token stream, and renders it compactly
// for a model (SPEC C7).
//
// An [Inferrer] reads one or more documents a window at a time
// ([Inferrer.Write], [Inferrer.End]) and never holds a document: what it
// keeps is one node per place in the documents (a member's key, an array's
// items), merged across every value seen there. Every document it read
// validates against the schema it returns:
//
//   - "type" lists every type seen at a place (a list for unions, "null"
//     included); integers are "integer" only while every number there has no
//     fraction or exponent;
//   - "properties" holds every key seen, in the order first seen, and
//     "required" the keys present in every object seen at that place;
//   - an array's elements merge into one "items";
//   - a string "format" (date-time, date, uuid, email, uri) is given only
//     when every string there has it, checked at least as strictly as the
//     formats' RFCs ask;
//   - "enum" is given only for a few distinct short strings seen many times.
//
// Caps keep memory bounded whatever the input: a place with more than
// [MaxKeys] distinct keys, or deeper than [MaxDepth], becomes {} with a
// "description" that says why, and so does every new place past [MaxNodes].
//
// [Schema.JSON] is the schema as JSON; [Schema.Compact] is the TypeScript-like
// rendering that enters a model's context:
//
//	{object: string; data: Array<{id: string; type: "message" | "tool_call"}>}
//
// An [Observer] sees the tokens as the Inferrer reads them, so that other
// work (a preview, hints) shares the one pass; a [QuietObserver] may ask to
// be spared members whose values are short scalars.
//
// The Inferrer reads a window with the scanner's fast paths (runs of
// members, array elements and scalars that are whole in it) and only what
// the window cuts a token at a time: whatever the windows, the schema, the
// events and the errors are the same (FuzzInfer). Once it has seen a
// document's places, reading more documents like it allocates nothing.
//
// An Inferrer is not safe for concurrent use; a Schema is immutable once
// returned and safe for concurrent reads.
package schema
