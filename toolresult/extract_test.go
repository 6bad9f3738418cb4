package toolresult

import (
	"bytes"
	"encoding/json"
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
	err := e.Close()
	return out.String(), e.instr, err
}

// validObject reports whether body is JSON, a byte-order mark before it
// allowed, as the next reader (the mask, or the schema's pass) sees it.
func validObject(body string) bool {
	return json.Valid([]byte(strings.TrimPrefix(body, "\xEF\xBB\xBF")))
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
		{"Invalid", `{"a":1,` + k + `:"x", bad}`, `{"a":1,` + k + `:"x", bad}`, nil},
		// A body that breaks in a member, or before the separator after the
		// first, keeps the member: taking it out would make it look like JSON.
		{"KeyAlone", `{` + k + `}`, `{` + k + `}`, nil},
		{"KeyThenMember", `{` + k + `,"a":1}`, `{` + k + `,"a":1}`, nil},
		{"LastKeyAlone", `{"a":1,` + k + `}`, `{"a":1,` + k + `}`, nil},
		{"NoValue", `{` + k + `:}`, `{` + k + `:}`, nil},
		{"NoColon", `{` + k + ` 1}`, `{` + k + ` 1}`, nil},
		{"BrokenValue", `{` + k + `:[1,}`, `{` + k + `:[1,}`, nil},
		{"NoComma", `{` + k + `:1 "a":2}`, `{` + k + `:1 "a":2}`, nil},
		{"TwoNoComma", `{` + k + `:1,` + k + `:2 "a":3}`, `{` + k + `:1,` + k + `:2 "a":3}`, nil},
		{"BadKeyAfter", `{` + k + `:1,"a` + "\x01" + `":2}`, `{` + k + `:1,"a` + "\x01" + `":2}`, nil},
		{"TrailingComma", `{` + k + `:1,}`, `{` + k + `:1,}`, nil},
		{"Unclosed", `{` + k + `:"x"`, `{` + k + `:"x"`, nil},
		{"UnclosedAfter", `{` + k + `:"x",  `, `{` + k + `:"x",  `, nil},
		{"UnclosedData", `{"a":1,   `, `{"a":1,   `, nil},
		{"NoCommaAfterData", `{"a":1,` + k + `:1 "b":2}`, `{"a":1,` + k + `:1 "b":2}`, nil},
		{"NumbersRunTogether", `{"a":1,` + k + `:[0]0}`, `{"a":1,` + k + `:[0]0}`, nil},
		{"NumbersRunTogetherLast", `{"a":1,` + k + `:"x"2}`, `{"a":1,` + k + `:"x"2}`, nil},
		{"DataThenTwo", `{"a":1,` + k + `:1,` + k + `:2,"b":3}`, `{"a":1,"b":3}`, []string{"1", "2"}},
		{"DataThenTwoBroken", `{"a":1,` + k + `:1,` + k + `:2 3}`, `{"a":1,` + k + `:1,` + k + `:2 3}`, nil},
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
				if validObject(out) != validObject(tc.body) || validObject(blanked) != validObject(tc.body) {
					t.Fatalf("window %d: the body is valid: %v; what was passed on, %q and %q, is not the same", w, validObject(tc.body), out, blanked)
				}
			}
		})
	}
}

// FuzzExtractor: at any window size, what the extractor passes on is JSON
// exactly when the body is (taking a member out never makes a broken body
// look whole); in blank mode it is the body with some bytes turned to
// spaces; and a member reported as instructions is one taken out.
func FuzzExtractor(f *testing.F) {
	const k = `"display_instructions_for_model"`
	for _, s := range []string{`{"a":1}`, `{` + k + `:"x"}`, `{` + k + `}`, `{` + k + `:1 "a":2}`, `{"a":1,` + k + `:[1,{"b":2}],"c":3}`,
		"\xEF\xBB\xBF{" + k + `:"\u00e9"}`, `{"display\u005finstructions_for_model":1,}`, `{` + k + `:1,` + k + `:2}`, `[` + k + `]`,
		// Cut inside a token, and numbers at the end (hunt5: the loop of 82a3678).
		`{` + k + `:"ab`, `{` + k + `:[1, tru`, `{` + k + `:-`, `{"disp`, `1`, ` 1`} {
		f.Add(s, uint8(1))
		f.Add(s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, body string, w uint8) {
		win := int(w%64) + 1
		out, instr, err := extract(t, body, false, win)
		if err != nil {
			return // a limit: the body is refused
		}
		blanked, _, err := extract(t, body, true, win)
		if err != nil {
			t.Fatalf("blank mode: %v, plain mode passed", err)
		}
		if validObject(out) != validObject(body) || validObject(blanked) != validObject(body) {
			t.Fatalf("the body %q is valid: %v; passed on %q and %q", body, validObject(body), out, blanked)
		}
		if len(blanked) != len(body) {
			t.Fatalf("blank mode passed on %d bytes of %d", len(blanked), len(body))
		}
		for i := range len(body) {
			if blanked[i] != body[i] && blanked[i] != ' ' {
				t.Fatalf("blank mode changed byte %d of %q: %q", i, body, blanked)
			}
		}
		if len(instr) == 0 && out != body {
			t.Fatalf("nothing reported, but %q became %q", body, out)
		}
	})
}
