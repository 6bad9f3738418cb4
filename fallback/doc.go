// Package fallback masks Go values by reflection: [ValueEncoder] appends the
// masked encoding of a value, what json.Marshal followed by the machine's
// Append would give, byte for byte, without encoding what the mask drops.
//
// It works through plans built once per Go type and mask node: a struct's
// plan holds only the fields the mask names, a map's plan reads only the
// members it names, and what is kept whole is written by encoders of our own
// that follow encoding/json's rules (its field selection, its escapes, its
// float format), with encoding/json itself only to compact a MarshalJSON's
// output. The files go by concern:
//
//   - plan.go, plan_containers.go: the plans, per type and mask node;
//   - encode.go, containers.go, methods.go: the encoders of what is kept
//     whole, and of the values that encode themselves;
//   - typefields.go: encoding/json's field selection (its typeFields);
//   - state.go: one call's state, its nesting limit and cycle check;
//   - scalar.go: floats and numbers as encoding/json writes them (strings
//     are internal/jsonwire's AppendMarshalString);
//   - tree.go: a method's JSON output under a nested mask, masked the simple
//     way;
//   - errors.go: DepthError and NotObjectError.
//
// Its reference, the slow walk that tests hold it to, is
// internal/reference's ReferenceValue.
package fallback
