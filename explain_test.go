package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestExplain checks what Explain reports (SPEC D1) on documents made for it:
// objects that a mask empties, the seed's warning; nested masks that meet
// scalars (A4, A6); wildcards; bodies that pass through; NDJSON.
func TestExplain(t *testing.T) {
	type es = jsonmask.EntryStats
	for _, c := range []struct {
		name    string
		mask    string // a text mask
		opts    []jsonmask.Option
		in, out string
		want    jsonmask.Explanation // BytesIn and BytesOut are filled in from in and out
	}{
		{
			name: "EmptiedObjects",
			mask: "id,items/price/amount,owner/email",
			in: `{"id":1,"items":[{"price":{"currency":"CANARY"}},{"price":{"amount":3,"currency":"CANARY"}},{"price":{}},{"sku":"CANARY"}],` +
				`"owner":{"name":"CANARY"},"note":"CANARY"}`,
			out: `{"id":1,"items":[{"price":{}},{"price":{"amount":3}},{"price":{}},{}],"owner":{}}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/id", Matched: 1},
				{Pointer: "/items", Nested: true, Matched: 1},
				{Pointer: "/items/price", Nested: true, Matched: 3, Absent: 1},
				{Pointer: "/items/price/amount", Matched: 1, Absent: 2},
				{Pointer: "/owner", Nested: true, Matched: 1},
				{Pointer: "/owner/email", Absent: 1},
			}, Emptied: []jsonmask.EmptiedPath{{Path: "/items/*/price", Count: 1}, {Path: "/items/*", Count: 1}, {Path: "/owner", Count: 1}}},
		},
		{
			name: "RootEmptied",
			mask: "nothing/here",
			in:   `{"a":"CANARY","b":{"c":"CANARY"}}`,
			out:  `{}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/nothing", Nested: true, Absent: 1},
				{Pointer: "/nothing/here"},
			}, Emptied: []jsonmask.EmptiedPath{{Path: "", Count: 1}}},
		},
		{
			name: "NestedMaskMeetsScalars",
			mask: "user/name,tags/id",
			in:   `{"user":"ana","tags":["x",{"id":1,"v":"CANARY"},null,[2,{"id":3}]],"more":"CANARY"}`,
			out:  `{"user":"ana","tags":["x",{"id":1},null,[2,{"id":3}]]}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/user", Nested: true, Matched: 1, Scalars: 1},
				{Pointer: "/user/name"},
				{Pointer: "/tags", Nested: true, Matched: 1, Scalars: 3},
				{Pointer: "/tags/id", Matched: 2},
			}},
		},
		{
			name: "NestedMaskMeetsScalarsDropMismatched",
			mask: "user/name,tags/id",
			opts: []jsonmask.Option{jsonmask.WithDropMismatched(true)},
			in:   `{"user":"CANARY","tags":["CANARY",{"id":1,"v":"CANARY"},null,[2,{"id":3}]],"more":"CANARY"}`,
			out:  `{"tags":[{"id":1},[{"id":3}]]}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/user", Nested: true, Matched: 1, Scalars: 1},
				{Pointer: "/user/name"},
				{Pointer: "/tags", Nested: true, Matched: 1, Scalars: 3},
				{Pointer: "/tags/id", Matched: 2},
			}},
		},
		{
			name: "Wildcards",
			mask: "meta,*/id",
			in:   `{"a":{"id":1,"x":"CANARY"},"b":{"y":"CANARY"},"c":3,"meta":{"n":2}}`,
			out:  `{"a":{"id":1},"b":{},"c":3,"meta":{"n":2}}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/meta", Matched: 1},
				{Pointer: "/*", Wildcard: true, Nested: true, Matched: 3, Scalars: 1},
				{Pointer: "/*/id", Matched: 1, Absent: 1},
			}, Emptied: []jsonmask.EmptiedPath{{Path: "/b", Count: 1}}},
		},
		{
			name: "DuplicateKeys",
			mask: "a/x",
			in:   `{"a":{"x":1},"a":{"y":"CANARY"},"a":{"x":2,"x":3}}`,
			out:  `{"a":{"x":1},"a":{},"a":{"x":2,"x":3}}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/a", Nested: true, Matched: 3},
				{Pointer: "/a/x", Matched: 3, Absent: 1},
			}, Emptied: []jsonmask.EmptiedPath{{Path: "/a", Count: 1}}},
		},
		{
			name: "Passthrough",
			mask: "a",
			in:   ` [{"a":1,"b":2}]`,
			out:  ` [{"a":1,"b":2}]`,
			want: jsonmask.Explanation{Entries: []es{{Pointer: "/a"}}},
		},
		{
			name: "ArrayRoot",
			mask: "a",
			opts: []jsonmask.Option{jsonmask.WithArrays(true)},
			in:   `[{"a":1,"b":"CANARY"},{"b":"CANARY"},5]`,
			out:  `[{"a":1},{},5]`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{{Pointer: "/a", Matched: 1, Absent: 1}},
				Emptied: []jsonmask.EmptiedPath{{Path: "/*", Count: 1}}},
		},
		{
			name: "NDJSON",
			mask: "id,user/name",
			opts: []jsonmask.Option{jsonmask.WithNDJSON(true)},
			in:   "{\"id\":1,\"user\":{\"pw\":\"CANARY\"}}\n\n[1]\n{\"user\":{\"name\":\"b\"}}\n",
			out:  "{\"id\":1,\"user\":{}}\n\n[1]\n{\"user\":{\"name\":\"b\"}}\n",
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/id", Matched: 1, Absent: 1},
				{Pointer: "/user", Nested: true, Matched: 2},
				{Pointer: "/user/name", Matched: 1, Absent: 1},
			}, Emptied: []jsonmask.EmptiedPath{{Path: "/user", Count: 1}}},
		},
		{
			name: "ByteOrderMarks", // SPEC B1, S3: before a body, and before each line
			mask: "a",
			opts: []jsonmask.Option{jsonmask.WithNDJSON(true)},
			in:   "\xEF\xBB\xBF {\"a\":1,\"b\":\"CANARY\"}\n\xEF\xBB\xBF{\"b\":\"CANARY\"}",
			out:  "{\"a\":1}\n{}\n",
			want: jsonmask.Explanation{Masked: true, Entries: []es{{Pointer: "/a", Matched: 1, Absent: 1}},
				Emptied: []jsonmask.EmptiedPath{{Path: "", Count: 1}}},
		},
		{
			name: "EscapedKeys",
			mask: `a\/b/~c,é`,
			in:   `{"a\/b":{"\u007ec":1,"d":"CANARY"},"\u00e9":2}`,
			out:  `{"a\/b":{"\u007ec":1},"\u00e9":2}`,
			want: jsonmask.Explanation{Masked: true, Entries: []es{
				{Pointer: "/a~1b", Nested: true, Matched: 1},
				{Pointer: "/a~1b/~0c", Matched: 1},
				{Pointer: "/é", Matched: 1},
			}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := jsonmask.CompileFields(c.mask, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := m.Append(nil, []byte(c.in)); err != nil || string(out) != c.out {
				t.Fatalf("Append = %s, %v; want %s", out, err, c.out)
			}
			if bytes.Contains([]byte(c.out), []byte(canary)) {
				t.Fatalf("the canary is in the expected output")
			}
			got, err := m.Explain([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			want.BytesIn, want.BytesOut = int64(len(c.in)), int64(len(c.out))
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("Explain:\n got %+v\nwant %+v", *got, want)
			}
		})
	}
}

// TestExplainErrors checks that Explain fails where Append fails, with the
// same error.
func TestExplainErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []jsonmask.Option
		in   string
	}{
		{"Invalid", nil, `{"a":{"b":[1,}}`},
		{"DroppedInvalid", nil, `{"z":tru}`},
		{"Strict", []jsonmask.Option{jsonmask.WithStrict(true)}, `<html>`},
		{"TooDeep", []jsonmask.Option{jsonmask.WithMaxDepth(2)}, `{"a":{"b":{}}}`},
		{"NDJSONLine", []jsonmask.Option{jsonmask.WithNDJSON(true)}, "{\"a\":1}\n{\"a\":}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompileFields("a/b", c.opts...)
			_, want := m.Append(nil, []byte(c.in))
			x, err := m.Explain([]byte(c.in))
			if want == nil || err == nil || err.Error() != want.Error() || x != nil {
				t.Errorf("Explain = %v, %v; want the error %v", x, err, want)
			}
			ps, err := m.Paths([]byte(c.in))
			if err == nil || err.Error() != want.Error() || ps != nil {
				t.Errorf("Paths = %v, %v; want the error %v", ps, err, want)
			}
			var se *jsonmask.SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("Paths: %T, want a *SyntaxError", err)
			}
		})
	}
}

// TestExplainTrusted checks that Explain and Paths check the whole document
// even with WithTrustedInput, which lets Append skip a dropped value without
// checking it.
func TestExplainTrusted(t *testing.T) {
	m := jsonmask.MustCompileFields("a", jsonmask.WithTrustedInput(true))
	in := []byte(`{"a":1,"z":[01,tru]}`)
	if out, err := m.Append(nil, in); err != nil || string(out) != `{"a":1}` {
		t.Fatalf("Append = %s, %v", out, err)
	}
	var se *jsonmask.SyntaxError
	if _, err := m.Explain(in); !errors.As(err, &se) || se.Offset != 13 {
		t.Errorf("Explain: %v, want a *SyntaxError at offset 13", err)
	}
	if _, err := m.Paths(in); !errors.As(err, &se) || se.Offset != 13 {
		t.Errorf("Paths: %v, want a *SyntaxError at offset 13", err)
	}
}

// TestDiagnosticsAgreeWithAppend checks, on random documents, masks and
// options (NDJSON, byte-order marks, arrays, A6, wildcards), that Explain
// and Paths succeed wherever Append does and fail with its error where it
// fails, that Explain's BytesOut is Append's, and that the kept bytes Paths
// counts at the root are those of the output, line breaks aside.
func TestDiagnosticsAgreeWithAppend(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	g := newGen(33)
	checked := 0
	for iter := range n {
		ndjson := iter%3 == 0
		opts := []jsonmask.Option{jsonmask.WithNDJSON(ndjson), jsonmask.WithArrays(iter%4 == 1),
			jsonmask.WithDropMismatched(iter%5 == 2), jsonmask.WithWildcards(iter%2 == 0)}
		m, err := jsonmask.Compile(g.wildMask(2), opts...)
		if err != nil {
			t.Fatal(err)
		}
		var doc []byte
		for k := range 1 + iter%3*btoi(ndjson) {
			if k > 0 {
				doc = append(doc, '\n')
			}
			if g.rng.IntN(4) == 0 {
				doc = append(doc, "\xEF\xBB\xBF"...)
			}
			doc = append(doc, g.doc()...)
		}
		if iter%7 == 0 {
			doc = g.mutate(doc)
		}
		out, aerr := m.Append(nil, doc)
		x, xerr := m.Explain(doc)
		if (aerr == nil) != (xerr == nil) || aerr != nil && aerr.Error() != xerr.Error() {
			t.Fatalf("doc %q: Append: %v; Explain: %v", doc, aerr, xerr)
		}
		if aerr != nil {
			continue
		}
		if x.BytesOut != int64(len(out)) || x.BytesIn != int64(len(doc)) {
			t.Fatalf("doc %q: Explain says %d bytes in, %d out; Append %d, %d", doc, x.BytesIn, x.BytesOut, len(doc), len(out))
		}
		rows, perr := m.Paths(doc)
		if perr != nil {
			continue // a body that passes through and is not JSON
		}
		var rootKept int64
		for _, r := range rows {
			if r.Path == "" {
				rootKept = r.KeptBytes
			}
		}
		// A masked document's kept bytes are its output; a passed-through
		// one is kept whole, counted compact.
		want, docs, outs := 0, [][]byte{doc}, [][]byte{out}
		if ndjson {
			docs, outs = bytes.Split(doc, []byte("\n")), bytes.Split(out, []byte("\n"))
		}
		for k, d := range docs {
			d = bytes.TrimPrefix(d, []byte("\xEF\xBB\xBF"))
			var compact bytes.Buffer
			switch body := bytes.TrimLeft(d, " \t\r\n"); {
			case len(body) > 0 && (body[0] == '{' || body[0] == '[' && iter%4 == 1):
				want += len(outs[k])
			case json.Compact(&compact, d) == nil:
				want += compact.Len()
			}
		}
		if rootKept != int64(want) {
			t.Fatalf("doc %q: Paths keeps %d bytes at the root; the output %q has %d", doc, rootKept, out, want)
		}
		checked++
	}
	if checked < n/2 {
		t.Errorf("the root's kept bytes checked on %d inputs of %d", checked, n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
