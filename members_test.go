package jsonmask_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// TestMemberLayouts: members laid out alike (the same bytes between a value
// and the next key, and between a key and its value), as the tokenizer
// remembers them, then a member laid out otherwise, valid or not. Every mode
// must agree with the reference masker, and streaming with Append.
func TestMemberLayouts(t *testing.T) {
	seps := []string{`,"`, `, "`, ",\n  \"", ",\n\t\t\"", ",\n" + "                    \"", " ,\r\n    \""}
	colons := []string{`:`, ` : `, `: `, ` :`, "\t:\n"}
	// What the last member may be preceded by, and its key by: valid
	// layouts that differ from the others, and broken ones.
	lastSeps := append(append([]string{}, seps...), `,}`, `,,"`, `, 1`, ` "`, ",\x01\"", `,"\`, `,'`, ",\n  ", ",\n  \"\"")
	lastColons := append(append([]string{}, colons...), ` `, `::`, ` ; `, ":\x01", `,`)
	values := []string{`1`, `"v"`, `true`, `-2.5e3`, `"\u00e9"`, `null`, `[1,2]`, `{"x":1}`}
	mask := `{"k0":true,"k2":true,"k5":true,"k6":true}`
	m := jsonmask.MustCompile(mask)
	tm := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	eachCombination([4][]string{seps, colons, lastSeps, lastColons}, func(sep, colon, lastSep, lastColon string) {
		var b bytes.Buffer
		b.WriteString("{\n  ")
		for k := range 6 {
			if k > 0 {
				b.WriteString(sep)
			} else {
				b.WriteByte('"')
			}
			fmt.Fprintf(&b, "k%d\"%s%s", k, colon, values[k%len(values)])
		}
		b.WriteString(lastSep)
		fmt.Fprintf(&b, "k6\"%s%s\n}", lastColon, values[6%len(values)])
		agreeOnLayout(t, mask, m, tm, b.Bytes())
	})
}

// TestObjectLayouts: objects opened and closed alike (the same bytes from '{'
// to the first key, and from the last value to '}'), as the tokenizer
// remembers them, then one opened or closed otherwise, valid or not. Every
// mode must agree with the reference masker, and streaming with Append.
func TestObjectLayouts(t *testing.T) {
	opens := []string{`"`, ` "`, "\n    \"", "\n\t\t\"", "\n" + "              \""}
	closes := []string{`}`, ` }`, "\n  }", "\r\n\t}", "\n" + "              }"}
	lastOpens := append(append([]string{}, opens...), "\n    }", "\n    \x01\"", "\n    1", "\n    ,\"", "\n    ")
	lastCloses := append(append([]string{}, closes...), "\n  ]", "\n  \x01}", "\n  ,}", "\n  ", "\n  }}")
	mask := `{"o0":{"a":true},"o2":{"b":true},"o3":true,"o4":{"a":true,"b":true}}`
	m := jsonmask.MustCompile(mask)
	tm := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	eachCombination([4][]string{opens, closes, lastOpens, lastCloses}, func(open, cl, lastOpen, lastClose string) {
		var b bytes.Buffer
		b.WriteString("{")
		for k := range 5 {
			if k > 0 {
				b.WriteString(",\n  ")
			}
			o, c := open, cl
			if k == 4 {
				o, c = lastOpen, lastClose
			}
			fmt.Fprintf(&b, "\"o%d\": {%sa\": %d, \"b\": \"v\"%s", k, o, k, c)
		}
		b.WriteString("\n}")
		agreeOnLayout(t, mask, m, tm, b.Bytes())
	})
}

// TestElementLayouts: elements of a masked array laid out alike (the same
// bytes from the ',' to the next element's first byte), as the tokenizer
// remembers them, then one laid out otherwise or of another kind, valid or
// not. Every mode must agree with the reference masker, and streaming with
// Append.
func TestElementLayouts(t *testing.T) {
	seps := []string{`,`, `, `, ",\n    ", ",\n\t\t", ",\n" + "                ", " ,\r\n  "}
	elems := []string{`{"x":1,"y":2}`, `[1,{"x":2}]`, `"s"`, `-3`, `true`}
	lastSeps := append(append([]string{}, seps...), `,,`, ",\x01", ",\n    ,", " ", ",\n    ]")
	lastElems := append(append([]string{}, elems...), `x`, `}`, `{"x":}`, "\"\x01\"", `]`, `:`)
	mask := `{"a":{"x":true}}`
	m := jsonmask.MustCompile(mask)
	tm := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	eachCombination([4][]string{seps, elems, lastSeps, lastElems}, func(sep, elem, lastSep, lastElem string) {
		var b bytes.Buffer
		b.WriteString(`{"a": [`)
		for k := range 5 {
			if k > 0 {
				b.WriteString(sep)
			}
			b.WriteString(elem)
		}
		b.WriteString(lastSep)
		b.WriteString(lastElem)
		b.WriteString("\n]}")
		agreeOnLayout(t, mask, m, tm, b.Bytes())
	})
}

// TestMemberHeads: objects in an array whose members come in the same order,
// as the tokenizer remembers their heads (from the ',' or '{' to the value,
// key included, when they fit in 32 bytes), then an object whose member at
// one place differs: another key as long, the same key laid out otherwise, an
// escaped key, a broken head, one member fewer or more. Every mode must agree
// with the reference masker, and streaming with Append.
func TestMemberHeads(t *testing.T) {
	indents := []string{"", "\n  ", "\n" + strings.Repeat(" ", 14), "\n" + strings.Repeat(" ", 20)}
	keySets := [][]string{
		{"a", "bb", "ccc", "dddd"},
		{"name", "url", "color", "x"},
		{"key_of_sixteen__", "k", "key_of_seventeen_", "kk"},
	}
	places := []string{"0", "1", "3", "17", "33"} // the tokenizer has 32 places per depth
	variants := []string{"same", "other key", "spaced", "escaped", "no colon", "bad byte", "fewer", "more"}
	mask := `{"list":{"a":true,"ccc":true,"name":true,"x":true,"k":true,"key_of_sixteen__":true,"m5":true,"m17":true,"m33":true}}`
	m := jsonmask.MustCompile(mask)
	tm := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	eachCombination([4][]string{indents, places, variants, {"0", "1", "2"}}, func(indent, place, variant, set string) {
		keys := keySets[set[0]-'0']
		at, _ := strconv.Atoi(place)
		object := func(last bool) string {
			var b strings.Builder
			b.WriteString("{")
			n := 35
			if last && variant == "fewer" {
				n = at
			}
			for k := range n {
				if k > 0 {
					b.WriteString(",")
				}
				b.WriteString(indent)
				key := fmt.Sprintf("m%d", k)
				if k < len(keys) {
					key = keys[k]
				}
				head := `"` + key + `": `
				if last && k == at {
					switch variant {
					case "other key":
						head = `"` + strings.Repeat("z", len(key)) + `": `
					case "spaced":
						head = `"` + key + `" :  `
					case "escaped":
						head = `"\u00` + fmt.Sprintf("%x", key[0]) + key[1:] + `": `
					case "no colon":
						head = `"` + key + `" `
					case "bad byte":
						head = `"` + key + "\x01\": "
					}
				}
				fmt.Fprintf(&b, "%s%d", head, k)
			}
			if last && variant == "more" {
				b.WriteString(`,` + indent + `"extra": true`)
			}
			b.WriteString(indent + "}")
			return b.String()
		}
		var b strings.Builder
		b.WriteString(`{"list": [`)
		for range 3 {
			b.WriteString(object(false) + ",")
		}
		b.WriteString(object(true) + "]}")
		agreeOnLayout(t, mask, m, tm, []byte(b.String()))
	})
}

// TestMemberHeadLookups: a key the tokenizer names by its head (MemberSpan.Head)
// has its Lookup answer kept per node and per program. The same keys laid
// out alike in objects of two nodes at one depth, and masked by two programs
// in turn on pooled Machines, must each be masked by their own mask.
func TestMemberHeadLookups(t *testing.T) {
	object := "{\n    \"x\": 1,\n    \"y\": 2,\n    \"z\": {\"x\": 3}\n  }"
	list := "[\n  " + strings.Repeat(object+",\n  ", 3) + object + "\n]"
	docs := [][]byte{
		[]byte(`{"a": ` + list + `, "b": ` + list + `, "c": ` + list + `}`),
		[]byte(`{"a": ` + list + `}`), // node 1 only, in each program
	}
	// Alike in shape, so that the programs number their nodes alike.
	masks := []string{
		`{"a":{"x":true},"b":{"y":true},"c":{"z":{"x":true}}}`,
		`{"a":{"y":true},"b":{"z":true},"c":{"x":{"x":true}}}`,
		`{"a":{"z":true},"b":{"x":true},"c":{"y":{"x":true}}}`,
	}
	var compiled []*jsonmask.Mask
	for _, mask := range masks {
		compiled = append(compiled, jsonmask.MustCompile(mask))
	}
	for round := range 4 {
		for _, doc := range docs {
			for k, mask := range masks {
				want, err := reference.Reference([]byte(mask), doc, reference.Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := compiled[k].Append(nil, doc)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("round %d, mask %s:\ngot  %s, %v\nwant %s", round, mask, got, err, want)
				}
			}
		}
	}
}

// eachCombination calls f with every combination of one string from each of
// the four lists.
func eachCombination(lists [4][]string, f func(a, b, c, d string)) {
	for _, a := range lists[0] {
		for _, b := range lists[1] {
			for _, c := range lists[2] {
				for _, d := range lists[3] {
					f(a, b, c, d)
				}
			}
		}
	}
}

// agreeOnLayout checks doc masked by m (compiled from mask) against the
// reference masker, every streaming mode against Append, and trusted mode (tm)
// against the default where doc is valid.
func agreeOnLayout(t *testing.T, mask string, m, tm *jsonmask.Mask, doc []byte) {
	t.Helper()
	want, werr := reference.Reference([]byte(mask), doc, reference.Options{})
	got, gerr := m.Append(nil, doc)
	if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("doc %q\nmachine:   %q, %v\nreference: %q, %v", doc, got, gerr, want, werr)
	}
	for _, mode := range maskModes {
		sgot, serr := mode.mask(m, doc)
		if fmt.Sprint(serr) != fmt.Sprint(gerr) || gerr == nil && !bytes.Equal(sgot, got) {
			t.Fatalf("%s: doc %q\nstreamed: %q, %v\nAppend:   %q, %v", mode.name, doc, sgot, serr, got, gerr)
		}
	}
	if gerr == nil {
		if tgot, terr := tm.Append(nil, doc); terr != nil || !bytes.Equal(tgot, got) {
			t.Fatalf("trusted: doc %q\ntrusted: %q, %v\ndefault: %q", doc, tgot, terr, got)
		}
	}
}

// TestLayoutAcrossDocuments: what the tokenizer learns of a layout outlives
// the document (Reset keeps it), so each document here is masked right after
// another laid out otherwise, on the same Masks, valid or not. Every mode must
// agree with the reference masker.
func TestLayoutAcrossDocuments(t *testing.T) {
	type layout struct{ open, sep, colon, elem, close string }
	valid := []layout{
		{`"`, `,"`, `:`, `,`, `}`},
		{"\n  \"", ",\n  \"", `: `, ", ", "\n}"},
		{"\n    \"", ",\n    \"", ` : `, ",\n    ", "\n  }"},
		{"\n\t\"", ",\n\t\"", ":\t", ",\n\t", "\r\n}"},
		{"\n" + strings.Repeat(" ", 20) + `"`, ",\n" + strings.Repeat(" ", 20) + `"`, `: `, ",\n" + strings.Repeat(" ", 20), "\n" + strings.Repeat(" ", 18) + "}"},
	}
	broken := []layout{
		{"\n  \x01\"", ",\n  \"", `: `, ", ", "\n}"},
		{"\n  \"", ",\n  \x01\"", `: `, ", ", "\n}"},
		{"\n  \"", ",\n  \"", ":\x01", ", ", "\n}"},
		{"\n  \"", ",\n  \"", `: `, ",\x01", "\n}"},
		{"\n  \"", ",\n  \"", `: `, ", ", "\n\x01}"},
		{"\n  \"", ",\n   ", `: `, ", ", "\n}"},
		{"\n  \"", ",\n  \"", ` `, ", ", "\n}"},
	}
	build := func(l layout) []byte {
		var b strings.Builder
		var obj func(depth int, keys ...string)
		obj = func(depth int, keys ...string) {
			for k, key := range keys {
				if k == 0 {
					b.WriteString("{" + l.open)
				} else {
					b.WriteString(l.sep)
				}
				b.WriteString(key + `"` + l.colon)
				switch {
				case k == 1 && depth < 3:
					b.WriteString("[1" + l.elem + "2" + l.elem + `"x"` + l.elem)
					if depth < 2 {
						b.WriteString(`{"a":1}` + l.elem)
					}
					b.WriteString("null]")
				case k == 2 && depth < 3:
					obj(depth+1, "a", "b", "c", "d")
				default:
					fmt.Fprintf(&b, "%d", depth*10+k)
				}
			}
			b.WriteString(l.close)
		}
		obj(0, "a", "b", "c", "d", "e")
		return []byte(b.String())
	}
	mask := `{"a":true,"c":{"a":true,"c":{"b":true,"c":true}},"e":true}`
	m := jsonmask.MustCompile(mask)
	tm := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	for _, l := range broken {
		if _, err := reference.Reference([]byte(mask), build(l), reference.Options{}); err == nil {
			t.Fatalf("broken layout %q makes a valid document", l)
		}
	}
	for _, first := range valid {
		if _, err := reference.Reference([]byte(mask), build(first), reference.Options{}); err != nil {
			t.Fatalf("layout %q: %v", first, err)
		}
		for _, second := range append(append([]layout{}, valid...), broken...) {
			agreeOnLayout(t, mask, m, tm, build(first))
			agreeOnLayout(t, mask, m, tm, build(second))
		}
	}
}
