package stream

import (
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// shapeCanary is in every value that the shape masks drop, and nowhere else.
const shapeCanary = "CANARY"

// shapeMasks recurse into the elements' child objects (distance, duration,
// and the two long keys that lie on both sides of moveOpen's 16 bytes), so
// that Scanner.Members goes down into them once their heads are learned
// (descended); the second keeps other members of the same children, and
// the third goes the other way for "duration", so that a Machine that
// masks by them in turn meets the same heads with other answers.
var shapeMasks = []string{
	`{"rows":{"status":true,"distance":{"text":true},"duration":{"text":true},"abcdefghijklmn":{"text":true},"abcdefghijklmno":{"text":true}}}`,
	`{"rows":{"status":true,"distance":{"value":true},"duration":{"text":true,"value":true},"abcdefghijklmn":{"value":true}}}`,
	`{"rows":{"distance":{"text":true},"duration":true,"abcdefghijklmno":{"value":true}}}`,
}

// shapeElement is an element whose members each shapeMask keeps or drops
// whole: its dropped values are canaries only where every mask drops them.
const shapeElement = `{"distance":{"text":"1 m","value":1},"duration":{"text":"2 s","value":2},` +
	`"abcdefghijklmn":{"text":"a","value":3},"abcdefghijklmno":{"text":"b","value":4},"status":"OK","zz":"` + shapeCanary + `"}`

// shapeOdd are elements that differ from shapeElement in one way, each met
// after five alike ones whose heads and answers the Machine has learned.
var shapeOdd = []struct{ name, el string }{
	{"Same", shapeElement},
	{"KeyLastByte", `{"distancf":{"text":"` + shapeCanary + `","value":1},"duration":{"texu":"` + shapeCanary + `","value":2},"abcdefghijklmn":{"text":"a","value":3},"abcdefghijklmno":{"text":"b","value":4},"status":"OK","zz":"` + shapeCanary + `"}`},
	{"KeyFirstByte", `{"xistance":{"text":"` + shapeCanary + `"},"duration":{"xext":"` + shapeCanary + `"},"status":"OK"}`},
	{"ExtraMember", `{"distance":{"text":"1 m","extra":"` + shapeCanary + `","value":1},"more":{"text":"` + shapeCanary + `"},"duration":{"text":"2 s","value":2},"abcdefghijklmn":{"text":"a","value":3},"abcdefghijklmno":{"text":"b","value":4},"status":"OK","zz":"` + shapeCanary + `"}`},
	{"MissingMember", `{"distance":{"value":1},"abcdefghijklmn":{"text":"a"},"status":"OK","zz":"` + shapeCanary + `"}`},
	{"Reordered", `{"status":"OK","duration":{"value":2,"text":"2 s"},"distance":{"value":1,"text":"1 m"},"abcdefghijklmno":{"value":4,"text":"b"},"abcdefghijklmn":{"value":3,"text":"a"}}`},
	{"ScalarForObject", `{"distance":"far","duration":7,"abcdefghijklmn":null,"abcdefghijklmno":[1],"status":"OK"}`},
	{"ObjectForScalar", `{"distance":{"text":"1 m","value":1},"duration":{"text":"2 s","value":2},"status":{"x":1},"zz":{"y":"` + shapeCanary + `"}}`},
	{"EmptyChildren", `{"distance":{},"duration":{ },"abcdefghijklmn":{},"abcdefghijklmno":{},"status":"OK"}`},
	{"EscapedKeptKey", `{"dist\u0061nce":{"t\u0065xt":"1 m","value":1},"duration":{"text":"2 s","v\u0061lue":2},"abcdefghijklm\u006e":{"text":"a","value":3},"status":"OK","z\u007a":"` + shapeCanary + `"}`},
	{"EscapedOtherKey", `{"distanc\u0066":{"text":"` + shapeCanary + `"},"duration":{"t\u0065xu":"` + shapeCanary + `"},"status":"OK"}`},
	{"LongValues", `{"distance":{"text":"a text of more than sixteen bytes","value":1234567890123},"duration":{"text":"2 s","value":2},"status":"a status of more than sixteen bytes"}`},
	// Values on both sides of 16 and 64 bytes, quotes counted: moveShort,
	// descended's moves of up to 64 bytes, keepSpan.
	{"ValueLengths16", `{"distance":{"text":"` + strings.Repeat("a", 14) + `","value":1},"duration":{"text":"` + strings.Repeat("b", 15) + `","value":2},"status":"` + strings.Repeat("c", 30) + `","zz":"` + shapeCanary + `"}`},
	{"ValueLengths64", `{"distance":{"text":"` + strings.Repeat("a", 62) + `","value":1},"duration":{"text":"` + strings.Repeat("b", 63) + `","value":2},"status":"` + strings.Repeat("c", 47) + `","zz":"` + shapeCanary + `","zy":"` + strings.Repeat(shapeCanary, 16) + `"}`},
	{"ValueLengthsLong", `{"distance":{"text":"` + strings.Repeat("a", 200) + `","value":12345678901234567890},"duration":{"text":"` + strings.Repeat("b", 48) + `","value":0.8653962447851803},"status":"` + strings.Repeat("c", 46) + `","zz":"` + shapeCanary + `"}`},
	{"Nested", `{"distance":{"text":{"a":[1,{"b":2}]},"value":{"v":"` + shapeCanary + `"}},"duration":{"text":[],"value":[{"c":"` + shapeCanary + `"}]},"status":"OK"}`},
}

// alikeDocs returns the document of five elements el, the odd one and one
// more el, minified and pretty, and where the odd element starts in each.
func alikeDocs(el, odd string) (docs []string, from []int) {
	for _, pretty := range []bool{false, true} {
		e, o := el, odd
		if pretty {
			r := strings.NewReplacer(`":`, `" : `, `,"`, ",\n      \"", `{"`, "{\n      \"")
			e, o = r.Replace(e), r.Replace(o)
		}
		head := `{"rows":[` + strings.Repeat(e+`,`, 5)
		docs = append(docs, head+o+`,`+e+`]}`)
		from = append(from, len(head))
	}
	return docs, from
}

// TestRepeatedShapes masks arrays of alike objects with masked children,
// where one element differs from the others in one way (a key renamed in its
// last or first byte, a member more or less, the order, a scalar where the
// others hold an object and the other way round, an escaped key that decodes
// to a kept key or to another, long values, kept containers): by each of
// three masks, default and DropMismatched against the reference masker,
// trusted mode the same as default, whole, split at every byte from the odd
// element on and a byte at a time. No canary, which only dropped values
// hold, may be in the output or in the buffer past its end.
func TestRepeatedShapes(t *testing.T) { checkAlike(t, shapeOdd, shapeElement, shapeMasks) }

// checkAlike masks, for each odd element, the documents of alikeDocs by each
// of masks, default, trusted and DropMismatched, against the reference
// masker, whole, split at every byte from the odd element on and a byte at a
// time; under the first mask, no canary may be in the output or in the
// buffer's room past it.
func checkAlike(t *testing.T, odds []struct{ name, el string }, el string, masks []string) {
	for _, odd := range odds {
		docs, from := alikeDocs(el, odd.el)
		if testing.Short() {
			docs = docs[:1] // minified only: a third of the time under -race
		}
		for k, doc := range docs {
			for mi, mask := range masks {
				prog, err := compile.Compile([]byte(mask), compile.Options{})
				if err != nil {
					t.Fatal(err)
				}
				name := odd.name + []string{"/Minified", "/Pretty"}[k] + "/" + string(rune('A'+mi))
				t.Run(name, func(t *testing.T) {
					for _, cfg := range []Config{{}, {Trusted: true}, {DropMismatched: true}} {
						want, err := reference.Reference([]byte(mask), []byte(doc), reference.Options{DropMismatched: cfg.DropMismatched})
						if err != nil {
							t.Fatal(err)
						}
						if got := checkEveryWay(t, prog, cfg, doc, from[k]); got != string(want) {
							t.Fatalf("%+v: got\n%s\nreference\n%s", cfg, got, want)
						}
					}
					if mi == 0 {
						checkNoCanary(t, prog, doc)
					}
				})
			}
		}
	}
}

// checkNoCanary masks doc whole and split at every byte into buffers with
// room to spare, default and trusted: neither the output nor the room past
// it may hold shapeCanary, after any Write.
func checkNoCanary(t *testing.T, prog *compile.Program, doc string) {
	t.Helper()
	leak := func(b []byte) bool { return strings.Contains(string(b[:cap(b)]), shapeCanary[:4]) }
	for _, cfg := range []Config{{}, {Trusted: true}} {
		var m Machine
		m.Reset(prog, cfg)
		out, err := m.Append(make([]byte, 0, 8192), []byte(doc))
		if err != nil || leak(out) {
			t.Fatalf("Append: %v, a canary in the buffer:\n%q", err, out[:min(len(out)+64, cap(out))])
		}
		for cut := range len(doc) {
			m.Reset(prog, cfg)
			out := make([]byte, 0, 8192)
			for _, w := range []string{doc[:cut], doc[cut:]} {
				for len(w) > 0 {
					var n int
					if out, n, err = m.Write(out, []byte(w)); err != nil || leak(out) {
						t.Fatalf("split at %d: %v, a canary in the buffer:\n%q", cut, err, out[:min(len(out)+64, cap(out))])
					}
					w = w[n:]
				}
			}
			for done := false; !done; {
				if out, done, err = m.Close(out); err != nil || leak(out) {
					t.Fatalf("split at %d, closed: %v, a canary in the buffer:\n%q", cut, err, out[:min(len(out)+64, cap(out))])
				}
			}
		}
	}
}

// TestShapesProgramsInTurn masks the documents of TestRepeatedShapes by the
// three masks in turn with one Machine, Reset between documents: what it
// learned for a Head under one program (the found cache, the Descents) must
// not answer under another, whose nodes have the same numbers and other
// keys. Each output must be the reference masker's.
func TestShapesProgramsInTurn(t *testing.T) {
	checkAlikeInTurn(t, shapeOdd, shapeElement, shapeMasks)
}

// checkAlikeInTurn masks the documents of alikeDocs by masks in turn with
// one Machine, Reset between documents, each order of the programs: each
// output must be the reference masker's.
func checkAlikeInTurn(t *testing.T, odds []struct{ name, el string }, el string, masks []string) {
	progs := make([]*compile.Program, len(masks))
	for k, mask := range masks {
		var err error
		if progs[k], err = compile.Compile([]byte(mask), compile.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	var m Machine
	for round := range 3 {
		for _, odd := range odds {
			docs, _ := alikeDocs(el, odd.el)
			for _, doc := range docs {
				for k := range progs {
					k := (k + round) % len(progs) // each order of the programs
					want, err := reference.Reference([]byte(masks[k]), []byte(doc), reference.Options{})
					if err != nil {
						t.Fatal(err)
					}
					m.Reset(progs[k], Config{})
					out, err := m.Append(nil, []byte(doc))
					if err != nil || string(out) != string(want) {
						t.Fatalf("%s, mask %d after mask %d: got\n%s, %v\nreference\n%s", odd.name, k, (k+len(progs)-1)%len(progs), out, err, want)
					}
				}
			}
		}
	}
}

// TestShapesWildcard masks the documents of TestRepeatedShapes by masks
// with a wildcard at the elements' level and inside them, which the
// Machine masks without going down in Members' batch: against the
// reference masker, every way.
func TestShapesWildcard(t *testing.T) {
	for _, mask := range []string{
		`{"rows":{"*":{"text":true}}}`,
		`{"rows":{"distance":{"*":true},"*":{"value":true},"status":true}}`,
	} {
		prog, err := compile.Compile([]byte(mask), compile.Options{Wildcards: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, odd := range shapeOdd {
			docs, from := alikeDocs(shapeElement, odd.el)
			if testing.Short() {
				docs = docs[:1]
			}
			for k, doc := range docs {
				t.Run(odd.name, func(t *testing.T) {
					want, err := reference.Reference([]byte(mask), []byte(doc), reference.Options{Wildcards: true})
					if err != nil {
						t.Fatal(err)
					}
					if got := checkEveryWay(t, prog, Config{}, doc, from[k]); got != string(want) {
						t.Fatalf("got\n%s\nreference\n%s", got, want)
					}
				})
			}
		}
	}
}
