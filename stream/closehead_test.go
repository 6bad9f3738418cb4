package stream

import (
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// closeHeadMask keeps some members of the jobs' objects and of their masked
// child objects: Scanner.Members reads them in its batch, with the heads,
// close heads and sibling runs it learned from the objects before.
const closeHeadMask = `{"jobs":{"name":true,"c":true,"sub":{"a":true}},"keep":true}`

// closeHeadShapes are the objects that the jobs' arrays repeat, minified and
// pretty, flat and with a masked child object: Members learns where each
// closes (a close head), and the run on to the next element's '{'.
var closeHeadShapes = []struct{ name, sep, colon, el string }{
	{"Flat", "", ":", `{"name":"n","url":"u","c":1}`},
	{"Child", "", ":", `{"name":"n","sub":{"a":1,"b":2},"c":1}`},
	{"FlatPretty", "\n  ", " : ", "{\n    \"name\" : \"n\",\n    \"url\" : \"u\",\n    \"c\" : 1\n  }"},
	{"ChildPretty", "\n  ", " : ", "{\n    \"name\" : \"n\",\n    \"sub\" : {\n      \"a\" : 1,\n      \"b\" : 2\n    },\n    \"c\" : 1\n  }"},
}

// closeHeadVariants change one thing in an element, given as a function of
// the element as it repeats: where it closes, how it is laid out, what
// follows it in the array, its keys, its depth.
var closeHeadVariants = []struct {
	name string
	f    func(el, sep, colon string) string
}{
	{"Same", func(el, _, _ string) string { return el }},
	{"MemberWhereClosed", func(el, sep, colon string) string {
		return el[:strings.LastIndexByte(el, '}')] + `,"zz"` + colon + `2}`
	}},
	{"ClosedWhereMember", func(el, sep, colon string) string { return el[:strings.Index(el, `"c"`)] + `"c"` + colon + `1}` }},
	{"ClosedEarly", func(el, sep, colon string) string { return `{"name"` + colon + `"n"}` }},
	{"SpaceBeforeClose", func(el, _, _ string) string { return strings.TrimSuffix(el, "}") + " }" }},
	{"NoSpaceBeforeClose", func(el, _, _ string) string { return strings.TrimRight(strings.TrimSuffix(el, "}"), " \n") + "}" }},
	{"TabBeforeClose", func(el, _, _ string) string { return strings.TrimSuffix(el, "}") + "\t}" }},
	{"SpaceAfterClose", func(el, _, _ string) string { return el + " " }},
	{"KeyFirstByte", func(el, _, _ string) string { return strings.Replace(el, `"c"`, `"d"`, 1) }},
	{"KeyLastByte", func(el, _, _ string) string { return strings.Replace(el, `"name"`, `"namf"`, 1) }},
	{"KeyMiddleByte", func(el, _, _ string) string { return strings.Replace(el, `"name"`, `"nbme"`, 1) }},
	{"KeyLonger", func(el, _, _ string) string { return strings.Replace(el, `"c"`, `"cc"`, 1) }},
	{"KeyEscaped", func(el, _, _ string) string { return strings.Replace(el, `"c"`, `"\u0063"`, 1) }},
	{"FirstKeyEscaped", func(el, _, _ string) string { return strings.Replace(el, `"name"`, `"n\u0061me"`, 1) }},
	{"ChildClosedEarly", func(el, _, colon string) string { return strings.Replace(el, `"a"`, `"a"`+colon+`0},"y"`, 1) }},
	{"Nested", func(el, _, colon string) string { return strings.Replace(el, `"n"`, el, 1) }},
	{"Deeper", func(el, _, _ string) string { return "[[[[[[[[" + el + "," + el + "]]]]]]]]" }},
	{"DeeperInObject", func(el, _, colon string) string {
		return "[[[[[[[{\"k\"" + colon + el + "," + el + "}]]]]]]]"
	}},
	{"ObjectsInObject", func(el, _, colon string) string { return `{"name"` + colon + el + `,` + el + `}` }},
	{"Scalar", func(string, string, string) string { return `1` }},
	{"Array", func(el, _, _ string) string { return `[` + el + `]` }},
	{"String", func(string, string, string) string { return `"s"` }},
	{"Empty", func(string, string, string) string { return `{}` }},
	{"EmptySpaced", func(string, string, string) string { return `{ }` }},
	{"Invalid", func(el, _, _ string) string { return strings.Replace(el, `1`, `tru`, 1) }},
	{"InvalidAfterClose", func(el, _, _ string) string { return el + `}` }},
	{"TrailingComma", func(el, _, _ string) string {
		// A ',' where the learned run has its first byte: in place of
		// a whitespace byte before the '}', or before a bare '}'.
		k := strings.LastIndexByte(el, '}')
		w := k
		for w > 0 && (el[w-1] == ' ' || el[w-1] == '\n') {
			w--
		}
		if w < k {
			return el[:w] + "," + el[w+1:]
		}
		return el[:k] + "," + el[k:]
	}},
	{"ClosedByBracket", func(el, _, _ string) string { return strings.TrimSuffix(el, "}") + "]" }},
	{"CommaAfterClose", func(el, _, _ string) string { return el + `,` }},
	{"Cut", func(el, _, _ string) string { return el[:len(el)-1] }},
}

// TestCloseHeads masks arrays of alike objects, whose closes Members learns
// (a close head, with the run on to the next element's '{'), with one
// element changed in each way that the bytes or the grammar can differ
// from the learned run, followed by more alike ones. The output, or whether
// it fails, must be the reference masker's: whole, split at every byte from
// the changed element on, and a byte at a time; in trusted mode (valid
// input: the same output); and by a Machine that masked a document of the
// same shape laid out otherwise first (what its Scanner learned must not
// leak into the next document).
func TestCloseHeads(t *testing.T) {
	prog, err := compile.Compile([]byte(closeHeadMask), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range closeHeadShapes {
		for _, v := range closeHeadVariants {
			t.Run(s.name+"/"+v.name, func(t *testing.T) {
				els := make([]string, 0, 8)
				for range 5 {
					els = append(els, s.el)
				}
				odd := v.f(s.el, s.sep, s.colon)
				from := len(`{"jobs":[`) + 5*len(s.el+","+s.sep) - 1
				els = append(els, odd, s.el, s.el)
				doc := `{"jobs":[` + strings.Join(els, ","+s.sep) + `],"keep":1}`
				if v.name == "Cut" {
					doc = `{"jobs":[` + strings.Join(els[:6], ","+s.sep)
				}
				want, werr := reference.Reference([]byte(closeHeadMask), []byte(doc), reference.Options{})
				got := checkEveryWay(t, prog, Config{}, doc, from)
				if (werr != nil) != strings.HasPrefix(got, "error: ") || werr == nil && got != string(want) {
					t.Fatalf("doc %s: got\n%s\nreference\n%s, %v", doc, got, want, werr)
				}
				if werr == nil {
					if trusted := checkEveryWay(t, prog, Config{Trusted: true}, doc, from); trusted != got {
						t.Fatalf("doc %s: trusted\n%s\ndefault\n%s", doc, trusted, got)
					}
				}
				// What a Machine learned from another document must not
				// leak: the same shape with the closes laid out otherwise.
				var m Machine
				m.Reset(prog, Config{})
				other := strings.NewReplacer("}", " }", "{", "{ ", ",", " , ").Replace(`{"jobs":[` + strings.Repeat(s.el+",", 5) + s.el + `]}`)
				if _, err := m.Append(nil, []byte(other)); err != nil {
					t.Fatal(err)
				}
				for _, d := range []string{doc, other, doc} {
					m.Reset(prog, Config{})
					out, err := m.Append(nil, []byte(d))
					w, werr := reference.Reference([]byte(closeHeadMask), []byte(d), reference.Options{})
					if (err != nil) != (werr != nil) || err == nil && string(out) != string(w) {
						t.Fatalf("after another document, doc %s: got\n%s %v\nreference\n%s %v", d, out, err, w, werr)
					}
				}
			})
		}
	}
}

// TestCloseHeadErrors: where the learned run from a '}' to the next '{'
// comes in an object (a depth that shares the array's heads, 8 deeper), or
// the close is the last of its array, the error or output is main's, with
// its offset and pointer (each want taken from main at 02770ff).
func TestCloseHeadErrors(t *testing.T) {
	job := `{"name":"n","url":"u","c":1}`
	jobs := `{"jobs":[` + strings.Repeat(job+",", 5)
	pad := strings.Repeat("p", 40) // so that the heads are compared whole in the window
	for _, c := range []struct{ name, doc, want string }{
		{"SiblingInObject", jobs + `[[[[[[[{"sub":` + job + `,{"x":1}}]]]]]]]],"keep":"` + pad + `"}`, `error: invalid character '{' looking for beginning of object key string at offset 197 (/jobs/5/0/0/0/0/0/0/0)`},
		{"SiblingInObjectPretty", jobs + `[[[[[[[{"sub":` + job + `, {"x":1}}]]]]]]]],"keep":"` + pad + `"}`, `error: invalid character '{' looking for beginning of object key string at offset 198 (/jobs/5/0/0/0/0/0/0/0)`},
		{"LastThenMore", jobs + job + `],"jobs":[` + job + `,` + job + `]}`, `{"jobs":[{"name":"n","c":1},{"name":"n","c":1},{"name":"n","c":1},{"name":"n","c":1},{"name":"n","c":1},{"name":"n","c":1}],"jobs":[{"name":"n","c":1},{"name":"n","c":1}]}`},
		{"CloseTwice", jobs + job + `}]}`, `error: invalid character '}' after array element at offset 182 (/jobs/5)`},
	} {
		t.Run(c.name, func(t *testing.T) { checkSplits(t, closeHeadMask, Config{}, c.doc, c.want) })
	}
}
