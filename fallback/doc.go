// Package fallback holds what the machine in package stream does not do
// itself: the slow, obviously correct reference masker that tests and fuzz
// targets compare the machine with ([Reference]).
//
// The reference decodes the whole document into a tree, applies the mask to
// the tree with maps, and encodes the result, copying every key, string and
// number as written. It shares only the tokenizer (the project's one JSON
// reader) with the machine; validity is checked independently elsewhere, by
// fastjson in tests and fuzzing. It is meant to be read, not to be fast.
package fallback
