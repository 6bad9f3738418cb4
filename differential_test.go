package jsonmask_test

import (
	"bytes"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// TestDifferential compares the machine with the reference masker on random
// documents and masks, valid and damaged, with random options: the same bytes
// out, and an error for the same inputs. Each input also runs through every
// streaming mode.
func TestDifferential(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	g := newGen(1)
	for iter := range n {
		maskJSON := g.mask(2)
		opt := reference.Options{Arrays: iter%4 == 1, DropMismatched: iter%5 == 2, NDJSON: iter%7 == 3}
		doc := g.doc()
		if opt.NDJSON {
			for range g.rng.IntN(4) {
				doc = append(append(doc, "\n\n"[:1+g.rng.IntN(2)]...), g.doc()...)
			}
			if g.rng.IntN(2) == 0 {
				doc = append(doc, '\n')
			}
		}
		if iter%3 == 0 {
			doc = g.mutate(doc)
		}
		m, err := jsonmask.Compile(maskJSON, jsonmask.WithArrays(opt.Arrays), jsonmask.WithDropMismatched(opt.DropMismatched), jsonmask.WithNDJSON(opt.NDJSON))
		if err != nil {
			t.Fatalf("Compile(%s): %v", maskJSON, err)
		}
		want, werr := reference.Reference(maskJSON, doc, opt)
		got, gerr := m.Append(nil, doc)
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("mask %s opts %+v doc %q\nmachine:   %q, %v\nreference: %q, %v", maskJSON, opt, doc, got, gerr, want, werr)
		}
		mode := maskModes[iter%len(maskModes)]
		sgot, serr := mode.mask(m, doc)
		if (serr != nil) != (gerr != nil) || gerr == nil && !bytes.Equal(sgot, got) {
			t.Fatalf("%s: mask %s opts %+v doc %q\nstreamed: %q, %v\nAppend:   %q, %v", mode.name, maskJSON, opt, doc, sgot, serr, got, gerr)
		}
		if gerr == nil {
			// SPEC V4: for valid input, trusted mode gives the same output.
			tm, _ := jsonmask.Compile(maskJSON, jsonmask.WithArrays(opt.Arrays), jsonmask.WithDropMismatched(opt.DropMismatched), jsonmask.WithNDJSON(opt.NDJSON), jsonmask.WithTrustedInput(true))
			if tgot, terr := tm.Append(nil, doc); terr != nil || !bytes.Equal(tgot, got) {
				t.Fatalf("trusted: mask %s doc %q\ntrusted: %q, %v\ndefault: %q", maskJSON, doc, tgot, terr, got)
			}
		}
	}
}
