// Package fallback holds what the machine in package stream does not do
// itself:
//
//   - the slow, obviously correct reference masker that tests and fuzz
//     targets compare the machine with ([Reference]);
//   - Go values masked by reflection: [ValueEncoder], which appends the
//     masked encoding of a value through plans built once per Go type and
//     mask node, and its reference, [ReferenceValue].
//
// The reference decodes the whole document into a tree, applies the mask to
// the tree with maps, and encodes the result, copying every key, string and
// number as written. It shares only the tokenizer (the project's one JSON
// reader) with the machine; validity is checked independently elsewhere, by
// fastjson in tests and fuzzing. It is meant to be read, not to be fast.
//
// ValueEncoder is meant to be fast. Its output is encoding/json's encoding
// of the value, masked, byte for byte: a struct's plan holds only the
// fields the mask names, a map's plan reads only the members it names, and
// what is kept whole is written by encoders of our own that follow
// encoding/json's rules (its field selection, its escapes, its float
// format), with encoding/json itself only to compact a MarshalJSON's
// output. ReferenceValue walks the value the simple way, leaves whatever is
// not plain to encoding/json, and masks that encoding with the tree: tests
// and FuzzAppendValue hold both to json.Marshal followed by Append.
package fallback
