package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// fieldsSeeds are text masks that parse and that do not (SPEC T1 to T3).
var fieldsSeeds = []string{
	"a", "a,b", "a/b/c", "a(b,c)", "ob,a(k,z(f,g/d)),d", "items(id,status),next", " a , b ( c ,\td ) ",
	"a/b,a/c", "a,a/b", "a/b,a", "*", "*/id", "*(id),meta", `\*,a\,b,c\/d,e\(f\),h\\i`, `\ a\ `,
	"_id,last_action_number,members(_id,email),blocks(block_id,type,service_item(title,price_per_unit))",
	"", ",", "a,", "a()", "a(b", "a)", "a(b)c", "a//b", "user_*", `a\b`, `a\`, "a\xffb", "*,\\*",
}

// FuzzCompileFields checks text masks: any text either compiles or fails
// with a *MaskError whose offset lies in the text, without a panic; a text
// mask and the JSON mask it prints (Mask.MarshalJSON) mask every document
// alike, and alike with the reference masker given that JSON mask; the
// printed form prints itself again.
func FuzzCompileFields(f *testing.F) {
	_, inputs := conformanceSeeds(f)
	for i, text := range fieldsSeeds {
		f.Add(text, inputs[i%len(inputs)])
	}
	f.Fuzz(func(t *testing.T, text string, doc []byte) {
		m, err := jsonmask.CompileFields(text, jsonmask.WithArrays(len(doc)%2 == 0))
		if err != nil {
			var me *jsonmask.MaskError
			if !errors.As(err, &me) || me.Offset < 0 || me.Offset > int64(len(text)) {
				t.Fatalf("CompileFields(%q) = %#v, want a *MaskError with an offset in the text", text, err)
			}
			return
		}
		prog, err := compile.CompileFields(text, compile.Options{})
		if err != nil {
			t.Fatalf("the front door compiles %q, compile does not: %v", text, err)
		}
		printed, err := m.MarshalJSON()
		if err != nil {
			if !hasStarKey(prog) || !prog.Wildcards() {
				t.Fatalf("MarshalJSON of %q: %v", text, err)
			}
			return // a wildcard and a key named "*": no JSON form
		}
		wild := prog.Wildcards()
		jm, err := jsonmask.Compile(printed, jsonmask.WithWildcards(wild), jsonmask.WithArrays(len(doc)%2 == 0))
		if err != nil {
			t.Fatalf("the printed form %s of %q does not compile: %v", printed, text, err)
		}
		if again, err := jm.MarshalJSON(); err != nil || !bytes.Equal(again, printed) {
			t.Fatalf("%q prints %s, which prints %s, %v", text, printed, again, err)
		}
		got, gerr := m.Append(nil, doc)
		jgot, jerr := jm.Append(nil, doc)
		if (gerr != nil) != (jerr != nil) || !bytes.Equal(got, jgot) {
			t.Fatalf("text %q and JSON %s differ on %q:\n%q, %v\n%q, %v", text, printed, doc, got, gerr, jgot, jerr)
		}
		ref, rerr := reference.Reference(printed, doc, reference.Options{Wildcards: wild, Arrays: len(doc)%2 == 0})
		if (gerr != nil) != (rerr != nil) || gerr == nil && !bytes.Equal(got, ref) {
			t.Fatalf("text %q on %q: %q, %v; the reference: %q, %v", text, doc, got, gerr, ref, rerr)
		}
	})
}

// hasStarKey reports whether p has a key named "*" that is not a wildcard.
func hasStarKey(p *compile.Program) bool {
	for e := range int32(p.Entries()) {
		if en := p.Entry(e); en.Key == "*" && !en.Wildcard {
			return true
		}
	}
	return false
}

// FuzzWildcards is FuzzMask for masks read WithWildcards(true) (SPEC T2): no
// panic; the same output and the same error, pointer included (V3), streamed
// at any split as in memory; the same as the reference masker; and the
// keep-everything mask "*" gives the compacted input.
func FuzzWildcards(f *testing.F) {
	masks, inputs := conformanceSeeds(f)
	long := strings.Repeat("k", 300)
	masks = append(masks, []byte(`{"*":true}`), []byte(`{"a":{"x":true},"*":{"*":{"v":true}}}`), []byte(`{"\u002a":{"id":true},"id":true}`))
	inputs = append(inputs, []byte(`{"a":{"x":1,"y":2},"b":{"c":{"v":1,"w":2}},"d":3}`),
		[]byte(`{"`+long+`":{"v":[1,}}`), []byte(`{"d":{"`+long+`":{"v":1,"w":"x"}},"`+long+`x":2}`))
	for i, in := range inputs {
		f.Add(in, masks[len(masks)-1-i%3], []byte{byte(i), 7, 0}, uint8(i))
		f.Add(in, masks[i%len(masks)], []byte{3}, uint8(i))
	}
	// Errors inside members that a wildcard matched, by keys too long to be
	// named (SPEC V3), whole in a window or not.
	for _, splits := range [][]byte{nil, {15}, {255}} {
		f.Add([]byte(`{"`+long+`":{"v":[1,}}`), []byte(`{"*":{"*":{"v":true}}}`), splits, uint8(0))
		f.Add([]byte(`{"d":{"`+long+`":{"v":[1,}}}`), []byte(`{"d":{"*":{"v":true}}}`), splits, uint8(0))
	}
	f.Fuzz(func(t *testing.T, doc, mask, splits []byte, flags uint8) {
		flags &^= optTrusted | optTokenLimit | optInputLimit // as the reference masker knows them not
		opts, ref := options(flags)
		ref.Wildcards = true
		m, err := jsonmask.Compile(mask, append(opts, jsonmask.WithWildcards(true), jsonmask.WithBufferSize(1+len(splits)))...)
		if err != nil {
			return
		}
		out, err := m.Append(nil, doc)
		if sout, serr := streamed(m, doc, splits); (serr != nil) != (err != nil) || err == nil && !bytes.Equal(sout, out) {
			t.Fatalf("Copy at splits %v: %q, %v\nAppend: %q, %v", splits, sout, serr, out, err)
		} else if err != nil && serr.Error() != err.Error() {
			t.Fatalf("Copy error %q, Append error %q", serr, err)
		}
		want, werr := reference.Reference(mask, doc, ref)
		if (werr != nil) != (err != nil) || err == nil && !bytes.Equal(out, want) {
			t.Fatalf("reference: %q, %v\nmachine:   %q, %v", want, werr, out, err)
		}
		if body, isMasked := masked(doc, ref.Arrays); isMasked && err == nil && !ref.NDJSON && !ref.DropMismatched {
			var compact bytes.Buffer
			if json.Compact(&compact, body) == nil {
				all := jsonmask.MustCompileFields("*", opts...)
				if got, err := all.Append(nil, body); err != nil || !bytes.Equal(got, compact.Bytes()) {
					t.Fatalf("the mask *: %q, %v; want %q", got, err, compact.Bytes())
				}
			}
		}
	})
}
