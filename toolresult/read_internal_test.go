package toolresult

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// selectWith runs the selector over doc in windows of size bytes.
func selectWith(doc []byte, ptr string, off, lim, size int) (string, error) {
	path, err := parsePointer(ptr)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	s := &selector{name: "v", path: path, ranged: off > 0 || lim > 0, off: off, lim: lim, w: &out}
	err = s.run(context.Background(), bytes.NewReader(doc), size)
	return out.String(), err
}

var selectCases = []struct {
	name, doc, ptr string
	off, lim       int
	want, err      string
}{
	{"Root", ` { "a" : [ 1 , 2 ] } `, "", 0, 0, `{"a":[1,2]}`, ""},
	{"Member", `{"a":{"b":"x\"y"},"c":2}`, "/a/b", 0, 0, `"x\"y"`, ""},
	{"SkipsBigValues", `{"x":[` + strings.Repeat(`{"s":"`+strings.Repeat("é", 40)+`"},`, 20) + `1],"y":{"z":[true,false,null]}}`, "/y/z/1", 0, 0, `false`, ""},
	{"LongKeys", `{"` + strings.Repeat("k", 200) + `":1,"` + strings.Repeat("k", 100) + `":2}`, "/" + strings.Repeat("k", 100), 0, 0, `2`, ""},
	{"EscapedKey", `{"\u006b\u0065\u0079":{"\ud83d\ude00":[0]}}`, "/key/😀/0", 0, 0, `0`, ""},
	{"Range", `[[1,2,3,4,5]]`, "/0", 1, 3, `[2,3,4]`, ""},
	{"RangeNested", `{"a":[{"b":[1]},{"b":[2]},{"b":[3]}]}`, "/a", 2, 0, `[{"b":[3]}]`, ""},
	{"RangeEmpty", `{"a":[]}`, "/a", 0, 5, `[]`, ""},
	{"Number", `{"n":-1.5e3}`, "/n", 0, 0, `-1.5e3`, ""},
	{"ScalarRoot", `42`, "", 0, 0, `42`, ""},
	{"ByteOrderMark", "\xEF\xBB\xBF[7]", "/0", 0, 0, `7`, ""},
	{"PointerEscapes", `{"~1":1,"/":2,"~":3,"a/~b":4}`, "/~01", 0, 0, `1`, ""},
	{"PointerEscapesSlash", `{"~1":1,"/":2,"~":3,"a/~b":4}`, "/a~1~0b", 0, 0, `4`, ""},
	{"NotFound", `{"a":[1,2]}`, "/a/2", 0, 0, "", "jsonmask: no value at /a/2 in v: the array at /a has 2 items"},
	{"ScalarRootPath", `"s"`, "/a", 0, 0, "", "jsonmask: no value at /a in v: the root is a string"},
	{"Invalid", `{"a":[1,2}`, "/b", 0, 0, "", "invalid character '}'"},
	{"Truncated", `{"a":[1,2`, "/a", 0, 0, "", "offset 9"},
	{"TruncatedBeforeTarget", `{"b":1`, "/a", 0, 0, "", "offset 6"},
	{"Empty", ``, "", 0, 0, "", "offset 0"},
}

// TestSelectorWindows runs every case at every window size: the output and
// the error do not depend on where windows end.
func TestSelectorWindows(t *testing.T) {
	for _, tc := range selectCases {
		t.Run(tc.name, func(t *testing.T) {
			for size := 1; size <= len(tc.doc)+1; size++ {
				got, err := selectWith([]byte(tc.doc), tc.ptr, tc.off, tc.lim, size)
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("size %d: got %q, %v; want error %q", size, got, err, tc.err)
					}
					continue
				}
				if err != nil || got != tc.want {
					t.Fatalf("size %d: got %q, %v; want %q", size, got, err, tc.want)
				}
			}
		})
	}
}

// FuzzSelect: no input panics the selector; its output and its error are
// the same in windows of 1, 7 and 4096 bytes; what it selects is valid
// JSON; the whole of a valid document is the document compacted.
func FuzzSelect(f *testing.F) {
	for _, tc := range selectCases {
		f.Add([]byte(tc.doc), tc.ptr, uint8(tc.off), uint8(tc.lim))
	}
	f.Fuzz(func(t *testing.T, doc []byte, ptr string, off, lim uint8) {
		want, werr := selectWith(doc, ptr, int(off), int(lim), 4096)
		for _, size := range []int{1, 7} {
			got, err := selectWith(doc, ptr, int(off), int(lim), size)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("size %d: error %v, at 4096: %v", size, err, werr)
			}
			if err == nil && got != want {
				t.Fatalf("size %d: %q, at 4096: %q", size, got, want)
			}
		}
		if werr != nil {
			return
		}
		if !json.Valid([]byte(want)) {
			t.Fatalf("selected %q: not JSON", want)
		}
		if ptr == "" && off == 0 && lim == 0 && json.Valid(doc) {
			var b bytes.Buffer
			json.Compact(&b, bytes.TrimPrefix(doc, []byte("\xEF\xBB\xBF")))
			if b.String() != want {
				t.Fatalf("whole document %q, compacted by encoding/json %q", want, b.String())
			}
		}
	})
}
