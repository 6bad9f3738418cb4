package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
)

// TestPaths checks the path table (SPEC D2) of a small document, row by row.
func TestPaths(t *testing.T) {
	in := `{"id": 7, "items": [{"id": 1, "blob": "CANARY-CANARY"}, {"id": 2, "blob": null, "x": [1, [2]]}],
		"owner": {"name": "ana", "pw": "CANARY"}, "a\/b": true, "e\u0301": 1E400}`
	m := jsonmask.MustCompileFields("id,items/id,owner/name,a\\/b")
	out, err := m.Append(nil, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Paths([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	total := int64(len(`{"id":7,"items":[{"id":1,"blob":"CANARY-CANARY"},{"id":2,"blob":null,"x":[1,[2]]}],"owner":{"name":"ana","pw":"CANARY"},"a\/b":true,"e\u0301":1E400}`))
	row := func(path string, count int64, types []string, bytes int64, mask string, kept int64) jsonmask.PathStats {
		return jsonmask.PathStats{Path: path, Count: count, Types: types, Bytes: bytes, Share: float64(bytes) / float64(total), Mask: mask, KeptBytes: kept}
	}
	obj, arr, str, num := []string{"object"}, []string{"array"}, []string{"string"}, []string{"number"}
	want := []jsonmask.PathStats{
		row("", 1, obj, total, "masked", int64(len(out))),
		row("/items", 1, arr, int64(len(`[{"id":1,"blob":"CANARY-CANARY"},{"id":2,"blob":null,"x":[1,[2]]}]`)), "masked", int64(len(`[{"id":1},{"id":2}]`))),
		row("/items/*", 2, obj, int64(len(`{"id":1,"blob":"CANARY-CANARY"}{"id":2,"blob":null,"x":[1,[2]]}`)), "masked", int64(len(`{"id":1}{"id":2}`))),
		row("/owner", 1, obj, int64(len(`{"name":"ana","pw":"CANARY"}`)), "masked", int64(len(`{"name":"ana"}`))),
		row("/items/*/blob", 2, []string{"string", "null"}, int64(len(`"CANARY-CANARY"null`)), "dropped", 0),
		row("/owner/pw", 1, str, 8, "dropped", 0),
		row("/items/*/x", 1, arr, int64(len(`[1,[2]]`)), "dropped", 0),
		row("/e\u0301", 1, num, 5, "dropped", 0), // sorted by bytes, then by path: "/e" before "/o"
		row("/owner/name", 1, str, 5, "kept", 5),
		row("/a~1b", 1, []string{"boolean"}, 4, "kept", 4),
		row("/items/*/x/*", 2, []string{"array", "number"}, 4, "dropped", 0),
		row("/items/*/id", 2, num, 2, "kept", 2),
		row("/id", 1, num, 1, "kept", 1),
		row("/items/*/x/*/*", 1, num, 1, "dropped", 0),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Paths:\n%s\nwant:\n%s", formatRows(got), formatRows(want))
	}
}

// TestPathsPassthrough checks that a body the mask does not apply to is
// listed as kept, since it passes through (SPEC B3), and that a body that is
// not JSON has no paths but an error.
func TestPathsPassthrough(t *testing.T) {
	m := jsonmask.MustCompileFields("a")
	got, err := m.Paths([]byte(`[{"b":1}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []jsonmask.PathStats{
		{Path: "", Count: 1, Types: []string{"array"}, Bytes: 9, Share: 1, Mask: "kept", KeptBytes: 9},
		{Path: "/*", Count: 1, Types: []string{"object"}, Bytes: 7, Share: 7.0 / 9, Mask: "kept", KeptBytes: 7},
		{Path: "/*/b", Count: 1, Types: []string{"number"}, Bytes: 1, Share: 1.0 / 9, Mask: "kept", KeptBytes: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Paths:\n%s\nwant:\n%s", formatRows(got), formatRows(want))
	}
	bom, err := m.Paths([]byte("\xEF\xBB\xBF\n{\"a\":1}"))
	if err != nil || len(bom) != 2 || bom[0].Bytes != 7 || bom[0].KeptBytes != 7 {
		t.Errorf("Paths after a byte-order mark = %v, %v", bom, err)
	}
	if got, err := m.Paths([]byte("")); err != nil || len(got) != 0 {
		t.Errorf("Paths of an empty body = %v, %v", got, err)
	}
	if got, err := m.Paths([]byte("<html>")); err == nil {
		t.Errorf("Paths of text = %v, want an error", got)
	}
}

// TestPathsCorpus checks the path table of every document of the benchmark
// corpus, with its first workload's mask, against an independent count: the
// document decoded with encoding/json, each value measured as its compact
// text (json.Compact). Kept bytes are checked the same way on the masked
// output, whose paths are the input's: masking keeps or drops values, and
// moves none.
func TestPathsCorpus(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range corpus.Workloads(t) {
		if seen[w.File] {
			continue // one mask per document: the counts of the input are the slow part
		}
		seen[w.File] = true
		t.Run(w.Name, func(t *testing.T) {
			doc := corpus.File(t, w.File)
			if testing.Short() && len(doc) > 150<<10 {
				t.Skip("a large document: not with -short")
			}
			m, err := jsonmask.Compile(w.Mask, jsonmask.WithArrays(w.Options.Arrays), jsonmask.WithNDJSON(w.Options.NDJSON))
			if err != nil {
				t.Fatal(err)
			}
			checkPaths(t, m, doc, w.Options.NDJSON)
		})
	}
}

// TestPathsRandom checks the path table of random documents and masks,
// wildcards and options included, against the independent count, as
// TestPathsCorpus does.
func TestPathsRandom(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	g := newGen(21)
	for iter := range n {
		doc := g.doc()
		maskJSON := g.wildMask(2)
		m, err := jsonmask.Compile(maskJSON, jsonmask.WithWildcards(iter%2 == 0),
			jsonmask.WithArrays(iter%3 == 0), jsonmask.WithDropMismatched(iter%5 == 0))
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(doc) || bytes.Contains(doc, []byte(`\ud800`)) {
			continue // encoding/json turns a lone surrogate into U+FFFD: keys would differ
		}
		if !checkPaths(t, m, doc, false) {
			t.Fatalf("mask %s (wildcards %v, opts %d) doc %s", maskJSON, iter%2 == 0, iter, doc)
		}
	}
}

// checkPaths compares m.Paths(doc) with independentPaths of doc and of its
// masked output, and reports whether they agree.
func checkPaths(t *testing.T, m *jsonmask.Mask, doc []byte, ndjson bool) bool {
	t.Helper()
	got, err := m.Paths(doc)
	if err != nil {
		t.Errorf("Paths: %v", err)
		return false
	}
	out, err := m.Append(nil, doc)
	if err != nil {
		t.Errorf("Append: %v", err)
		return false
	}
	in, err := independentPaths(doc, ndjson)
	if err != nil {
		return true // not JSON: Paths has nothing to compare with
	}
	kept, err := independentPaths(out, ndjson)
	if err != nil {
		t.Errorf("the masked output is not JSON: %v", err)
		return false
	}
	ok := true
	for _, r := range got {
		want := in[r.Path]
		switch {
		case want == nil:
			t.Errorf("path %q: not in the document", r.Path)
		case r.Count != want.count || r.Bytes != want.bytes || !slices.Equal(r.Types, want.typeList()):
			t.Errorf("path %q: count %d bytes %d types %v; encoding/json: %d %d %v", r.Path, r.Count, r.Bytes, r.Types, want.count, want.bytes, want.typeList())
		case r.KeptBytes != kept[r.Path].bytesOrZero():
			t.Errorf("path %q: %d bytes kept; %d in the output", r.Path, r.KeptBytes, kept[r.Path].bytesOrZero())
		case r.Mask == "dropped" && r.KeptBytes != 0, r.Mask == "kept" && r.KeptBytes != r.Bytes:
			t.Errorf("path %q: %s, but %d of %d bytes kept", r.Path, r.Mask, r.KeptBytes, r.Bytes)
		default:
			delete(in, r.Path)
			continue
		}
		ok = false
	}
	for p := range in {
		t.Errorf("path %q: missing", p)
		ok = false
	}
	if len(got) > 0 && got[0].Share != 1 && got[0].Path == "" {
		t.Errorf("the root's share is %v", got[0].Share)
		ok = false
	}
	for k := 1; k < len(got); k++ {
		if got[k-1].Bytes < got[k].Bytes {
			t.Errorf("not sorted by bytes: %q before %q", got[k-1].Path, got[k].Path)
			ok = false
		}
	}
	return ok
}

// pathCount is what independentPaths counts at one path.
type pathCount struct {
	count, bytes int64
	types        map[string]bool
}

func (c *pathCount) bytesOrZero() int64 {
	if c == nil {
		return 0
	}
	return c.bytes
}

func (c *pathCount) typeList() []string {
	var l []string
	for _, name := range []string{"object", "array", "string", "number", "boolean", "null"} {
		if c.types[name] {
			l = append(l, name)
		}
	}
	return l
}

// independentPaths counts the paths of doc (one JSON value, or with ndjson
// one per non-blank line) with encoding/json: every value measured as its
// compact text, every object read member by member so that duplicate keys
// count, by recursion.
func independentPaths(doc []byte, ndjson bool) (map[string]*pathCount, error) {
	counts := map[string]*pathCount{}
	var walk func(path string, raw json.RawMessage) error
	walk = func(path string, raw json.RawMessage) error {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return err
		}
		c := counts[path]
		if c == nil {
			c = &pathCount{types: map[string]bool{}}
			counts[path] = c
		}
		c.count++
		c.bytes += int64(buf.Len())
		switch raw[0] {
		case '{':
			c.types["object"] = true
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.Token()
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				var v json.RawMessage
				if err := dec.Decode(&v); err != nil {
					return err
				}
				ref := strings.NewReplacer("~", "~0", "/", "~1").Replace(key.(string))
				if err := walk(path+"/"+ref, v); err != nil {
					return err
				}
			}
		case '[':
			c.types["array"] = true
			var elems []json.RawMessage
			if err := json.Unmarshal(raw, &elems); err != nil {
				return err
			}
			for _, e := range elems {
				if err := walk(path+"/*", e); err != nil {
					return err
				}
			}
		case '"':
			c.types["string"] = true
		case 't', 'f':
			c.types["boolean"] = true
		case 'n':
			c.types["null"] = true
		default:
			c.types["number"] = true
		}
		return nil
	}
	docs := [][]byte{doc}
	if ndjson {
		docs = bytes.Split(doc, []byte("\n"))
	}
	for _, d := range docs {
		d = bytes.TrimSpace(bytes.TrimPrefix(d, []byte("\xEF\xBB\xBF")))
		if len(d) == 0 {
			continue
		}
		var raw json.RawMessage
		if err := json.Unmarshal(d, &raw); err != nil {
			return nil, err
		}
		if err := walk("", bytes.TrimSpace(raw)); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

func formatRows(rows []jsonmask.PathStats) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %+v\n", r)
	}
	return b.String()
}
