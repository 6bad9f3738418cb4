// Package reference holds the slow, obviously correct maskers that the
// tests and fuzz targets compare the fast ones with: Reference for
// documents (the machine in package stream, behind jsonmask.Mask's Append
// and Copy) and ReferenceValue for Go values (fallback.ValueEncoder, behind
// AppendValue).
//
// Reference decodes the whole document into a tree, applies the mask to the
// tree with maps, and encodes the result, copying every key, string and
// number as written. It shares only the tokenizer (the project's one JSON
// reader) with the machine; validity is checked independently elsewhere, by
// fastjson in tests and fuzzing.
//
// ReferenceValue walks a Go value with reflect, leaves whatever is not plain
// to encoding/json, and masks that encoding with the tree. It shares nothing
// with fallback but its option and error types: its rules for struct fields
// (names, omitempty, omitzero) are written again, the simple way, so that a
// slip in fallback's shows as a difference.
//
// Everything here is meant to be read, not to be fast; it is internal
// because only the tests use it.
package reference
