package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"testing"
)

// TestPeersAgree proves that every masker does the same work as jsonmask on
// every workload: its output, decoded, equals jsonmask's, decoded (line by
// line for NDJSON). Peers may differ in form (key order, escapes) but not in
// content. jsonmask's other modes must give exactly the same bytes (SPEC V4,
// S1). The limits must accept every workload, or their benchmark would fail.
// Each masker runs twice, as in the benchmark, to check that its reused state
// does not leak from one body into the next.
func TestPeersAgree(t *testing.T) {
	workloads, err := LoadWorkloads(testdataDir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range workloads {
		w := &workloads[i]
		doc, err := w.Input(testdataDir)
		if err != nil {
			t.Fatal(err)
		}
		refs := mustMask(t, impls[0], w, doc)
		ref := refs[0]
		if !bytes.Equal(refs[0], refs[1]) {
			t.Errorf("%s: jsonmask's second run differs from its first at byte %d", w.Name, firstDiff(refs[0], refs[1]))
		}
		if !isMasked(doc, w.Options.Arrays) && !w.Options.NDJSON {
			t.Errorf("%s: the body is not masked: the workload measures nothing", w.Name)
		}
		for _, im := range impls[1:] {
			t.Run(w.benchName()+"/"+im.name, func(t *testing.T) {
				for run, out := range mustMask(t, im, w, doc) {
					switch {
					case !im.masks:
						// A limit: accepting the body is all that is asked of it.
					case im.name == "jsonmask-trusted" || im.name == "jsonmask-stream":
						if !bytes.Equal(out, ref) {
							t.Errorf("run %d: output differs from jsonmask's at byte %d", run+1, firstDiff(out, ref))
						}
					case w.Options.NDJSON:
						assertSameLines(t, out, ref, im.name)
					default:
						assertSameJSON(t, out, ref, im.name)
					}
				}
			})
		}
	}
}

// mustMask runs a fresh masker of im on doc twice and returns both outputs.
// They need not be equal byte for byte: maskers that go through a Go map
// write its keys in random order.
func mustMask(t *testing.T, im impl, w *Workload, doc []byte) [2][]byte {
	t.Helper()
	m, err := im.new(w)
	if errors.Is(err, errUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	first, err := m.Mask(nil, doc)
	if err != nil {
		t.Fatalf("%s on %s: %v", im.name, w.Name, err)
	}
	first = bytes.Clone(first)
	// Reuse a dirty buffer, as the benchmark does.
	second, err := m.Mask(bytes.Repeat([]byte{'#'}, 64)[:0], doc)
	if err != nil {
		t.Fatalf("%s on %s, second run: %v", im.name, w.Name, err)
	}
	return [2][]byte{first, second}
}

func assertSameLines(t *testing.T, got, want []byte, name string) {
	t.Helper()
	g, w := bytes.Split(got, []byte{'\n'}), bytes.Split(want, []byte{'\n'})
	if len(g) != len(w) {
		t.Fatalf("got %d lines, jsonmask gave %d", len(g), len(w))
	}
	for i := range g {
		if len(g[i]) == 0 && len(w[i]) == 0 {
			continue // an empty line, or the end after the last '\n'
		}
		if !sameJSON(t, g[i], w[i], name) {
			t.Fatalf("line %d: output differs from jsonmask's:\n got: %.300s\nwant: %.300s", i+1, g[i], w[i])
		}
	}
}

func assertSameJSON(t *testing.T, got, want []byte, name string) {
	t.Helper()
	if !sameJSON(t, got, want, name) {
		t.Fatalf("output differs from jsonmask's:\n got: %.300s\nwant: %.300s", got, want)
	}
}

// sameJSON reports whether a and b decode to the same value. Numbers are
// compared by their spelling (UseNumber), which every masker keeps but
// simdjson-go: its tape holds numbers, not their text, so its numbers are
// compared by value (as float64).
func sameJSON(t *testing.T, a, b []byte, name string) bool {
	t.Helper()
	spelling := name != "simdjson-go"
	va, err := decodeJSON(a, spelling)
	if err != nil {
		t.Fatalf("output is not JSON: %v: %.300s", err, a)
	}
	vb, err := decodeJSON(b, spelling)
	if err != nil {
		t.Fatalf("jsonmask's output is not JSON: %v: %.300s", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

func decodeJSON(data []byte, spelling bool) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if spelling {
		dec.UseNumber()
	}
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailingData
	}
	return v, nil
}

// firstDiff returns the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// TestValidLimitsReject proves that jsonmask-valid validates, as jsonmask
// does: it rejects each body that jsonmask rejects, so that its figure is that
// of a whole check, not of a quicker pass. The bad bytes sit in a value the
// mask drops, or after the body's end, where a skip could miss them.
// (sonic-valid is sonic's to check: it accepts a control byte or an unknown
// escape in a string, and does not check UTF-8.)
func TestValidLimitsReject(t *testing.T) {
	bad := []string{
		`{"a":1`,
		`{"a":1}x`,
		`{"a":1} {"b":2}`,
		"{\"a\":[1,2,{\"b\":\"c\x01\"}]}",
		"{\"a\":[1,2,{\"b\":\"\xff\"}]}",
		`{"a":[1,2,{"b":"\q"}]}`,
		`{"a":[1,2,{"b":"\u12g4"}]}`,
		`{"a":[1,2,{"b":01}]}`,
		`{"a":[1,2,{"b":1.}]}`,
		`{"a":[1,2,{"b":tru}]}`,
		`{"a":[1,2,{"b" 1}]}`,
		`{"a":[1,2,{"b":1,}]}`,
		`{"a":[1,2,]}`,
		`{"a":[1,2}}`,
	}
	w := &Workload{Name: "reject", Mask: json.RawMessage(`{"z":true}`)}
	for _, name := range []string{"jsonmask", "jsonmask-valid"} {
		i := slices.IndexFunc(impls, func(im impl) bool { return im.name == name })
		m, err := impls[i].new(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range bad {
			if _, err := m.Mask(nil, []byte(doc)); err == nil {
				t.Errorf("%s accepts %q", name, doc)
			}
			if _, err := m.Mask(nil, []byte(`{"a":[1,{"b":"c\u00e9"}], "z" : [true,null]} `)); err != nil {
				t.Errorf("%s rejects a valid body after %q: %v", name, doc, err)
			}
		}
	}
}
