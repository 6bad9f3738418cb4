package toolresult

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
		// The shortcuts and where they hand over to the stack.
		{"Pairs", `[[1.5,-2],[3,4e1],[],["x",null]]`, []any{[]any{1.5, -2}, []any{3, 40.0}, []any{}, []any{"x", nil}}},
		{"LeafThenObject", `[1,2,{"a":[3]},4]`, []any{1, 2, map[string]any{"a": []any{3}}, 4}},
		{"LeafThenArray", `[1,[2,[3]],4]`, []any{1, []any{2, []any{3}}, 4}},
		{"ArrayValueNotLeaf", `{"a":1,"b":[2,{"c":3},[4]],"d":5}`, map[string]any{"a": 1, "b": []any{2, map[string]any{"c": 3}, []any{4}}, "d": 5}},
		{"ArrayValueLeaf", `{"a":[1,2],"b":[],"c":{"d":[true]},"e":"x"}`, map[string]any{"a": []any{1, 2}, "b": []any{}, "c": map[string]any{"d": []any{true}}, "e": "x"}},
		{"ObjectValueFirst", `{"a":{"b":1},"c":2}`, map[string]any{"a": map[string]any{"b": 1}, "c": 2}},
		{"EscapedKeysSpilled", `{"\u0061":1,"b":[{"\u0063":2}],"\u0064":3}`, map[string]any{"a": 1, "b": []any{map[string]any{"c": 2}}, "d": 3}},
		{"EscapedStrings", `["a\nb",{"k":"\u00e9"}]`, []any{"a\nb", map[string]any{"k": "é"}}},
		{"ManyMembers", manyMembers(40, `[1,2]`), manyMembersWant(40, []any{1, 2})},
		{"ManyMembersNested", manyMembers(20, `{"x":[{}]}`), manyMembersWant(20, map[string]any{"x": []any{map[string]any{}}})},
		{"LongLeaf", longArray(3000, "1.5"), longArrayWant(3000, 1.5)},
		{"LongLeafThenObject", strings.TrimSuffix(longArray(2000, "7"), "]") + `,{}]`, append(longArrayWant(2000, 7).([]any), map[string]any{})},
		{"LongLeaves", "[" + strings.Repeat(longArray(300, `"s"`)+",", 9) + "[]]", append(slices.Repeat([]any{longArrayWant(300, "s")}, 9), []any{})},
		// ScalarMembers: every kind of value in an object, numbers from
		// their parts, escaped keys and strings, and the edges of the local
		// arrays (8 members) and of a batch (32 spans).
		{"MemberValues", `{"i":7,"n":-300,"f":-1.2365485222325816,"e":1e400,"b":123456789012345678901234,"s":"x","t":true,"u":false,"z":null}`,
			map[string]any{"i": 7, "n": -300, "f": -1.2365485222325816, "e": math.Inf(1), "b": func() any { b, _ := new(big.Int).SetString("123456789012345678901234", 10); return b }(), "s": "x", "t": true, "u": false, "z": nil}},
		{"MemberSpaces", "{ \"a\" :\t1 ,\n \"b\" : \"c\" }", map[string]any{"a": 1, "b": "c"}},
		{"MemberEscapes", `{"a\"b":"\u00e9\n","\\":"\\","plain":"é😀"}`, map[string]any{"a\"b": "é\n", "\\": "\\", "plain": "é😀"}},
		{"DuplicateKeysLocal", `{"a":1,"b":2,"a":[3],"b":{"c":4}}`, map[string]any{"a": []any{3}, "b": map[string]any{"c": 4}}},
		{"DuplicateKeysStack", manyMembers(40, `1`)[:len(manyMembers(40, `1`))-1] + `,"k3":"last"}`, func() any { m := manyMembersWant(40, 1).(map[string]any); m["k3"] = "last"; return m }()},
		{"EightMembers", manyMembers(8, `"v"`), manyMembersWant(8, "v")},
		{"NineMembers", manyMembers(9, `"v"`), manyMembersWant(9, "v")},
		{"EightThenArray", strings.TrimSuffix(manyMembers(8, `1`), "}") + `,"x":[1,{}]}`, func() any { m := manyMembersWant(8, 1).(map[string]any); m["x"] = []any{1, map[string]any{}}; return m }()},
		{"ThirtyThreeMembers", manyMembers(33, `2.5`), manyMembersWant(33, 2.5)},
		{"DeepObjects", strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat(`}`, 200), deepWant(200)},
		// Arrays of objects read by objectElement, past maxNested too.
		{"DeepArraysOfObjects", strings.Repeat(`{"a":[`, 100) + `1` + strings.Repeat(`]}`, 100), deepArraysWant(100)},
		{"ArrayOfObjectsMember", `{"k":1,"x":[{"t":"a","b":[1]},{"t":"b"}],"z":2}`, map[string]any{"k": 1, "x": []any{map[string]any{"t": "a", "b": []any{1}}, map[string]any{"t": "b"}}, "z": 2}},
		{"ArrayOfMixedElements", `{"x":[{"a":1},2,"s",[3],{"b":{"c":[{}]}},{}],"y":[{}],"w":[[{"d":[]}]]}`, map[string]any{"x": []any{map[string]any{"a": 1}, 2, "s", []any{3}, map[string]any{"b": map[string]any{"c": []any{map[string]any{}}}}, map[string]any{}}, "y": []any{map[string]any{}}, "w": []any{[]any{map[string]any{"d": []any{}}}}}},
		{"ArrayOfObjectsSpilled", manyMembers(6, `1`)[:len(manyMembers(6, `1`))-1] + `,"x":[{"a":{}},{"b":2}],"k6":3,"k7":4,"k8":5}`, func() any {
			m := manyMembersWant(9, 1).(map[string]any)
			m["k6"], m["k7"], m["k8"] = 3, 4, 5
			m["x"] = []any{map[string]any{"a": map[string]any{}}, map[string]any{"b": 2}}
			return m
		}()},
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

// deepArraysWant is n objects nested in "a" and one-element arrays, 1 at
// the bottom.
func deepArraysWant(n int) any {
	var v any = 1
	for range n {
		v = map[string]any{"a": []any{v}}
	}
	return v
}

// deepWant is n objects nested in "a", 1 at the bottom.
func deepWant(n int) any {
	var v any = 1
	for range n {
		v = map[string]any{"a": v}
	}
	return v
}

// manyMembers is an object of n members "k0" to "kN-1", each of value v.
func manyMembers(n int, v string) string {
	var b strings.Builder
	b.WriteString("{")
	for k := range n {
		if k > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%s`, k, v)
	}
	return b.String() + "}"
}

func manyMembersWant(n int, v any) any {
	m := map[string]any{}
	for k := range n {
		m[fmt.Sprintf("k%d", k)] = v
	}
	return m
}

// longArray is an array of n elements v.
func longArray(n int, v string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(v+",", n), ",") + "]"
}

func longArrayWant(n int, v any) any { return slices.Repeat([]any{v}, n) }

func TestDecodeValueErrors(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"Empty", ``},
		{"Space", `  `},
		{"Truncated", `{"a":[1,2`},
		{"TruncatedAtArrayValue", `{"":[`}, // FuzzDecodeValue found it: an index past the end
		{"TruncatedInArrayValue", `{"a":1,"b":[1`},
		{"TruncatedAtObjectValue", `{"a":{`},
		{"TruncatedAtNestedArray", `[[`},
		{"TruncatedAtObjectElement", `[1,{`},
		{"TruncatedInLeafThenObject", `{"a":[{`},
		{"TruncatedString", `"abc`},
		{"Quote", `"`},
		{"TruncatedLiteral", `tru`},
		{"Trailing", `{} {}`},
		{"TrailingComma", `[1,]`},
		{"BadEscape", `"\x"`},
		{"NumberThenGarbage", `12a`},
		{"Minus", `-`},
		{"TooDeep", strings.Repeat("[", 20) + strings.Repeat("]", 20)},
		{"TooDeepObjects", strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 20)},
		{"TooDeepArraysOfObjects", strings.Repeat(`{"a":[`, 20) + "1" + strings.Repeat("]}", 20)},
		{"TruncatedInObjectElement", `{"a":[{"b":1},{"c":`},
		{"BadMemberInObjectElement", `{"a":[{"b":1},{"c":01}]}`},
		{"BadNumberInObject", `{"a":1,"b":01}`},
		{"BadFractionInObject", `{"a":1.}`},
		{"BadExponentInObject", `{"a":[1],"b":1e+}`},
		{"BadKeyEscape", `{"\x":1}`},
		{"BadStringInObject", `{"a":"\ud80"}`},
		{"BadUTF8InKey", "{\"\xff\":1}"},
		{"TrailingCommaInObject", `{"a":1,}`},
		{"MissingColon", `{"a" 1}`},
		{"MissingValue", `{"a":}`},
		{"WrongClose", `{"a":1]`},
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

// TestDecodeValueTruncated cuts documents at every length: a prefix of a
// document is an error (or, where it is itself a whole document, the value
// encoding/json gives), never a panic or a wrong value.
func TestDecodeValueTruncated(t *testing.T) {
	for _, doc := range []string{
		`{"object":"list","data":[{"token":"in","logprob":-1.2365485222325816,"bytes":[92,75,43,65],"top_logprobs":[{"token":"caf\u00e9","logprob":-0.9,"bytes":[57]}]},{"a\"b":[],"c":{},"d":true,"e":null,"f":12345678901234567890123}],"n":1e5}`,
		manyMembers(12, `{"x":[1,"y"]}`),
	} {
		for k := range len(doc) + 1 {
			checkDecode(t, []byte(doc[:k]))
			if k < len(doc) {
				if v, err := decodeValue([]byte(doc[:k]), 0); err == nil && !json.Valid([]byte(doc[:k])) {
					t.Fatalf("%d bytes: no error, got %#v", k, v)
				}
			}
		}
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
	for _, s := range []string{`{"a":[1,2.5,"x\u00e9",true,null,{}]}`, `"\ud800"`, `-0.0e-1`, `123456789012345678901234567890`, `[[[]]]`, `{"a":1,"a":2}`, `1e999`, `{"a":1,"b":01}`, `{"\u0061":"\n","b":[1],"c":{"d":-1.5e-3}}`} {
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
