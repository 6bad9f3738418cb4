package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// TestConformanceFields runs every conformance case whose mask can be
// written in the text syntax (SPEC T1) through both forms, in every way of
// masking: the same output, the one the case wants. A mask cannot be
// written as text when it holds {} (an empty selection is an error, T3), the
// empty key, or a key with a line break at an end (blanks around names are
// trimmed).
func TestConformanceFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ran := 0
	for _, c := range loadConformance(t) {
		if c.CompileError {
			continue
		}
		text, ok := fieldsText(c.mask(), false, rng)
		if !ok {
			t.Logf("%s: no text form for %q", c.Name, c.mask())
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			jm, err := jsonmask.Compile(c.mask(), c.Options.list()...)
			if err != nil {
				t.Fatal(err)
			}
			fm, err := jsonmask.CompileFields(text, c.Options.list()...)
			if err != nil {
				t.Fatalf("CompileFields(%q): %v", text, err)
			}
			in := c.input(t)
			for _, mode := range maskModes {
				jout, jerr := mode.mask(jm, in)
				fout, ferr := mode.mask(fm, in)
				if !bytes.Equal(jout, fout) || (jerr == nil) != (ferr == nil) {
					t.Errorf("%s: JSON form %q, %v; text form %q (%q), %v", mode.name, jout, jerr, text, fout, ferr)
				}
				if c.Error != (ferr != nil) || !c.Error && string(fout) != *c.Output {
					t.Errorf("%s: text form %q: %q, %v; want %v", mode.name, text, fout, ferr, c.Output)
				}
			}
		})
	}
	if ran < 40 {
		t.Errorf("only %d cases have a text form", ran)
	}
}

// TestDifferentialWildcards compares the machine with the reference masker
// on random masks with wildcards (SPEC T2) and random documents, valid and
// damaged: the same bytes, the same failures. Each mask also runs as its
// text form and as its printed JSON form (Mask.MarshalJSON), and each input
// through one streaming mode.
func TestDifferentialWildcards(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 400
	}
	g := newGen(17)
	for iter := range n {
		maskJSON := g.wildMask(2)
		opt := reference.Options{Arrays: iter%4 == 1, DropMismatched: iter%5 == 2, Wildcards: true}
		opts := []jsonmask.Option{jsonmask.WithArrays(opt.Arrays), jsonmask.WithDropMismatched(opt.DropMismatched), jsonmask.WithBufferSize(1 + iter%40)}
		doc := g.doc()
		if iter%3 == 0 {
			doc = g.mutate(doc)
		}
		m, err := jsonmask.Compile(maskJSON, append(opts, jsonmask.WithWildcards(true))...)
		if err != nil {
			t.Fatalf("Compile(%s): %v", maskJSON, err)
		}
		want, werr := reference.Reference(maskJSON, doc, opt)
		got, gerr := m.Append(nil, doc)
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("mask %s opts %+v doc %q\nmachine:   %q, %v\nreference: %q, %v", maskJSON, opt, doc, got, gerr, want, werr)
		}
		mode := maskModes[iter%len(maskModes)]
		if sgot, serr := mode.mask(m, doc); (serr != nil) != (gerr != nil) || gerr == nil && !bytes.Equal(sgot, got) {
			t.Fatalf("%s: mask %s doc %q\nstreamed: %q, %v\nAppend:   %q, %v", mode.name, maskJSON, doc, sgot, serr, got, gerr)
		}
		printed, err := m.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON of %s: %v", maskJSON, err)
		}
		pm, err := jsonmask.Compile(printed, append(opts, jsonmask.WithWildcards(true))...)
		if err != nil {
			t.Fatalf("printed %s of %s: %v", printed, maskJSON, err)
		}
		if pgot, perr := pm.Append(nil, doc); (perr != nil) != (gerr != nil) || !bytes.Equal(pgot, got) {
			t.Fatalf("printed %s of %s, doc %q: %q, %v; want %q", printed, maskJSON, doc, pgot, perr, got)
		}
		if text, ok := fieldsText(maskJSON, true, g.rng); ok {
			fm, err := jsonmask.CompileFields(text, opts...)
			if err != nil {
				t.Fatalf("CompileFields(%q) of %s: %v", text, maskJSON, err)
			}
			if fgot, ferr := fm.Append(nil, doc); (ferr != nil) != (gerr != nil) || !bytes.Equal(fgot, got) {
				t.Fatalf("text %q of %s, doc %q: %q, %v; want %q", text, maskJSON, doc, fgot, ferr, got)
			}
		}
	}
}

// TestCompileFieldsMaskError checks that the front door turns a text mask's
// error into a *MaskError with its offset (SPEC T3), and a mask nested too
// deep into one that wraps ErrMaxDepth.
func TestCompileFieldsMaskError(t *testing.T) {
	for _, c := range []struct {
		text, msg string
		offset    int64
		pointer   string
	}{
		{"a,b,", "jsonmask: invalid fields mask: trailing comma at offset 3", 3, ""},
		{"a(b", "jsonmask: invalid fields mask: unbalanced parentheses: '(' is not closed at offset 1", 1, ""},
		{"a/b(c,)", "jsonmask: invalid fields mask: empty name before ')' at offset 6 (/a/b)", 6, "/a/b"},
	} {
		_, err := jsonmask.CompileFields(c.text)
		var me *jsonmask.MaskError
		if !errors.As(err, &me) || me.Error() != c.msg || me.Offset != c.offset || me.Pointer != c.pointer {
			t.Errorf("CompileFields(%q) = %v, want %q", c.text, err, c.msg)
		}
	}
	_, err := jsonmask.CompileFields("a/b/c", jsonmask.WithMaxDepth(2))
	if !errors.Is(err, jsonmask.ErrMaxDepth) {
		t.Errorf("CompileFields nested too deep: %v, want ErrMaxDepth", err)
	}
	if _, err := jsonmask.CompileFields("a", jsonmask.WithMaxDepth(0)); err == nil {
		t.Errorf("CompileFields with a bad option: no error")
	}
}

// TestAppendValueWildcards checks that AppendValue honours wildcards (SPEC
// T2) as Append does on the value's encoding.
func TestAppendValueWildcards(t *testing.T) {
	type item struct {
		ID    int               `json:"id"`
		Name  string            `json:"name"`
		Price float64           `json:"price"`
		Tags  map[string]string `json:"tags"`
	}
	v := map[string]any{
		"items": []item{{1, "a", 2.5, map[string]string{"k": "v", "CANARY": "CANARY"}}, {2, "CANARY", 3, nil}},
		"meta":  map[string]any{"next": "x", "debug": map[string]any{"CANARY": 1}},
		"count": 2,
	}
	enc, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"*", "items/*", "items(id,tags/k),*/next", "*(id,next),count", "items/*,items/name", "meta/debug,*/*/k"} {
		m := jsonmask.MustCompileFields(text)
		want, err := m.Append(nil, enc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.AppendValue(nil, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: AppendValue = %s, %v\nwant %s", text, got, err, want)
		}
	}
}

// fieldsText writes maskJSON in the text syntax, picking at random between
// the forms that mean the same ("a/b" or "a(b)", blanks or none), and
// reports false when the mask has no text form. With wildcards, the key "*"
// is written as the wildcard; without, as the key ("\*").
func fieldsText(maskJSON []byte, wildcards bool, rng *rand.Rand) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(maskJSON))
	ok := true
	blank := func(b *strings.Builder) {
		if rng.IntN(5) == 0 {
			b.WriteString([]string{" ", "\t", "\n ", "  "}[rng.IntN(4)])
		}
	}
	// object writes to b the members of the object whose '{' dec just
	// read, and returns how many it has.
	var object func(b *strings.Builder) int
	object = func(b *strings.Builder) int {
		n := 0
		for dec.More() {
			tok, _ := dec.Token()
			key := tok.(string)
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			blank(b)
			if wildcards && key == "*" {
				b.WriteByte('*')
			} else if !writeName(b, key) {
				ok = false
			}
			blank(b)
			if tok, _ = dec.Token(); tok == json.Delim('{') {
				var inner strings.Builder
				switch count := object(&inner); {
				case count == 0:
					ok = false // {} has no text form
				case count == 1 && rng.IntN(2) == 0:
					b.WriteByte('/')
					b.WriteString(inner.String())
				default:
					b.WriteByte('(')
					b.WriteString(inner.String())
					b.WriteByte(')')
				}
			}
			blank(b)
		}
		dec.Token() // '}'
		return n
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", false
	}
	var b strings.Builder
	if object(&b) == 0 {
		return "", false
	}
	return b.String(), ok
}

// writeName writes key as a name of the text syntax, escaped, and reports
// false when it has no text form.
func writeName(b *strings.Builder, key string) bool {
	if key == "" || !utf8.ValidString(key) {
		return false
	}
	for i, r := range key {
		switch {
		case strings.ContainsRune(`,/()*\`, r):
			b.WriteByte('\\')
		case (r == ' ' || r == '\t') && (i == 0 || i == len(key)-1):
			b.WriteByte('\\') // a blank at an end is kept only escaped
		case (r == '\n' || r == '\r') && (i == 0 || i == len(key)-1):
			return false
		}
		b.WriteRune(r)
	}
	return true
}
