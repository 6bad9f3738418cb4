package tokenizer

import (
	"encoding/json"
	"strings"
	"testing"
)

// mantissaForms are numbers, valid and not, for the kernels' mantissa by
// masks (round 9): each byte of a 32-byte load classified as a digit, '.'
// or '-', and the run of them from the number's first byte checked as
// -?(0|[1-9][0-9]*)(\.[0-9]+)? whole; D stands for a run of digits (its
// length varies). The bad forms are runs that look like a number to the
// masks and are not (a second '.' or '-', a leading zero, a '.' at either
// end), and numbers whose exponent the scalar grammar reads after the
// mantissa. Whether a number is valid, encoding/json says.
var mantissaForms = []struct{ name, num string }{
	{"zero", "0"},
	{"minus-zero", "-0"},
	{"int", "7D"},
	{"minus-int", "-7D"},
	{"zero-frac", "0.D"},
	{"minus-zero-frac", "-0.D"},
	{"frac", "1D.D"},
	{"minus-frac", "-9D.5D"},
	{"exp", "1D.De5"},
	{"exp-sign", "-1D.DE-D"},
	{"int-exp", "4De+D"},
	{"zero-exp", "0e0"},
	{"minus-alone", "-"},
	{"leading-zero", "0D"},
	{"minus-leading-zero", "-0D"},
	{"zero-zero", "00"},
	{"dot-end", "1D."},
	{"dot-start", ".D"},
	{"minus-dot", "-.D"},
	{"two-dots", "1D..D"},
	{"dot-dot", "1.D.D"},
	{"minus-inside", "1D-D"},
	{"minus-after-dot", "1.-D"},
	{"two-minus", "--1D"},
	{"plus", "+1D"},
	{"exp-no-digits", "1De"},
	{"exp-sign-only", "1D.De+"},
	{"dot-exp", "1.e5"},
	{"hex", "0x1D"},
}

// TestSkipMantissa checks the mantissa by masks against the twin and value,
// checkpoint included (checkSkip, checkCopy): every form of mantissaForms
// with digit runs of 0 to 34 bytes (so that the run ends before, at and
// past the 32 bytes loaded, and the 32 bytes reach past the window's end),
// starting at every place from the first to the 40th byte of a document
// (after other numbers, whose ends the masks also take), ended by ',' ']'
// '}' whitespace, a bad byte or the wrong bracket, in an array and as a
// member's value; and each with maxToken its length and one less.
func TestSkipMantissa(t *testing.T) {
	digits := strings.Repeat("3141592653", 4)
	for _, f := range mantissaForms {
		t.Run(f.name, func(t *testing.T) {
			for n := 0; n <= 34; n++ {
				num := strings.ReplaceAll(f.num, "D", digits[:n])
				valid := json.Valid([]byte(num))
				for lead := 0; lead <= 40; lead++ {
					pre := strings.Repeat("5,", lead/2) + strings.Repeat(" ", lead%2)
					for _, c := range []struct {
						doc   string
						valid bool
					}{
						{"[" + pre + num + "]", valid},
						{"[" + pre + num + ",2]", valid},
						{"[" + pre + num + " ,-2.5]", valid},
						{"[" + pre + num + "\n]", valid},
						{`{"k":[` + pre + `0],"n":` + num + `}`, valid},
						{`{"n":` + num + `,"k":1}`, valid},
						{"[" + pre + num + "x]", false},
						{"[" + pre + num + ":]", false},
						{`{"n":` + num + `]`, false},
						{"[" + pre + num + "}", false},
					} {
						a := skipArgs{src: []byte(c.doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
						if got, ok := checkSkip(t, a); ok != c.valid || ok && got != len(c.doc) {
							t.Fatalf("skipWhole(%q) = %d %v, want valid %v", c.doc, got, ok, c.valid)
						}
						checkCopy(t, a)
						if lead%8 == 0 {
							a.src = []byte(c.doc + strings.Repeat(" ", 40))
							checkSkip(t, a)
							checkCopy(t, a)
						}
						if lead <= 1 {
							for _, m := range []int{len(num), len(num) - 1} {
								a := skipArgs{src: []byte(c.doc), maxDepth: DefaultMaxDepth, maxToken: max(m, 1)}
								checkSkip(t, a)
								checkCopy(t, a)
							}
						}
					}
				}
			}
		})
	}
}

// TestSkipMantissaWindows reads arrays of numbers of every form, the
// pretty-printed kind among them, in two windows cut at every length
// (checkSkipDoc): the kernel must give the same checkpoints at the commas
// and brackets it now takes after a mantissa, and resume after them.
func TestSkipMantissaWindows(t *testing.T) {
	for _, doc := range []string{
		"[-65.613616999999977,43.420273000000009,[0.5,-0,10],1e5,-2.5E-3]",
		"[\n        4278190080, \n        -0.063683778047600004, \n        2.3464713096600001\n    ]",
		`{"a":[1.5,2],"b":-0.25,"c":{"d":[7]}}`,
	} {
		checkSkipDoc(t, doc, true)
	}
	for _, doc := range []string{
		"[-65.613616999999977,43.420273000000009,01]",
		"[1.5,2.5.1,3]",
		`{"a":[1.5,2],"b":-.25}`,
	} {
		checkSkipDoc(t, doc, false)
	}
}

// TestSkipMantissaLimits checks the token and depth limits where a number
// ends at ',' or ']' (the steps the mantissa's end now takes): a number as
// long as maxToken passes and one byte more fails, at the same checkpoint as
// the twin's; a closing bracket after a number at the depth limit.
func TestSkipMantissaLimits(t *testing.T) {
	for _, num := range []string{"1", "-12.5", "123456789.123456789", "-0.0000000000000000000000001"} {
		for _, end := range []string{",", "]", " ]"} {
			doc := "[[0]," + num + end + "0]"
			if end != "," {
				doc = "[[0]," + num + end + "]"
			}
			for m := len(num) - 1; m <= len(num)+1; m++ {
				a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: m}
				if _, ok := checkSkip(t, a); ok != (m >= len(num)) {
					t.Fatalf("skipWhole(%q) maxToken %d = %v", doc, m, ok)
				}
				checkCopy(t, a)
			}
		}
	}
	for depth := 1; depth <= 4; depth++ {
		doc := strings.Repeat("[", depth) + "-1.5" + strings.Repeat("]", depth)
		for room := max(depth-1, 1); room <= depth; room++ {
			a := skipArgs{src: []byte(doc), maxDepth: room, maxToken: 1 << 30}
			if _, ok := checkSkip(t, a); ok != (room >= depth) {
				t.Fatalf("skipWhole(%q) maxDepth %d = %v", doc, room, ok)
			}
			checkCopy(t, a)
		}
	}
}
