//go:build !amd64 || noasm

package tokenizer

import (
	"strings"
	"testing"
)

// wholeGoDocs are values in the shapes skipGo and copyGo read in their
// number loop (arrays of numbers, "],[" between arrays of them), laid out
// as canada and mesh lay them out, valid and not: each broken form at the
// first element, after "],[" and after a ','.
var wholeGoDocs = []struct {
	json  string
	valid bool
}{
	{`[[1,2],[3,4],[5,6]]`, true},
	{`[[-65.613616999999977,43.420273000000009],[-65.619720000000029,43.418052999999986],[-65.625,43.421379000000059]]`, true},
	{`[[[1,2],[3,4]],[[5,6],[7,8]],[[9,0]]]`, true},
	{`{"type":"Polygon","coordinates":[[[-65.6,43.4],[-65.7,43.5]],[[1,2]]]}`, true},
	{`{"a":[[1,2],[3,4]],"b":[[5,6],[7,8]]}`, true},
	{`[[1,2],[[3,4]],[5]]`, true},
	{`[[1,2],{},[3]]`, true},
	{`[[1,2],[],[3]]`, true},
	{`[[1,2],["a"],[3]]`, true},
	{`[[1,2],[true],[3]]`, true},
	{`[[1,2],[ 3,4],[5 ,6] ,[7,8]]`, true},
	{"[[1,2],\n[3,4],\t[5,6]]", true},
	{`[[0,-0],[0.0,-0.5],[1e5,1E-5],[-1.5e+10,0e0]]`, true},
	{"[\n        4278190080, \n        44, \n        263, \n        -0.13840419054, \n        0.69392043352099997\n    ]", true},
	{"{\n    \"colors\": [\n        1, \n        2\n    ], \n    \"indices\": [\n        [\n            0\n        ], \n        [\n            1\n        ]\n    ]\n}", true},
	{`[[1,2],[3,]]`, false},
	{`[[1,2],[01]]`, false},
	{`[[1,2],[-]]`, false},
	{`[[1,2],[1.]]`, false},
	{`[[1,2],[1e]]`, false},
	{`[[1,2],[.5]]`, false},
	{`[[1,2],[+1]]`, false},
	{`[[1,2],[1,2}]`, false},
	{`[[1,2],[1,02]]`, false},
	{`[[1,2],[1 2]]`, false},
	{`[[1,2],,[3]]`, false},
	{`[[1,2],[3],]`, false},
	{`{"a":[1,2],[3,4]}`, false}, // "],[" in an object
	{`{"a":[[1,2],[3,4]}`, false},
	{`[[1,2],[3,4]}`, false},
	{`[[1,2]:[3,4]]`, false},
	{"[[1,2],[3,\x014]]", false},
	{"[\n        1, \n        2, \n        x\n    ]", false},
	{"[\n        1, \n        2, \n        -\n    ]", false},
}

// TestWholeGoNumbers checks skipGo and copyGo on wholeGoDocs (checkSkipDoc:
// against skipWholeGeneric, checkpoints included, and value, whole, cut at
// every length and in two windows), and at the depth and token limits.
func TestWholeGoNumbers(t *testing.T) {
	for _, c := range wholeGoDocs {
		t.Run(c.json, func(t *testing.T) {
			checkSkipDoc(t, c.json, c.valid)
			for maxDepth := 1; maxDepth <= 5; maxDepth++ {
				for depth := 0; depth < maxDepth; depth++ {
					for n := 1; n <= len(c.json); n++ {
						a := skipArgs{src: []byte(c.json[:n]), maxDepth: maxDepth, depth: depth, maxToken: 1 << 30}
						checkSkip(t, a)
						checkCopy(t, a)
					}
				}
			}
		})
	}
	// A number of skipMinToken bytes is taken; one byte more is not, at
	// the first element, after "],[" and after a ','.
	for _, n := range []int{skipMinToken, skipMinToken + 1} {
		num := "1" + strings.Repeat("0", n-1)
		for _, doc := range []string{`[[` + num + `,2]]`, `[[1,2],[` + num + `]]`, `[[1,2],[3,` + num + `]]`} {
			for cut := 1; cut <= len(doc); cut++ {
				a := skipArgs{src: []byte(doc[:cut]), maxDepth: DefaultMaxDepth, maxToken: skipMinToken}
				checkSkip(t, a)
				checkCopy(t, a)
			}
			a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: skipMinToken}
			if _, ok := checkSkip(t, a); ok != (n == skipMinToken) {
				t.Errorf("skipWhole(%q) with maxToken %d = %v", doc, skipMinToken, ok)
			}
		}
	}
}

// FuzzWholeGo compares skipGo and copyGo (skipWhole and copyWhole under
// noasm) with skipWholeGeneric and value, as FuzzSkipWhole does, from
// seeds in the shapes of their number loop.
func FuzzWholeGo(f *testing.F) {
	for _, c := range wholeGoDocs {
		f.Add([]byte(c.json), uint16(0), uint16(0), uint8(0), uint8(0), []byte{})
		f.Add([]byte(c.json+" ,]"), uint16(0), uint16(130), uint8(3), uint8(1), []byte{9, 4})
	}
	f.Fuzz(checkWhole)
}
