package tokenizer

import (
	"bytes"
	"strings"
	"testing"
)

// TestAppendValueRoom checks that AppendValue, which moves short runs 16
// bytes at a time, leaves no byte from past the value's end in dst, past
// its length included, whatever room dst has: the bytes after a kept value
// may be a dropped member's. Each value is followed by 'Z's, which no value
// holds; a value that ends in error leaves none either. Each is copied by
// value alone, and offered to the copy kernel first (kernel sets none and
// avx2).
func TestAppendValueRoom(t *testing.T) {
	values := []string{
		`{"a": 1}`,
		`{"a": 1, "b": [1, 2]}`,
		"{\n  \"a\": \"x\",\n  \"b\": {\"c\": null}\n}",
		`[1, 2, 3]`,
		`[ 1.5 , -2 , 3e5 ]`,
		"[\n    1,\n    2\n]",
		`{"a": [true, false], "b": "s"}`,
		`{ }`,
		`[ ]`,
		`{"a": 1 x}`,    // an error after a short run
		`{"a": [1, 2 }`, // an error at the bracket
		"{\"a\": \"\x01\"}",
	}
	for _, k := range []kernelSet{kernelsNone, kernelsAVX2} {
		for _, v := range values {
			for _, room := range []int{0, 8, 15, 16, 17, 40, 200} {
				for _, tail := range []int{0, 1, 5, 40} {
					src := []byte(v + strings.Repeat("Z", tail))
					var s Scanner
					s.Reset(0)
					dst := bytes.Repeat([]byte{'#'}, room)[:0]
					var (
						out  []byte
						end  int
						done bool
						err  error
					)
					withKernels(k, func() { out, end, done, err = s.AppendValue(dst, src, 0) })
					if err == nil && done && end != len(v) {
						t.Fatalf("%q: end %d, want %d", v, end, len(v))
					}
					if k := bytes.IndexByte(out[:cap(out)], 'Z'); k >= 0 {
						t.Fatalf("%q, room %d, tail %d: a byte from past the value at %d of %q (done %v, err %v)", v, room, tail, k, out[:cap(out)], done, err)
					}
					if err == nil && done {
						want := make([]byte, 0, len(v))
						for _, c := range []byte(v) {
							if !space[c] {
								want = append(want, c)
							}
						}
						if !bytes.Equal(out, want) {
							t.Fatalf("%q, room %d: %q, want %q", v, room, out, want)
						}
					}
				}
			}
		}
	}
}
