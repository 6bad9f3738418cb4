//go:build !race

package jsonmask_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/jsonmask/jsonmask"
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
