package jsonmask_test

import (
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestKeptContainers: a kept object or array is checked by the validating
// scanner and copied, without its whitespace, by the trusted one over the
// same bytes. Strings that hold what the copier must not take for structure
// (escaped quotes and backslashes, brackets, whitespace), at every offset
// from the 64-byte blocks, valid and broken, must come out as the reference
// masker says, in every mode.
func TestKeptContainers(t *testing.T) {
	bodies := []string{
		`{"s": "a \" b \\", "t" : [ 1 , -2.5e3 , true , null , "x y" ] , "u":{ "v" : "{[ \"]}" } }`,
		"[ \"\\u00e9\\u65e5 é日\" ,\n\t{ \"k\" : [ [ ] , { } , \"\\\\\\\"\" ] } , false ]",
		`{"long": "` + strings.Repeat(`ab \"c\\ `, 30) + `", "n": 12345678901234567890}`,
		`[` + strings.Repeat(`  {"a" : [1, "b", {"c": " "}]} ,`, 12) + ` 0 ]`,
	}
	broken := []string{
		`{"s": "a \x" }`,       // a bad escape
		"{\"s\": \"a \x01\" }", // a control byte
		`{"s": "a" "b"}`,       // a missing comma
		`[1, 2,]`,              // a trailing comma
		`{"s": [1, 2}`,         // a bracket that does not match
		`{"s": "\ud800"`,       // truncated
		`[1, 2 3]`,
		`{"s": 01}`,
		"[\"\xff\"]", // not UTF-8
	}
	mask := `{"k":true,"z":{"y":true}}`
	m := jsonmask.MustCompile(mask)
	tm := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	for _, body := range append(bodies, broken...) {
		for pad := range 70 {
			// The kept value at every offset from the blocks, a dropped one
			// before it, and whitespace in both.
			doc := `{"d": [` + strings.Repeat(" ", pad) + `1], "k" :` + strings.Repeat("\n", pad%3) + body + ` , "z": {"y": ` + body + `, "x": ` + body + "}}"
			agreeOnLayout(t, mask, m, tm, []byte(doc))
		}
	}
}
