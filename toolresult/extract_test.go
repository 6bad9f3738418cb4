package toolresult

import (
	"bytes"
	"strings"
	"testing"
)

// extract runs the extractor over body in windows of w bytes.
func extract(t *testing.T, body string, blank bool, w int) (string, []string, error) {
	t.Helper()
	var out bytes.Buffer
	e := newExtractor(&out, blank)
	for i := 0; i < len(body); i += w {
		if _, err := e.Write([]byte(body[i:min(i+w, len(body))])); err != nil {
			return out.String(), e.instr, err
		}
	}
	return out.String(), e.instr, nil
}

func TestExtractor(t *testing.T) {
	const k = `"display_instructions_for_model"`
	for _, tc := range []struct {
		name, body, out string
		instr           []string
	}{
		{"None", `{"a":1,"b":[2]}`, `{"a":1,"b":[2]}`, nil},
		{"NotObject", `[{` + k + `:1}]`, `[{` + k + `:1}]`, nil},
		{"Only", `{` + k + `:"x"}`, `{}`, []string{"x"}},
		{"First", `{` + k + `:"x","a":1}`, `{"a":1}`, []string{"x"}},
		{"Middle", `{"a":1,` + k + `:"x","b":2}`, `{"a":1,"b":2}`, []string{"x"}},
		{"Last", `{"a":1,` + k + `:"x"}`, `{"a":1}`, []string{"x"}},
		{"TwoFirst", `{` + k + `:"x",` + k + `:"y","a":1}`, `{"a":1}`, []string{"x", "y"}},
		{"Pretty", "{\n  " + k + " : \"x\" ,\n  \"a\": 1\n}", "{\"a\": 1\n}", []string{"x"}},
		{"PrettyLast", "{\n  \"a\": 1,\n  " + k + ": \"x\"\n}", "{\n  \"a\": 1\n}", []string{"x"}},
		{"Escaped", `{"display\u005finstructions_for_model":"a\nb\u00e9","a":1}`, `{"a":1}`, []string{"a\nbé"}},
		{"NonString", `{"a":1,` + k + `: {"x" : [1, true ,null], "y":{}}}`, `{"a":1}`, []string{`{"x":[1,true,null],"y":{}}`}},
		{"Number", `{` + k + `:12}`, `{}`, []string{"12"}},
		{"Nested", `{"a":{` + k + `:1}}`, `{"a":{` + k + `:1}}`, nil},
		{"LongKey", `{"` + strings.Repeat("d", 300) + `":1}`, `{"` + strings.Repeat("d", 300) + `":1}`, nil},
		{"BOM", "\xEF\xBB\xBF {" + k + `:"x","a":` + k + `}`, "\xEF\xBB\xBF {\"a\":" + k + `}`, []string{"x"}},
		{"Invalid", `{"a":1,` + k + `:"x", bad}`, `{"a":1, bad}`, []string{"x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for w := 1; w <= len(tc.body); w++ {
				out, instr, err := extract(t, tc.body, false, w)
				if err != nil {
					t.Fatalf("window %d: %v", w, err)
				}
				if out != tc.out || strings.Join(instr, "|") != strings.Join(tc.instr, "|") {
					t.Fatalf("window %d:\n got %q %q\nwant %q %q", w, out, instr, tc.out, tc.instr)
				}
				blanked, _, _ := extract(t, tc.body, true, w)
				if len(blanked) != len(tc.body) || strings.Join(strings.Fields(blanked), "") != strings.Join(strings.Fields(out), "") {
					t.Fatalf("window %d: blank mode gave %q", w, blanked)
				}
			}
		})
	}
}
