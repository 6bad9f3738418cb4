package studio

import (
	"errors"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

var maskSeeds = []string{
	`{}`, `{"a":true}`, `{"a":{}}`, `{"a":{"b":true,"c":{"d":true}},"e":true}`,
	`{"*":true}`, `{"a":{"*":{"b":true}}}`, `{"a,b":true,"c/d":true,"(x)":true,"\\":true}`,
	`{" a ":true,"\tb":true,"c d":true}`, `{"":true}`, `{"a\nb":true,"\n":true}`,
	`{"\u005fid":true}`, `{"\ud800":true}`, `{"é":{"ü":true}}`, `{"~0/1":true}`,
}

// FuzzMaskText: for every mask the library compiles, the studio's tree of
// it prints back the library's JSON, and its text form, when it has one,
// compiles to the same mask (SPEC T1).
func FuzzMaskText(f *testing.F) {
	for _, s := range maskSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, tree, err := compileMask([]byte(src))
		if err != nil {
			return
		}
		canon, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if got := tree.appendJSON(nil); string(got) != string(canon) {
			t.Fatalf("tree prints %s, the library %s", got, canon)
		}
		text, err := tree.fields()
		if err != nil {
			if !errors.Is(err, errNoText) {
				t.Fatal(err)
			}
			return
		}
		fm, err := jsonmask.CompileFields(text)
		if err != nil {
			t.Fatalf("text %q of %s: %v", text, canon, err)
		}
		back, err := fm.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != string(canon) {
			t.Fatalf("text %q of %s compiles to %s", text, canon, back)
		}
	})
}

func TestMaskText(t *testing.T) {
	for _, c := range []struct{ mask, text string }{
		{`{"a":true}`, "a"},
		{`{"a":{"b":true,"c":{"d":true}},"e":true}`, "a(b,c/d),e"},
		{`{"a":{"*":{"b":true}}}`, "a/*/b"},
		{`{"a,b":true,"c/d":true,"(x)":true,"\\":true,"*x":true}`, `a\,b,c\/d,\(x\),\\,\*x`},
		{`{" a ":true,"\tb":true,"c d":true}`, `\ a\ ,\	b,c d`},
		{`{}`, ""},
		{`{"a":{}}`, ""},
		{`{"":true}`, ""},
	} {
		_, tree, err := compileMask([]byte(c.mask))
		if err != nil {
			t.Fatal(err)
		}
		text, err := tree.fields()
		if text != c.text || (c.text == "") != (err != nil) {
			t.Errorf("%s: %q, %v; want %q", c.mask, text, err, c.text)
		}
	}
}

// FuzzPathTokens: the studio's walk finds every path the library's Paths
// finds, and counts at the root the tokens of the document as compact JSON,
// which is what a mask keeping everything makes of an object.
func FuzzPathTokens(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":[{"b":"x"},{"b":[1,{"c":null}]}],"d":{"e":true}}`,
		"{ \"a\" : [ 1 , 2 ] ,\n\"b\":\"\\u00e9\\\"\"}", `{"*":[[1]],"~/":{"":0}}`, `{"\ud800":1,"x":{"\ud800":2}}`} {
		f.Add(s)
	}
	every, _, err := compileMask([]byte(`{"*":true}`))
	if err != nil {
		f.Fatal(err)
	}
	tk, err := toolresult.NewTokenizer(toolresult.DefaultEncoding)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		stats, err := every.Paths([]byte(doc))
		if err != nil {
			return
		}
		targets := map[string]bool{}
		for _, st := range stats {
			targets[st.Path] = true
		}
		counts := map[string]int64{}
		if err := pathTokens([]byte(doc), "", false, targets, prefixesOf(targets), tk, counts); err != nil {
			t.Fatalf("the library accepts what the walk rejects: %v", err)
		}
		out, err := every.Append(nil, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if len(out) > 0 && out[0] == '{' {
			if want := int64(tk.Count(out, -1)); counts[""] != want {
				t.Fatalf("root: %d tokens, want %d of %s", counts[""], want, out)
			}
		}
		for _, st := range stats {
			if _, ok := counts[st.Path]; !ok && st.Bytes > 0 && !hasLoneSurrogate(st.Path) {
				t.Fatalf("the walk did not find %q", st.Path)
			}
		}
	})
}

// hasLoneSurrogate reports whether a path holds the WTF-8 bytes of a lone
// surrogate, which encoding/json decodes otherwise (see pathTokens).
func hasLoneSurrogate(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == 0xED && p[i+1] >= 0xA0 {
			return true
		}
	}
	return false
}
