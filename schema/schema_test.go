package schema_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/schema"
	"github.com/jsonmask/jsonmask/tokenizer"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compile compiles a schema with santhosh-tekuri/jsonschema, an independent
// validator, asserting formats, so that a wrong "format" fails.
func compile(t testing.TB, js []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, js)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v\n%s", err, js)
	}
	return s
}

func validate(t testing.TB, s *jsonschema.Schema, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("document is not JSON: %v", err)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("document does not validate: %v\ndocument: %.300s", err, doc)
	}
}

// infer reads docs, each split into windows of size w.
func infer(t testing.TB, w int, docs ...[]byte) *schema.Schema {
	t.Helper()
	var in schema.Inferrer
	for _, d := range docs {
		for i := 0; i < len(d); i += w {
			if _, err := in.Write(d[i:min(i+w, len(d))]); err != nil {
				t.Fatalf("Write: %v\n%s", err, d)
			}
		}
		if err := in.End(); err != nil {
			t.Fatalf("End: %v\n%s", err, d)
		}
	}
	return in.Schema()
}

func TestInfer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		docs    []string
		json    string
		compact string
	}{
		{"Scalars", []string{`{"s":"x","i":1,"f":1.5,"b":true,"n":null}`},
			`{"type":"object","properties":{"s":{"type":"string"},"i":{"type":"integer"},"f":{"type":"number"},"b":{"type":"boolean"},"n":{"type":"null"}},"required":["s","i","f","b","n"]}`,
			`{s: string; i: number; f: number; b: boolean; n: null}`},
		{"Required", []string{`{"a":1,"b":2}`, `{"b":3,"c":null}`},
			`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"null"}},"required":["b"]}`,
			`{a?: number; b: number; c?: null}`},
		{"DuplicateKeyCountsOnce", []string{`{"a":1,"a":2}`, `{"b":1}`},
			`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}`,
			`{a?: number; b?: number}`},
		{"Union", []string{`{"a":1}`, `{"a":"x"}`, `{"a":null}`, `{"a":1.5}`},
			`{"type":"object","properties":{"a":{"type":["string","number","null"]}},"required":["a"]}`,
			`{a: string | number | null}`},
		{"ItemsMerged", []string{`{"d":[{"id":1},{"id":2,"x":true},"s"]}`},
			`{"type":"object","properties":{"d":{"type":"array","items":{"type":["object","string"],"properties":{"id":{"type":"integer"},"x":{"type":"boolean"}},"required":["id"]}}},"required":["d"]}`,
			`{d: Array<{id: number; x?: boolean} | string>}`},
		{"EmptyArray", []string{`{"d":[]}`},
			`{"type":"object","properties":{"d":{"type":"array"}},"required":["d"]}`,
			`{d: Array<never>}`},
		{"Formats", []string{`{"t":"2024-01-02T03:04:05Z","d":"2024-02-29","u":"123e4567-e89b-12d3-a456-426614174000","e":"ana@example.com","w":"https://example.com/a?b=c"}`},
			`{"type":"object","properties":{"t":{"type":"string","format":"date-time"},"d":{"type":"string","format":"date"},"u":{"type":"string","format":"uuid"},"e":{"type":"string","format":"email"},"w":{"type":"string","format":"uri"}},"required":["t","d","u","e","w"]}`,
			`{t: string /*date-time*/; d: string /*date*/; u: string /*uuid*/; e: string /*email*/; w: string /*uri*/}`},
		{"FormatOnlyWhenEveryValueHasIt", []string{`["2024-01-02","2024-13-01"]`},
			`{"type":"array","items":{"type":"string"}}`, `Array<string>`},
		{"Enum", []string{`[` + strings.Repeat(`"open","closed",`, 6) + `null]`},
			`{"type":"array","items":{"type":["string","null"],"enum":["open","closed",null]}}`,
			`Array<"open" | "closed" | null>`},
		{"NoEnumWhenSeenFewTimes", []string{`["open","closed"]`},
			`{"type":"array","items":{"type":"string"}}`, `Array<string>`},
		{"EscapedKeys", []string{`{"\u0061":1,"a\"b":2,"\ud800":3}`},
			`{"type":"object","properties":{"a":{"type":"integer"},"a\"b":{"type":"integer"},"\ud800":{"type":"integer"}},"required":["a","a\"b","\ud800"]}`,
			`{a: number; "a\"b": number; "\ud800": number}`},
		// Control characters in keys: \n, \t, \b and \f short, as
		// internal/jsonwire writes every JSON string of the house, the
		// others as \u00XX.
		{"ControlKeys", []string{`{"a\nb":1,"\t\b\f\u0001\u001f":2}`},
			`{"type":"object","properties":{"a\nb":{"type":"integer"},"\t\b\f\u0001\u001f":{"type":"integer"}},"required":["a\nb","\t\b\f\u0001\u001f"]}`,
			`{"a\nb": number; "\t\b\f\u0001\u001f": number}`},
		{"ScalarRoot", []string{`12`}, `{"type":"integer"}`, `number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var docs [][]byte
			for _, d := range tc.docs {
				docs = append(docs, []byte(d))
			}
			for _, w := range []int{1, 3, 1 << 20} {
				s := infer(t, w, docs...)
				want := `{"$schema":"https://json-schema.org/draft/2020-12/schema",` + tc.json[1:]
				if got := string(s.JSON()); got != want {
					t.Fatalf("window %d: JSON\n got %s\nwant %s", w, got, want)
				}
				if got := s.Compact(0); got != tc.compact {
					t.Fatalf("window %d: Compact\n got %s\nwant %s", w, got, tc.compact)
				}
				sch := compile(t, s.JSON())
				for _, d := range docs {
					validate(t, sch, d)
				}
			}
		})
	}
}

func TestCaps(t *testing.T) {
	t.Run("Keys", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"o":{`)
		for i := range schema.MaxKeys + 1 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
		b.WriteString(`}}`)
		s := infer(t, 1<<20, []byte(b.String()))
		want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"o":{"description":"more than 256 keys: not described"}},"required":["o"]}`
		if got := string(s.JSON()); got != want {
			t.Fatalf("got %s", got)
		}
		if got := s.Compact(0); got != `{o: any}` {
			t.Fatalf("compact %s", got)
		}
		validate(t, compile(t, s.JSON()), []byte(b.String()))
	})
	t.Run("Depth", func(t *testing.T) {
		doc := []byte(strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40))
		s := infer(t, 7, doc)
		if !bytes.Contains(s.JSON(), []byte(`"description":"deeper than 32 levels: not described"`)) {
			t.Fatalf("no depth cut: %s", s.JSON())
		}
		if got := s.Depth(); got != schema.MaxDepth+1 {
			t.Fatalf("Depth %d", got)
		}
		validate(t, compile(t, s.JSON()), doc)
	})
	t.Run("CompactDepth", func(t *testing.T) {
		s := infer(t, 1<<20, []byte(`{"a":{"b":[{"c":1}]},"d":[1]}`))
		for depth, want := range map[int]string{
			1: `{…}`,
			2: `{a: {…}; d: Array<…>}`,
			3: `{a: {b: Array<…>}; d: Array<number>}`,
			0: `{a: {b: Array<{c: number}>}; d: Array<number>}`,
		} {
			if got := s.Compact(depth); got != want {
				t.Errorf("depth %d: got %s want %s", depth, got, want)
			}
		}
	})
}

// TestErrors checks the errors of a document that is not JSON, written in
// windows of every size: the message, and the *tokenizer.Error under it with
// the offset in the document (errors.As), and the cause it wraps (errors.Is).
func TestErrors(t *testing.T) {
	deep := strings.Repeat("[", tokenizer.DefaultMaxDepth+1)
	for _, tc := range []struct {
		name, doc, err string
		offset         int64
		cause          error
	}{
		{"Truncated", `{"a":`, "jsonmask: unexpected end of JSON input at offset 5", 5, nil},
		{"BadChar", `{"a":1,}`, "jsonmask: invalid character '}' looking for beginning of object key string at offset 7", 7, nil},
		{"Empty", ``, "jsonmask: unexpected end of JSON input at offset 0", 0, nil},
		{"Trailing", `{} x`, "jsonmask: invalid character 'x' after top-level value at offset 3", 3, nil},
		{"Deep", deep, "jsonmask: exceeded max depth 10000 at offset 10000", 10000, tokenizer.ErrMaxDepth},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range []int{1, 3, 1 << 20} {
				var in schema.Inferrer
				var err error
				for i := 0; i < len(tc.doc) && err == nil; i += w {
					_, err = in.Write([]byte(tc.doc[i:min(i+w, len(tc.doc))]))
				}
				if err == nil {
					err = in.End()
				}
				if err == nil || err.Error() != tc.err {
					t.Fatalf("window %d: got %v want %s", w, err, tc.err)
				}
				var te *tokenizer.Error
				if !errors.As(err, &te) || te.Offset != tc.offset {
					t.Errorf("window %d: no *tokenizer.Error at offset %d under %#v", w, tc.offset, err)
				}
				if tc.cause != nil && !errors.Is(err, tc.cause) {
					t.Errorf("window %d: errors.Is(%v) is false", w, tc.cause)
				}
				if _, again := in.Write([]byte(`{}`)); again != err {
					t.Fatalf("after an error, Write returned %v", again)
				}
			}
		})
	}
}

// TestCorpus infers the schema of real API responses and validates them.
func TestCorpus(t *testing.T) {
	for _, f := range []string{"conversation_items.json", "flow_document.json", "twitter.json", "citm_catalog.json", "github_events.json", "canada.json"} {
		t.Run(f, func(t *testing.T) {
			doc := corpus.File(t, f)
			s := infer(t, 32<<10, doc)
			validate(t, compile(t, s.JSON()), doc)
			if len(s.Compact(0)) == 0 {
				t.Fatal("empty rendering")
			}
		})
	}
}

// gen writes random documents whose values exercise every rule: unions,
// formats, enums, escapes, empty containers, duplicate keys.
type gen struct{ rng *rand.Rand }

var (
	genKeys    = []string{`"a"`, `"\u0061"`, `"b"`, `"id"`, `"é"`, `""`, `"a\"b"`, `"😋"`, `"\ud83d\ude0b"`, `"x/y"`, `"\ud800"`}
	genScalars = []string{`0`, `-0`, `1`, `-12.5E+3`, `1E400`, `10000000000000000999`, `3.14`, `true`, `false`, `null`,
		`""`, `"s"`, `"caf\u00e9"`, `"\"q\""`, `"名前"`, `"\ud800"`, `"open"`, `"closed"`, `"open"`,
		`"2024-01-02"`, `"2024-01-02T03:04:05.5+01:00"`, `"2024-02-30"`, `"123e4567-e89b-12d3-a456-426614174000"`,
		`"ana@example.com"`, `"a@b"`, `"https://example.com/p?q=1"`, `"http://x"`, `"ftp://example.com"`}
)

func (g *gen) value(b *strings.Builder, depth int) {
	switch n := g.rng.IntN(10); {
	case depth > 0 && n < 4:
		b.WriteByte('{')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(genKeys[g.rng.IntN(len(genKeys))])
			b.WriteString(" : ")
			g.value(b, depth-1)
		}
		b.WriteByte('}')
	case depth > 0 && n < 6:
		b.WriteString("[ ")
		for i := range g.rng.IntN(6) {
			if i > 0 {
				b.WriteString(",\n")
			}
			g.value(b, depth-1)
		}
		b.WriteByte(']')
	default:
		b.WriteString(genScalars[g.rng.IntN(len(genScalars))])
	}
}

// TestRandom checks that every random document validates against the schema
// inferred from it alone and from the whole set, at every window size.
func TestRandom(t *testing.T) {
	for seed := range uint64(200) {
		g := &gen{rand.New(rand.NewPCG(seed, 7))}
		var docs [][]byte
		for range 8 {
			var b strings.Builder
			g.value(&b, 5)
			docs = append(docs, []byte(b.String()))
		}
		w := 1 + int(seed%13)
		all := compile(t, infer(t, w, docs...).JSON())
		for _, d := range docs {
			validate(t, compile(t, infer(t, w, d).JSON()), d)
			validate(t, all, d)
		}
	}
}

// observer records what an Observer sees, to check the events.
type observer struct{ b strings.Builder }

func (o *observer) Begin(k schema.Kind)              { fmt.Fprintf(&o.b, "<%c", k) }
func (o *observer) Key(raw, text []byte, whole bool) { fmt.Fprintf(&o.b, " k%s=%q", raw, text) }
func (o *observer) Piece(p []byte, last bool) {
	o.b.Write(p)
	if last {
		o.b.WriteByte('|')
	}
}
func (o *observer) End(k schema.Kind) { fmt.Fprintf(&o.b, "%c>", k) }

func TestObserver(t *testing.T) {
	doc := []byte(`{"a\u0062":[1,"x\"y",true],"n":-1.5e3}`)
	want := `<{ ka\u0062="ab"<[<01|<"x\"y|<ttrue|]> kn="n"<0-1.5e3|}>`
	for w := 1; w <= len(doc); w++ {
		var in schema.Inferrer
		o := &observer{}
		in.SetObserver(o)
		infer := func(p []byte) {
			if _, err := in.Write(p); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < len(doc); i += w {
			infer(doc[i:min(i+w, len(doc))])
		}
		if err := in.End(); err != nil {
			t.Fatal(err)
		}
		if got := o.b.String(); got != want {
			t.Fatalf("window %d:\n got %s\nwant %s", w, got, want)
		}
	}
}

// quietObserver is the observer of TestObserver that does without members
// whose scalar values are shorter than quiet bytes.
type quietObserver struct {
	observer
	quiet int
}

func (o *quietObserver) Quiet() int { return o.quiet }

// TestQuietObserver checks that a QuietObserver misses only members whose
// values are scalars shorter than it asks, and only where the Inferrer reads
// them in a run: read whole, it sees exactly the rest; read a byte at a
// time (every member cut by a window), everything.
func TestQuietObserver(t *testing.T) {
	doc := []byte(`{"a\u0062":[1,"x\"y",true],"n":-1.5e3,"s":"long enough","o":{"t":true,"u":"xy"},"z":null}`)
	for _, tc := range []struct {
		window int
		want   string
	}{
		{len(doc), `<{ ka\u0062="ab"<[<01|<"x\"y|<ttrue|]> ks="s"<"long enough| ko="o"<{}>}>`},
		{1, `<{ ka\u0062="ab"<[<01|<"x\"y|<ttrue|]> kn="n"<0-1.5e3| ks="s"<"long enough| ko="o"<{ kt="t"<ttrue| ku="u"<"xy|}> kz="z"<nnull|}>`},
	} {
		var in schema.Inferrer
		o := &quietObserver{quiet: 7}
		in.SetObserver(o)
		for i := 0; i < len(doc); i += tc.window {
			if _, err := in.Write(doc[i:min(i+tc.window, len(doc))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := in.End(); err != nil {
			t.Fatal(err)
		}
		if got := o.b.String(); got != tc.want {
			t.Errorf("window %d:\n got %s\nwant %s", tc.window, got, tc.want)
		}
	}
}
