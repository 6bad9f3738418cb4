package toolresult_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

// TestJSONStrings: with WithJSONStrings, a string at any depth that holds
// JSON text of at least 1 KiB is read as that JSON (SPEC C11, P3), after the
// mask; anything else passes as it was, byte for byte, in windows of every
// size.
func TestJSONStrings(t *testing.T) {
	inner, _ := json.Marshal(map[string]any{"rows": strings.Split(strings.Repeat("row,", 300), ",")})
	in := string(inner)
	small := `{"a":1}`
	nested := `{"id":2,"doc":` + jstr(in) + `}`
	for _, tc := range []struct {
		name, body, want string
		mask             string
	}{
		{"Member", `{"path":"a.json","content":` + jstr(in) + `}`, `{"path":"a.json","content":` + in + `}`, ""},
		{"Deep", `{"a":[{"b":` + jstr(in) + `}],"c":1}`, `{"a":[{"b":` + in + `}],"c":1}`, ""},
		{"Spaced", `{"a":` + jstr("\n  "+in+"\n") + `}`, `{"a":` + in + `}`, ""},
		{"Nested", `{"x":` + jstr(nested+strings.Repeat(" ", 10)) + `}`, `{"x":{"id":2,"doc":` + in + `}}`, ""},
		{"Short", `{"a":` + jstr(small) + `}`, `{"a":` + jstr(small) + `}`, ""},
		{"Invalid", `{"a":` + jstr(in[:len(in)-1]) + `}`, `{"a":` + jstr(in[:len(in)-1]) + `}`, ""},
		{"Prose", `{"a":` + jstr("Rows: "+in) + `}`, `{"a":` + jstr("Rows: "+in) + `}`, ""},
		{"Key", `{` + jstr(in) + `:1}`, `{` + jstr(in) + `:1}`, ""},
		{"Masked", `{"secret":"` + canary + `","content":` + jstr(in) + `,"more":` + jstr(`{"s":"`+canary+strings.Repeat(" ", 1100)+`"}`) + `}`, `{"content":` + in + `}`, `{"content":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []toolresult.Option{toolresult.WithJSONStrings(true), toolresult.WithBudget(1 << 20)}
			if tc.mask != "" {
				m, err := jsonmask.Compile([]byte(tc.mask))
				if err != nil {
					t.Fatal(err)
				}
				opts = append(opts, toolresult.WithMask(m))
			}
			p, err := toolresult.New(append(opts, toolresult.WithStore(&toolresult.MemStore{}))...)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 2, 3, 7, 64, 1000, 1 << 20} {
				res, err := p.Process(ctx, &chunked{b: []byte(tc.body), n: n})
				if err != nil {
					t.Fatal(err)
				}
				if string(res.Content) != tc.want || res.Route != toolresult.Passthrough {
					t.Fatalf("chunks of %d: %s\n%.300s\nwant\n%.300s", n, res.Route, res.Content, tc.want)
				}
				if bytes.Contains(res.Content, []byte(canary)) {
					t.Fatal("a dropped value got through")
				}
				if strings.Contains(tc.want, in) && len(res.Hints) > 0 {
					t.Fatalf("a string read as JSON is still hinted: %+v", res.Hints)
				}
			}
		})
	}
	t.Run("Variable", func(t *testing.T) {
		body := []byte(`{"path":"a.json","content":` + jstr(in) + `}`)
		res, st := process(t, body, toolresult.WithJSONStrings(true), toolresult.WithBudget(400))
		if res.Route != toolresult.Variable || !strings.Contains(res.Text, "rows") {
			t.Fatalf("%s: %s", res.Route, res.Text)
		}
		r, _, err := st.Open(res.Variable.Name)
		if err != nil {
			t.Fatal(err)
		}
		stored, _ := io.ReadAll(r)
		if want := `{"path":"a.json","content":` + in + `}`; string(stored) != want {
			t.Fatalf("stored %.200s", stored)
		}
	})
	t.Run("Off", func(t *testing.T) {
		body := `{"content":` + jstr(in) + `}`
		res, _ := process(t, []byte(body), toolresult.WithBudget(1<<20))
		if string(res.Content) != body || len(res.Hints) != 1 {
			t.Fatalf("%.200s %+v", res.Content, res.Hints)
		}
	})
	t.Run("NotJSON", func(t *testing.T) {
		for _, body := range []string{jstr(in), `{"a":` + jstr(in), "not JSON " + jstr(in), `{"a":` + jstr(in) + `}}`} {
			res, _ := process(t, []byte(body), toolresult.WithJSONStrings(true), toolresult.WithBudget(1<<20))
			if string(res.Content) != body || res.Route != toolresult.Plaintext {
				t.Fatalf("%s %.200s", res.Route, res.Content)
			}
		}
	})
}

// chunked reads b n bytes at a time.
type chunked struct {
	b []byte
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[n:]
	return n, nil
}

// FuzzJSONStrings: with WithJSONStrings, a body reaches the same route as
// without, and its data is the same JSON once strings holding JSON are
// decoded; what is not JSON passes byte for byte.
func FuzzJSONStrings(f *testing.F) {
	inner := `{"rows":[` + strings.Repeat(`"row",`, 200) + `"x"]}`
	for _, s := range []string{`{"a":` + jstr(inner) + `}`, `[` + jstr(inner) + `,1]`, `{"a":` + jstr(" "+inner+"x") + `}`, `{"a":"b"}`, `not json`, `{"a":` + jstr(`{"b":`+jstr(inner)+`}`+strings.Repeat(" ", 1000)) + `}`,
		// Cut inside a token, and numbers at the end (hunt5: the loop of 82a3678).
		`{"a":"{ \"ab`, `{"a":"b\`, `[1, tru`, `1`, ` 1`, `{"a":-`} {
		f.Add([]byte(s), uint16(7))
	}
	p, err := toolresult.New(toolresult.WithJSONStrings(true), toolresult.WithBudget(0), toolresult.WithStore(&toolresult.MemStore{}))
	if err != nil {
		f.Fatal(err)
	}
	off, _ := toolresult.New(toolresult.WithBudget(0), toolresult.WithStore(&toolresult.MemStore{}))
	f.Fuzz(func(t *testing.T, body []byte, n uint16) {
		res, err := p.Process(ctx, &chunked{b: body, n: 1 + int(n)})
		ref, rerr := off.Process(ctx, bytes.NewReader(body))
		if (err != nil) != (rerr != nil) {
			t.Fatalf("error %v, without %v", err, rerr)
		}
		if err != nil {
			return
		}
		if res.Route != ref.Route {
			t.Fatalf("route %s, without %s", res.Route, ref.Route)
		}
		if res.Route == toolresult.Plaintext {
			if !bytes.Equal(res.Content, ref.Content) {
				t.Fatalf("plaintext changed: %q -> %q", ref.Content, res.Content)
			}
			return
		}
		if !json.Valid(res.Content) {
			t.Fatalf("not JSON: %q", res.Content)
		}
	})
}
