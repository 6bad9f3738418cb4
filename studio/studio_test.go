package studio

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

// canary is in a value of testdata/small.json that the masks of these tests
// drop: it must never be in what the server answers.
const canary = "SECRET-CANARY"

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newTestServer serves a Studio over a real loopback listener.
func newTestServer(t testing.TB, cfg Config) *httptest.Server {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config.Handler = s.Handler(ts.Listener.Addr().String())
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

func smallServer(t testing.TB) *httptest.Server {
	return newTestServer(t, Config{Samples: []Sample{{"small.json", readFile(t, "testdata/small.json")}}})
}

// post asks for a view and returns the status and the body.
func post(t testing.TB, ts *httptest.Server, req string) (int, []byte) {
	t.Helper()
	resp, err := ts.Client().Post(ts.URL+"/api/view", "application/json", strings.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// askView asks for a view that must succeed.
func askView(t testing.TB, ts *httptest.Server, req string) *view {
	t.Helper()
	status, body := post(t, ts, req)
	if status != http.StatusOK {
		t.Fatalf("POST %s: %d %s", req, status, body)
	}
	var v view
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	// Values are only ever in the output, which the tests compare with
	// Append's: the paths, tiles and warnings name keys, never values.
	if bytes.Count(body, []byte(canary)) != strings.Count(v.Output, canary) {
		t.Fatalf("the canary is in the answer to %s outside the output", req)
	}
	return &v
}

func rowOf(v *view, path string) *row {
	for _, r := range v.Rows {
		if r.Path == path {
			return r
		}
	}
	return nil
}

func TestFirstView(t *testing.T) {
	ts := smallServer(t)
	v := askView(t, ts, `{}`)
	if v.Mask != `{}` || v.Output != "{}\n" {
		t.Errorf("mask %s, output %q; want {} and {}", v.Mask, v.Output)
	}
	var paths []string
	for _, r := range v.Rows {
		paths = append(paths, r.Path)
	}
	if got, want := strings.Join(paths, " "), "/data /object /has_more"; got != want {
		t.Errorf("rows %s, want %s (the root's children, heaviest first)", got, want)
	}
	if r := rowOf(v, "/data"); r.Mask != "dropped" || !r.HasChildren || r.Tokens != nil {
		t.Errorf("/data: %+v", r)
	}
	if len(v.Warnings) != 1 || v.Warnings[0].Kind != "emptied" || v.Warnings[0].Path != "" {
		t.Errorf("warnings %+v, want the root emptied", v.Warnings)
	}
	if len(v.Tiles) != 3 || v.MapBy != "bytes" {
		t.Errorf("%d tiles by %s, want 3 by bytes", len(v.Tiles), v.MapBy)
	}
}

// TestClicks makes the edits the page's buttons make and checks the mask,
// its text form and the output against the library's.
func TestClicks(t *testing.T) {
	ts := smallServer(t)
	doc := readFile(t, "testdata/small.json")
	steps := []struct {
		path, action string
		mask, fields string
	}{
		{"/object", "keep", `{"object":true}`, "object"},
		{"/data", "mask", `{"object":true,"data":{}}`, ""},
		{"/data/*/id", "keep", `{"object":true,"data":{"id":true}}`, "object,data/id"},
		{"/data/*/meta", "keep", `{"object":true,"data":{"id":true,"meta":true}}`, "object,data(id,meta)"},
		{"/data/*/meta/y", "drop", `{"object":true,"data":{"id":true,"meta":{"x":true}}}`, "object,data(id,meta/x)"},
		{"/data/*/content/*/type", "keep", `{"object":true,"data":{"id":true,"meta":{"x":true},"content":{"type":true}}}`, "object,data(id,meta/x,content/type)"},
		{"/data/*/meta", "drop", `{"object":true,"data":{"id":true,"content":{"type":true}}}`, "object,data(id,content/type)"},
		{"/data/*/content/*/text", "drop", `{"object":true,"data":{"id":true,"content":{"type":true}}}`, "object,data(id,content/type)"},
		{"/has_more/x", "drop", `{"object":true,"data":{"id":true,"content":{"type":true}}}`, "object,data(id,content/type)"},
	}
	mask := "null"
	for _, st := range steps {
		v := askView(t, ts, `{"mask":`+mask+`,"edit":{"path":"`+st.path+`","action":"`+st.action+`"},"open":["/data","/data/*"]}`)
		if v.Mask != st.mask || v.Fields != st.fields {
			t.Fatalf("%s %s: mask %s fields %q, want %s %q", st.action, st.path, v.Mask, v.Fields, st.mask, st.fields)
		}
		want, err := jsonmask.MustCompile(st.mask).Append(nil, doc)
		if err != nil {
			t.Fatal(err)
		}
		if v.Output != string(want)+"\n" {
			t.Fatalf("%s %s: output %s, want %s", st.action, st.path, v.Output, want)
		}
		mask = v.Mask
	}
}

// TestOpenKeptWhole: dropping a path below one kept whole opens it into
// its children (the heaviest first), kept each, less the one dropped.
func TestOpenKeptWhole(t *testing.T) {
	ts := smallServer(t)
	v := askView(t, ts, `{"mask":{"data":true},"edit":{"path":"/data/*/content","action":"drop"}}`)
	if want := `{"data":{"meta":true,"type":true,"id":true}}`; v.Mask != want {
		t.Errorf("mask %s, want %s", v.Mask, want)
	}
	v = askView(t, ts, `{"mask":{"data":true},"edit":{"path":"/data","action":"mask"}}`)
	if want := `{"data":{"content":true,"meta":true,"type":true,"id":true}}`; v.Mask != want {
		t.Errorf("into a kept path: mask %s, want %s", v.Mask, want)
	}
}

// TestEditWildcard: a path that a wildcard keeps is edited alone once the
// wildcard is made explicit.
func TestEditWildcard(t *testing.T) {
	ts := smallServer(t)
	v := askView(t, ts, `{"mask":{"*":true},"edit":{"path":"/data","action":"drop"}}`)
	if want := `{"object":true,"has_more":true}`; v.Mask != want {
		t.Errorf("drop under a wildcard: mask %s, want %s", v.Mask, want)
	}
	v = askView(t, ts, `{"mask":{"data":{"*":true},"object":true},"edit":{"path":"/data/*/meta/x","action":"drop"}}`)
	if want := `{"data":{"content":true,"meta":{"y":true},"type":true,"id":true},"object":true}`; v.Mask != want {
		t.Errorf("drop below a wildcard: mask %s, want %s", v.Mask, want)
	}
}

func TestWarnings(t *testing.T) {
	ts := smallServer(t)
	v := askView(t, ts, `{"mask":{"data":{"meta":{}, "nope":true, "id":{"x":true}}},"open":["/data","/data/*"]}`)
	got := map[string]string{}
	for _, w := range v.Warnings {
		got[w.Kind+" "+w.Path] = w.Text
	}
	for _, want := range []string{"emptied /data/*/meta", "unmatched /data/nope", "scalars /data/id"} {
		if got[want] == "" {
			t.Errorf("no warning %q in %v", want, got)
		}
	}
	if r := rowOf(v, "/data/*/meta"); r == nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "2 objects") {
		t.Errorf("/data/*/meta row: %+v, want the {} warning beside it", r)
	}
	if r := rowOf(v, "/data/*/id"); r == nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "scalar") {
		t.Errorf("/data/*/id row: %+v, want the scalars warning beside it", r)
	}
	if v.FieldsNote == "" || v.Fields != "" {
		t.Errorf("fields %q note %q: a mask with {} has no text form", v.Fields, v.FieldsNote)
	}
}

// TestTokens checks the counts against the library's: toolresult's
// tokenizer over the sample and over what Append makes of it, and over the
// compact text of the values at a path.
func TestTokens(t *testing.T) {
	ts := smallServer(t)
	doc := readFile(t, "testdata/small.json")
	v := askView(t, ts, `{"mask":{"data":{"id":true}},"open":["/data","/data/*"],"tokens":true}`)
	tk, err := toolresult.NewTokenizer(toolresult.DefaultEncoding)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := jsonmask.MustCompile(`{"data":{"id":true}}`).Append(nil, doc)
	if *v.TokensIn != int64(tk.Count(doc, -1)) || *v.TokensOut != int64(tk.Count(out, -1)) {
		t.Errorf("tokens %d -> %d, want %d -> %d", *v.TokensIn, *v.TokensOut, tk.Count(doc, -1), tk.Count(out, -1))
	}
	meta := int64(tk.Count([]byte(`{"x":1,"y":[1,2]}`), -1) + tk.Count([]byte(`{"x":2,"y":[]}`), -1))
	if r := rowOf(v, "/data/*/meta"); r == nil || r.Tokens == nil || *r.Tokens != meta {
		t.Errorf("/data/*/meta: %+v, want %d tokens", r, meta)
	}
	if v.MapBy != "tokens" || *v.Saved <= 0 {
		t.Errorf("map by %s, saved %v", v.MapBy, *v.Saved)
	}
}

func TestFieldsAndBadMasks(t *testing.T) {
	ts := smallServer(t)
	v := askView(t, ts, `{"fields":"data(id, content/type)"}`)
	if want := `{"data":{"id":true,"content":{"type":true}}}`; v.Mask != want {
		t.Errorf("fields: mask %s, want %s", v.Mask, want)
	}
	for _, req := range []string{
		`{"fields":"data("}`,
		`{"mask":{"a":false}}`,
		`{"mask":[1]}`,
		`{"mask":{"a":true,"a":true}}`,
		`{"mask":{},"edit":{"path":"/data","action":"explode"}}`,
		`{"mask":{},"nope":1}`,
		`not json`,
	} {
		status, body := post(t, ts, req)
		var e struct{ Error string }
		if status != http.StatusBadRequest || json.Unmarshal(body, &e) != nil || e.Error == "" {
			t.Errorf("%s: %d %s, want 400 with an error", req, status, body)
		}
	}
}

// TestSamples: an array root and NDJSON are read and their paths merged
// with an object's.
func TestSamples(t *testing.T) {
	ts := newTestServer(t, Config{Samples: []Sample{
		{"obj.json", []byte(`{"id":1,"tags":["a"]}`)},
		{"arr.json", []byte(`[{"id":2,"x":true},{"id":3}]`)},
		{"lines.ndjson", []byte("{\"id\":4}\n\n{\"id\":5,\"x\":false}\n")},
	}, Mask: []byte(`{"id":true}`)})
	v := askView(t, ts, `{"open":["/*"],"tokens":true}`)
	if r := rowOf(v, "/id"); r == nil || r.Count != 3 || r.Mask != "kept" {
		t.Errorf("/id: %+v, want 3 (1 of obj.json, 2 of lines.ndjson), kept", r)
	}
	if r := rowOf(v, "/*/id"); r == nil || r.Count != 2 || r.Entry != "/id" {
		t.Errorf("/*/id: %+v", r)
	}
	if want := "{\"id\":1}\n[{\"id\":2},{\"id\":3}]\n{\"id\":4}\n\n{\"id\":5}\n"; v.Output != want {
		t.Errorf("output %q, want %q", v.Output, want)
	}
	if len(v.Samples) != 3 || !v.Samples[2].NDJSON || v.Samples[1].NDJSON {
		t.Errorf("samples %+v", v.Samples)
	}
	if _, err := New(Config{Samples: []Sample{{"bad", []byte(`{"a":`)}}}); err == nil {
		t.Error("New took a sample that is not JSON")
	}
	if _, err := New(Config{Samples: []Sample{{"a", []byte(`{}`)}}, Encoding: "nope"}); err == nil {
		t.Error("New took an unknown encoding")
	}
}

func TestOutputCap(t *testing.T) {
	big := `{"s":"` + strings.Repeat("é", outputCap) + `"}`
	ts := newTestServer(t, Config{Samples: []Sample{{"big", []byte(big)}}, Mask: []byte(`{"s":true}`)})
	v := askView(t, ts, `{}`)
	if len(v.Output) > outputCap || v.OutputMore != int64(len(big)+1-len(v.Output)) || !strings.HasPrefix(big, v.Output) {
		t.Errorf("output of %d bytes, %d more", len(v.Output), v.OutputMore)
	}
}

// TestLoadedMaskOpens: a mask given to the studio opens the paths it
// recurses into, so that its choices show at the first view.
func TestLoadedMaskOpens(t *testing.T) {
	ts := newTestServer(t, Config{Samples: []Sample{{"small.json", readFile(t, "testdata/small.json")}},
		Mask: []byte(`{"data":{"meta":{"x":true}}}`)})
	v := askView(t, ts, `{}`)
	if got, want := strings.Join(v.Open, " "), "/data /data/* /data/*/meta"; got != want {
		t.Errorf("open %q, want %q", got, want)
	}
	if r := rowOf(v, "/data/*/meta/x"); r == nil || r.Mask != "kept" {
		t.Errorf("/data/*/meta/x: %+v, want it shown, kept", r)
	}
	v = askView(t, ts, `{"open":[]}`)
	if len(v.Rows) != 3 {
		t.Errorf("%d rows with nothing open, want the root's 3 children", len(v.Rows))
	}
}

// TestEscapedKeys: keys that JSON Pointer escapes ("/", "~"), that the text
// syntax escapes, and that are not ASCII, are edited by their paths.
func TestEscapedKeys(t *testing.T) {
	ts := newTestServer(t, Config{Samples: []Sample{{"k.json", []byte(`{"a/b":{"c~d":1,"e,f":2},"\u00e9\"q":[{"x(y)":3}]}`)}}})
	v := askView(t, ts, `{"mask":{},"edit":{"path":"/a~1b/c~0d","action":"keep"}}`)
	v = askView(t, ts, `{"mask":`+v.Mask+`,"edit":{"path":"/é\"q/*/x(y)","action":"keep"}}`)
	if want := `{"a/b":{"c~d":true},"é\"q":{"x(y)":true}}`; v.Mask != want {
		t.Errorf("mask %s, want %s", v.Mask, want)
	}
	if want := `a\/b/c~d,é"q/x\(y\)`; v.Fields != want {
		t.Errorf("fields %s, want %s", v.Fields, want)
	}
	if want := `{"a/b":{"c~d":1},"\u00e9\"q":[{"x(y)":3}]}` + "\n"; v.Output != want { // keys as written
		t.Errorf("output %s, want %s", v.Output, want)
	}
}

// TestConcurrentViews: views asked at once share the counts (run it with
// -race).
func TestConcurrentViews(t *testing.T) {
	ts := smallServer(t)
	want := askView(t, ts, `{"mask":{"data":{"id":true}},"open":["/data","/data/*"],"tokens":true}`)
	errs := make(chan string, 8)
	for i := range 8 {
		go func() {
			req := `{"mask":{"data":{"id":true}},"open":["/data","/data/*"],"tokens":true,"edit":{"path":"/object","action":"` +
				[]string{"keep", "drop"}[i%2] + `"}}`
			resp, err := ts.Client().Post(ts.URL+"/api/view", "application/json", strings.NewReader(req))
			if err != nil {
				errs <- err.Error()
				return
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			var v view
			switch {
			case err != nil || resp.StatusCode != 200 || json.Unmarshal(body, &v) != nil:
				errs <- string(body)
			case *v.TokensIn != *want.TokensIn || len(v.Rows) != len(want.Rows):
				errs <- "a concurrent view differs"
			default:
				errs <- ""
			}
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
