package toolresult

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/corpus"
)

// gojqNumber is how gojq reads a number literal (its parseNumber): the
// oracle the decoder's numbers are checked against.
func gojqNumber(n json.Number) any {
	if i, err := n.Int64(); err == nil && math.MinInt <= i && i <= math.MaxInt {
		return int(i)
	}
	if strings.ContainsAny(n.String(), ".eE") {
		if f, err := n.Float64(); err == nil {
			return f
		}
	}
	if b, ok := new(big.Int).SetString(n.String(), 10); ok {
		return b
	}
	if strings.HasPrefix(n.String(), "-") {
		return math.Inf(-1)
	}
	return math.Inf(1)
}

// stdDecode decodes b with encoding/json, numbers as gojq reads them.
func stdDecode(b []byte) (any, error) {
	if !json.Valid(b) {
		return nil, errors.New("invalid JSON")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v), nil
}

func convertNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		return gojqNumber(v)
	case []any:
		for i := range v {
			v[i] = convertNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = convertNumbers(v[k])
		}
	}
	return v
}

func TestDecodeValue(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     any
	}{
		{"Int", `42`, 42},
		{"NegativeInt", `-7`, -7},
		{"NegativeZero", `-0`, 0},
		{"MaxInt64", `9223372036854775807`, math.MaxInt64},
		{"MinInt64", `-9223372036854775808`, math.MinInt64},
		{"PastInt64", `9223372036854775808`, new(big.Int).Lsh(big.NewInt(1), 63)},
		{"Float", `1.5`, 1.5},
		{"Exponent", `1e3`, 1000.0},
		{"IntWithExponent", `10E-1`, 1.0},
		{"Inf", `1e400`, math.Inf(1)},
		{"NegInf", `-1e400`, math.Inf(-1)},
		{"String", `"abc"`, "abc"},
		{"Escapes", `"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"`, "a\"b\\c/d\b\f\n\r\té😀"},
		{"LoneSurrogate", `"\ud800x"`, "\uFFFDx"},
		{"LoneLowSurrogate", `"\udc00"`, "\uFFFD"},
		{"HighThenNonLow", `"\ud800\u0041"`, "\uFFFDA"},
		{"LowThenHigh", `"\udc00\ud800"`, "\uFFFD\uFFFD"},
		{"HighThenPair", `"\ud800\ud83d\ude00"`, "\uFFFD😀"},
		{"PairAtEnd", `["x\ud83d\ude00"]`, []any{"x😀"}},
		{"LoneAtEnd", `["x\udbff"]`, []any{"x\uFFFD"}},
		{"EscapeFirstAndLast", `"\tx\\"`, "\tx\\"},
		{"SurrogatesInKeys", `{"\ud83d\ude00":1,"\ud800":2,"k\n":3}`, map[string]any{"😀": 1, "\uFFFD": 2, "k\n": 3}},
		{"Literals", `[true,false,null]`, []any{true, false, nil}},
		{"Object", ` {"a": {"b": [1, "x"]}, "c": {}} `, map[string]any{"a": map[string]any{"b": []any{1, "x"}}, "c": map[string]any{}}},
		{"DuplicateKeyLastWins", `{"a":1,"a":2}`, map[string]any{"a": 2}},
		{"EscapedKey", `{"\u0061":1}`, map[string]any{"a": 1}},
		{"EmptyArray", `[[],[[]]]`, []any{[]any{}, []any{[]any{}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeValue([]byte(tc.in), 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
			std, err := stdDecode([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, std) {
				t.Fatalf("encoding/json and gojq's numbers give %#v", std)
			}
		})
	}
}

func TestDecodeValueErrors(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"Empty", ``},
		{"Space", `  `},
		{"Truncated", `{"a":[1,2`},
		{"TruncatedString", `"abc`},
		{"Quote", `"`},
		{"TruncatedLiteral", `tru`},
		{"Trailing", `{} {}`},
		{"TrailingComma", `[1,]`},
		{"BadEscape", `"\x"`},
		{"NumberThenGarbage", `12a`},
		{"Minus", `-`},
		{"TooDeep", strings.Repeat("[", 20) + strings.Repeat("]", 20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := decodeValue([]byte(tc.in), 10)
			if err == nil {
				t.Fatalf("no error, got %#v", v)
			}
			if strings.Contains(err.Error(), tc.in) && len(tc.in) > 2 {
				t.Fatalf("the error quotes the input: %v", err)
			}
		})
	}
}

// TestDecodeValueCorpus decodes the corpus and JSONTestSuite's accepted
// documents as encoding/json does.
func TestDecodeValueCorpus(t *testing.T) {
	for _, w := range corpus.Workloads(t) {
		if w.Options.NDJSON {
			continue
		}
		t.Run(w.SubName(), func(t *testing.T) {
			checkDecode(t, corpus.File(t, w.File))
		})
	}
	files, _ := filepath.Glob("../testdata/jsontestsuite/test_parsing/y_*.json")
	if len(files) == 0 {
		t.Fatal("no JSONTestSuite files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkDecode(t, b) })
	}
}

// checkDecode compares decodeValue with encoding/json on b: where both
// accept it, the same values; where encoding/json rejects it, an error
// too. (encoding/json accepts invalid UTF-8, which the scanner rejects.)
func checkDecode(t *testing.T, b []byte) {
	t.Helper()
	std, serr := stdDecode(b)
	got, err := decodeValue(bytes.Clone(b), 0)
	switch {
	case serr != nil && err == nil:
		t.Fatalf("encoding/json rejects it (%v), decodeValue gives %#v", serr, got)
	case serr == nil && err == nil && !reflect.DeepEqual(got, std):
		t.Fatalf("decodeValue and encoding/json differ")
	case serr == nil && err != nil && utf8.Valid(b) && !strings.Contains(err.Error(), "depth"):
		t.Fatalf("decodeValue rejects what encoding/json takes: %v", err)
	}
}

func FuzzDecodeValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\u00e9",true,null,{}]}`, `"\ud800"`, `-0.0e-1`, `123456789012345678901234567890`, `[[[]]]`, `{"a":1,"a":2}`, `1e999`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
	})
}

func BenchmarkDecodeValue(b *testing.B) {
	for _, name := range []string{"twitter.json", "citm_catalog.json", "canada.json", "conversation_items.json"} {
		doc := corpus.File(b, name)
		// The same bytes each time, as encoding/json below: decodeValue
		// only reads them (its strings are slices of them).
		b.Run("impl=jsonmask/doc="+name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeValue(doc, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		// A fresh copy each time: decodeValue takes over its input, which
		// a query loads for it; the copy and the collector's work for it
		// are counted here.
		b.Run("impl=jsonmask+copy/doc="+name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeValue(bytes.Clone(doc), 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("impl=encoding-json/doc="+name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(doc, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
