//go:build !race

package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
)

// TestAllocs gates the hot paths (STYLE habit 6): Append into a dst with room
// and Copy in steady state allocate nothing, for every conformance input that
// is accepted, and for a large generated document.
func TestAllocs(t *testing.T) {
	type input struct {
		name string
		m    *jsonmask.Mask
		in   []byte
	}
	var inputs []input
	for _, c := range loadConformance(t) {
		if c.CompileError || c.Error {
			continue
		}
		m, err := jsonmask.Compile(c.mask(), c.Options.list()...)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{c.Name, m, c.input(t)})
	}
	g := newGen(7)
	var big bytes.Buffer
	big.WriteString(`{"items":[`)
	for i := range 2000 {
		if i > 0 {
			big.WriteByte(',')
		}
		big.Write(g.doc())
	}
	big.WriteString(`]}`)
	for _, mk := range []string{`{"items":{"a":true,"user":{"id":true}}}`, `{"items":true}`} {
		m := jsonmask.MustCompile(mk)
		if _, err := m.Append(nil, big.Bytes()); err == nil {
			inputs = append(inputs, input{"generated " + mk, m, big.Bytes()})
		}
	}
	for _, in := range inputs {
		dst := make([]byte, 0, 2*len(in.in)+64)
		if n := testing.AllocsPerRun(20, func() {
			if _, err := in.m.Append(dst[:0], in.in); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: Append: %v allocs per call, want 0", in.name, n)
		}
		r := &resettableReader{data: in.in, size: 5}
		if n := testing.AllocsPerRun(20, func() {
			r.pos = 0
			if _, err := in.m.Copy(io.Discard, r); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: Copy: %v allocs per call, want 0", in.name, n)
		}
	}
	if len(inputs) < 40 {
		t.Fatalf("only %d inputs", len(inputs))
	}
}

// allocItem and allocPage are the shapes of a typical API response as Go
// values: nested structs, pointers, slices, maps, interfaces.
type (
	allocItem struct {
		ID     int64             `json:"id"`
		Name   string            `json:"name"`
		Secret string            `json:"secret"`
		Price  float64           `json:"price,omitempty"`
		Tags   []string          `json:"tags"`
		Owner  *allocItem        `json:"owner,omitempty"`
		Attrs  map[string]string `json:"attrs"`
		Extra  any               `json:"extra"`
	}
	allocPage struct {
		Items []allocItem    `json:"items"`
		Next  *string        `json:"next"`
		Meta  map[string]any `json:"meta"`
	}
)

// TestAllocsAppendValue gates AppendValue's steady state: once its plans are
// built, masking a struct or a map[string]any (twitter.json decoded) into a
// dst with room allocates nothing, whether the mask keeps values whole or
// walks into them.
func TestAllocsAppendValue(t *testing.T) {
	next := "page-2"
	owner := &allocItem{ID: 1, Name: "o", Secret: "CANARY", Attrs: map[string]string{"b": "2", "a": "1"}}
	page := &allocPage{Next: &next, Meta: map[string]any{"count": 2.0, "query": "<q>", "list": []any{"a", 1.5, nil, true}}}
	for i := range 50 {
		page.Items = append(page.Items, allocItem{ID: int64(i), Name: "ナマエ", Secret: "CANARY", Price: 1.5, Tags: []string{"x", "y"},
			Owner: owner, Attrs: map[string]string{"k": "v"}, Extra: map[string]any{"a": []any{1.0, "b"}}})
	}
	twitter := corpus.File(t, "twitter.json")
	var tweets map[string]any
	if err := json.Unmarshal(twitter, &tweets); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, mask string
		v          any
	}{
		{"struct/walked", `{"items":{"id":true,"name":true,"owner":{"name":true,"attrs":{"a":true}},"extra":{"a":true}},"meta":{"list":true}}`, page},
		{"struct/kept whole", `{"items":true,"next":true,"meta":true}`, page},
		{"map/decision fields", `{"statuses":{"id_str":true,"text":true,"user":{"screen_name":true,"followers_count":true}},"search_metadata":{"count":true}}`, tweets},
		{"map/kept whole", `{"statuses":true}`, tweets},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask, jsonmask.WithDropMismatched(true))
			out, err := m.AppendValue(nil, c.v) // builds the plans
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(c.mask, `"items":true`) && bytes.Contains(out, []byte("CANARY")) {
				t.Fatalf("a dropped value reached the output: %.200s", out)
			}
			dst := make([]byte, 0, 2*len(out))
			if n := testing.AllocsPerRun(20, func() {
				if _, err := m.AppendValue(dst[:0], c.v); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("%v allocs per call, want 0", n)
			}
		})
	}
}
