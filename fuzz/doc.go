// Package fuzz holds jsonmask's fuzz targets (go test -fuzz), which check
// properties rather than examples:
//
//   - FuzzMask: no panic; the same output and the same verdict streamed at
//     any split as in memory; the same as the reference masker; valid output
//     for valid input and a verdict that agrees with encoding/json; masking
//     the output again changes nothing; the keep-everything mask gives the
//     compacted input.
//   - FuzzCanary: a dropped member's bytes never reach the output, on success
//     or on error, at any split.
//   - FuzzCompile: any bytes either compile or fail with a *MaskError.
//   - FuzzAppendValue: for Go values that the fuzzer's document decodes into
//     (any, structs with embedding, tags, methods and maps of every key
//     kind), with its bytes put in strings and keys, AppendValue and its
//     reference give exactly what Append gives for json.Marshal's encoding.
//   - FuzzWildcards: FuzzMask's properties for masks with wildcards: the
//     same output and error, pointer included, at any split; the same as
//     the reference masker; the mask "*" gives the compacted input.
//   - FuzzCompileFields: any text either compiles as a text mask or fails
//     with a *MaskError whose offset lies in it; a text mask, the JSON mask
//     it prints and the reference masker given that JSON mask give the same
//     output; the printed form prints itself again.
//
// Seeds come from the conformance cases and JSONTestSuite; inputs the fuzzer
// found that once failed are kept under testdata/fuzz. Run one target with
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzMask$' -fuzztime 1h
package fuzz
