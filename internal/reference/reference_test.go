package reference

import (
	"testing"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/fallback"
)

// TestReference: the reference's own cases, one per rule it follows; the
// root's tests compare the machine with it on every table and fuzz input.
func TestReference(t *testing.T) {
	for _, c := range []struct {
		name, mask, doc, want string
		opt                   Options
	}{
		{"Keep", `{"a":true}`, `{"a":1,"b":2}`, `{"a":1}`, Options{}},
		{"Nested", `{"a":{"b":true}}`, `{"a":{"b":[1, 2],"c":3}}`, `{"a":{"b":[1,2]}}`, Options{}},
		{"ArrayTransparent", `{"a":{"b":true}}`, `{"a":[{"b":1,"c":2},3]}`, `{"a":[{"b":1},3]}`, Options{}},
		{"DropMismatched", `{"a":{"b":true}}`, `{"a":[{"b":1},3]}`, `{"a":[{"b":1}]}`, Options{DropMismatched: true}},
		{"EscapedKey", `{"\u00e9":true}`, `{"é":"\u00e9","x":1}`, `{"é":"\u00e9"}`, Options{}},
		{"Duplicates", `{"a":true}`, `{"a":1,"a":2}`, `{"a":1,"a":2}`, Options{}},
		{"BOMAndSpace", `{"a":true}`, "\xEF\xBB\xBF \n{\"a\":1}", `{"a":1}`, Options{}},
		{"MaskBOM", "\xEF\xBB\xBF{\"a\":true}", `{"a":1,"b":2}`, `{"a":1}`, Options{}},
		{"NotObject", `{"a":true}`, ` [1]`, ` [1]`, Options{}},
		{"Arrays", `{"a":true}`, `[{"a":1,"b":2}]`, `[{"a":1}]`, Options{Arrays: true}},
		{"NDJSON", `{"a":true}`, "{\"a\":1,\"b\":2}\n5\n", "{\"a\":1}\n5\n", Options{NDJSON: true}},
		{"Wildcard", `{"*":true,"b":{"c":true}}`, `{"a":1,"b":{"c":2,"d":3}}`, `{"a":1,"b":{"c":2}}`, Options{Wildcards: true}},
		{"NumberAtEnd", `{"a":true}`, `{"a":-1.5e3}`, `{"a":-1.5e3}`, Options{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Reference([]byte(c.mask), []byte(c.doc), c.opt)
			if err != nil || string(got) != c.want {
				t.Errorf("Reference = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestReferenceInvalid(t *testing.T) {
	for _, doc := range []string{`{"a":}`, `{"a":1`, `{"a":1}x`, `{"a":01}`} {
		if got, err := Reference([]byte(`{"a":true}`), []byte(doc), Options{}); err == nil {
			t.Errorf("Reference(%q) = %q, want an error", doc, got)
		}
	}
}

type zeroer struct{ n int }

func (z zeroer) IsZero() bool { return z.n == 1 }

type ptrZeroer struct{ n int }

func (z *ptrZeroer) IsZero() bool { return z.n == 1 }

// TestReferenceValue: the field rules written again here (names, tags,
// omitempty, omitzero with IsZero methods) give encoding/json's answers.
func TestReferenceValue(t *testing.T) {
	type s struct {
		A     int       `json:"a"`
		B     string    `json:"b,omitempty"`
		C     zeroer    `json:"c,omitzero"`
		D     ptrZeroer `json:"d,omitzero"`
		E     *int      `json:"e,omitzero"`
		F     int       `json:"f§"`
		G     []int     `json:"g,omitempty"`
		Named int       `json:"-"`
	}
	prog, err := compile.Compile([]byte(`{"a":true,"b":true,"c":true,"d":true,"e":true,"F":true,"g":true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"Zeros", s{C: zeroer{1}, D: ptrZeroer{1}}, `{"a":0,"F":0}`},
		{"Values", s{A: 1, B: "x", C: zeroer{2}, D: ptrZeroer{2}, F: 3, G: []int{4}, Named: 5}, `{"a":1,"b":"x","c":{},"d":{},"F":3,"g":[4]}`},
		{"Pointer", &s{C: zeroer{1}, D: ptrZeroer{1}, E: new(int)}, `{"a":0,"e":0,"F":0}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReferenceValue(nil, prog, c.v, fallback.ValueOptions{})
			if err != nil || string(got) != c.want {
				t.Errorf("ReferenceValue = %s, %v; want %s", got, err, c.want)
			}
		})
	}
}
