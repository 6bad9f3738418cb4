package tokenizer

import (
	"strings"
	"testing"
)

var scalarMembersDocs = []struct{ name, doc string }{
	{"Scalars", `{"a":1,"b":-2.5e3,"c":"x\n","d":true,"e":null,"f":false,"g":0,"h":-0,"i":"","j":12345678901234567890123}`},
	{"Spaces", "{ \"a\" : 1 ,\n\t\"b\":2 , \"c\" :\"a\" }"},
	{"Empty", `{}`},
	{"EmptySpaces", `{ }`},
	{"Nested", `{"a":{"b":[1,{"c":2}],"d":{}},"e":[{"f":[3]}],"g":5}`},
	{"ContainerFirst", `{"a":[],"b":{},"c":[[]],"d":{"e":[]}}`},
	{"EscapedKey", `{"a\"b":1,"\u00e9":"\u00e9","\ud800":2,"plain":"x\\y"}`},
	{"NotASCII", `{"é":"ü","😋":[1]}`},
	{"Duplicate", `{"a":1,"a":2,"a":{"a":3}}`},
	{"TooDeep", `{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}}}}}}}}}}}}`},
	{"BadNumber", `{"a":01}`},
	{"BadFraction", `{"a":1.}`},
	{"BadExponent", `{"a":1e+}`},
	{"Minus", `{"a":-}`},
	{"BadLiteral", `{"a":nul}`},
	{"BadEscape", `{"a":"\x"}`},
	{"BadKeyEscape", `{"\x":1}`},
	{"BadUTF8", "{\"a\":\"\xff\"}"},
	{"BadUTF8Key", "{\"\xff\":1}"},
	{"TrailingComma", `{"a":1,}`},
	{"LeadingComma", `{,"a":1}`},
	{"NoComma", `{"a":1 "b":2}`},
	{"NoColon", `{"a" 1}`},
	{"NoValue", `{"a":}`},
	{"KeyNotString", `{a:1}`},
	{"NumberKey", `{1:1}`},
	{"ArrayClose", `{"a":1]`},
	{"Unclosed", `{"a":1`},
	{"UnclosedKey", `{"a`},
	{"UnclosedNumber", `{"a":2.5`},
	{"AfterKey", `{"a"`},
	{"AfterColon", `{"a":`},
	{"Many", `{` + func() string {
		var b strings.Builder
		for k := range 100 {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k` + strings.Repeat("x", k%7) + `":` + []string{`1.5`, `"s"`, `[1,2]`, `{"z":null}`, `-7`}[k%5])
		}
		return b.String()
	}() + `}`},
}

func TestScalarMembers(t *testing.T) {
	for _, tc := range append(scalarMembersDocs, scalarElementsDocs...) {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.doc)
			checkScalarElements(t, doc, useMembers)
			checkScalarElements(t, doc, useMembers|useElements)
			// Every window of the document: what ScalarMembers reads in a
			// window is what it reads in the whole document.
			if doc[0] != '{' {
				return
			}
			for k := range len(doc) {
				var whole, cut Scanner
				whole.Reset(0)
				cut.Reset(0)
				_, _, _ = whole.Next(doc, 0)
				_, _, _ = cut.Next(doc[:k+1], 0)
				var a, b [64]MemberElement
				na, ata, stopa := whole.ScalarMembers(doc, 1, a[:])
				nb, atb, stop := cut.ScalarMembers(doc[:k+1], 1, b[:])
				if nb > na || atb > k+1 || stop != None && (nb != na || atb != ata || stop != stopa) {
					t.Fatalf("window %d: %d spans to %d (%v), whole document %d to %d (%v)", k+1, nb, atb, stop, na, ata, stopa)
				}
				for m := range b[:nb] {
					if b[m] != a[m] {
						t.Fatalf("window %d: span %d %+v, whole document %+v", k+1, m, b[m], a[m])
					}
				}
			}
		})
	}
}

func FuzzScalarMembers(f *testing.F) {
	for _, tc := range scalarMembersDocs {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkScalarElements(t, doc, useMembers)
		checkScalarElements(t, doc, useMembers|useElements)
	})
}
