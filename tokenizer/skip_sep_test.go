package tokenizer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sepStyle is how prettyDoc lays out a container: what follows ',' before
// the newline (mesh.pretty.json's ", \n"), the newline and the indent unit.
type sepStyle struct{ name, afterComma, newline, unit string }

var sepStyles = []sepStyle{
	{"lf-spaces", "", "\n", " "},
	{"comma-space", " ", "\n", " "},
	{"crlf-tabs", "", "\r\n", "\t"},
}

// prettyDoc is a pretty-printed document whose whitespace runs after ',',
// after '{' or '[', before the closing bracket and after ':' are those of
// a pretty-printer with the indent width given: an array of objects that
// hold an array of small objects, an array of numbers and an empty array,
// nested deep enough that the runs grow past 32 bytes.
func prettyDoc(st sepStyle, width int) string {
	b := &sepWriter{st: st, width: width}
	nl, comma := b.nl, b.comma
	b.WriteString("[")
	for i := range 3 {
		if i > 0 {
			comma(1)
		} else {
			nl(1)
		}
		b.WriteString("{")
		nl(2)
		fmt.Fprintf(b, `"id": %d`, i)
		comma(2)
		b.WriteString(`"text": "some words \u00e9t\u00e9 déjà vu",`)
		nl(2)
		b.WriteString(`"k": "v"`)
		comma(2)
		b.WriteString(`"areas": [`)
		for j := range 3 {
			if j > 0 {
				comma(3)
			} else {
				nl(3)
			}
			b.WriteString("{")
			nl(4)
			b.WriteString(`"t": "x"`)
			comma(4)
			fmt.Fprintf(b, `"areaId": %d`, 205705990+j)
			comma(4)
			b.WriteString(`"name": "Arrière-scène central"`)
			comma(4)
			b.WriteString(`"deep": [`)
			nl(5)
			b.WriteString(`{"x": [`)
			nl(6)
			b.WriteString("1")
			comma(6)
			b.WriteString(`"s"`)
			nl(5)
			b.WriteString("]}")
			nl(4)
			b.WriteString("]")
			comma(4)
			b.WriteString(`"blockIds": []`)
			nl(3)
			b.WriteString("}")
		}
		nl(2)
		b.WriteString("]")
		comma(2)
		b.WriteString(`"name": "n"`)
		nl(1)
		b.WriteString("}")
	}
	nl(0)
	b.WriteString("]")
	return b.String()
}

// wsSpans are the start and end of each whitespace run in doc outside
// strings.
func wsSpans(doc string) [][2]int {
	var spans [][2]int
	inStr := false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			j := i
			for j < len(doc) && (doc[j] == ' ' || doc[j] == '\t' || doc[j] == '\n' || doc[j] == '\r') {
				j++
			}
			spans = append(spans, [2]int{i, j})
			i = j - 1
		}
	}
	return spans
}

// TestSkipSeparators checks the value kernels' whitespace runs, whose
// lengths they predict by depth and learn on a miss (up to 32 bytes, after ',' and tried after '{' or '[' and before a closing
// bracket, SEPSKIP) against the twin and value (checkSkip, checkCopy), in
// every kernel set: pretty-printed documents of every indent width from 1
// to 9 in three styles, whole and with bytes after them; then each run
// changed alone: one byte longer or shorter than the run the kernel
// learned (the compare matches a prefix, or the byte after it differs),
// its last byte another whitespace, a byte that is not whitespace put
// at its end or inside it (refused); and each document cut just before,
// inside and after each run.
func TestSkipSeparators(t *testing.T) {
	for _, st := range sepStyles {
		for width := 1; width <= 9; width++ {
			doc := prettyDoc(st, width)
			t.Run(fmt.Sprintf("%s/width=%d", st.name, width), func(t *testing.T) {
				checkSeparatorDoc(t, doc)
			})
		}
	}
}

// checkSeparatorDoc is TestSkipSeparators' check of one document, in every
// kernel set.
func checkSeparatorDoc(t *testing.T, doc string) {
	eachKernelSet(t, func(t *testing.T) {
		check := func(d string, valid bool) {
			t.Helper()
			for _, pad := range []string{"", " ", strings.Repeat(" ", 40)} {
				a := skipArgs{src: []byte(d + pad), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
				if end, ok := checkSkip(t, a); ok != valid || ok && end != len(d) {
					t.Fatalf("skipWhole(%q) = %d %v, want valid %v", a.src, end, ok, valid)
				}
				checkCopy(t, a)
			}
		}
		check(doc, true)
		spans := wsSpans(doc)
		for k, sp := range spans {
			if k%3 != 0 && testing.Short() {
				continue
			}
			run := doc[sp[0]:sp[1]]
			before, after := doc[:sp[0]], doc[sp[1]:]
			check(before+run+" "+after, true)
			check(before+run[:len(run)-1]+after, true)
			check(before+run[:len(run)-1]+"\t"+after, true)
			for _, bad := range []byte{'\v', 0xa0, 'x'} {
				r := []byte(run)
				r[len(r)-1] = bad
				check(before+string(r)+after, false)
				if len(r) > 2 {
					r = []byte(run)
					r[len(r)/2] = bad
					check(before+string(r)+after, false)
				}
			}
			for _, cut := range []int{sp[0], sp[0] + 1, (sp[0] + sp[1]) / 2, sp[1] - 1, sp[1], sp[1] + 1} {
				if cut >= len(doc) {
					continue
				}
				a := skipArgs{src: []byte(doc[:cut]), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
				if _, ok := checkSkip(t, a); ok {
					t.Fatalf("skipWhole(%q) took a cut value", a.src)
				}
				checkCopy(t, a)
			}
		}
	})
}

// deepDoc nests objects and arrays in turn to depth levels, pretty-printed
// with the indent width given: each object holds a number, a string value
// before a member (VSEP), an empty array and the next level, each array
// a number, a string and the next level. Depths past 8 share the kernels'
// predicted run lengths (by depth mod 8) with the runs 8 levels up, which
// are 8*width bytes shorter.
func deepDoc(st sepStyle, width, levels int) string {
	b := &sepWriter{st: st, width: width}
	nl, comma := b.nl, b.comma
	var level func(d int)
	level = func(d int) {
		if d%2 == 1 {
			b.WriteString("{")
			nl(d)
			fmt.Fprintf(b, `"n": %d`, d)
			comma(d)
			b.WriteString(`"s": "v"`)
			comma(d)
			b.WriteString(`"e": []`)
			if d < levels {
				comma(d)
				b.WriteString(`"next": `)
				level(d + 1)
			}
			nl(d - 1)
			b.WriteString("}")
			return
		}
		b.WriteString("[")
		nl(d)
		fmt.Fprintf(b, "%d", d)
		comma(d)
		b.WriteString(`"w"`)
		if d < levels {
			comma(d)
			level(d + 1)
		}
		nl(d - 1)
		b.WriteString("]")
	}
	level(1)
	return b.String()
}

// TestSkipSeparatorsDeep is TestSkipSeparators on deepDoc: 20 levels, so
// that each depth's predicted run length (mod 8) meets runs of another
// length, in both directions, and runs grow past 32 bytes.
func TestSkipSeparatorsDeep(t *testing.T) {
	for _, st := range sepStyles {
		for _, width := range []int{1, 2, 3} {
			doc := deepDoc(st, width, 20)
			t.Run(fmt.Sprintf("%s/width=%d", st.name, width), func(t *testing.T) {
				checkSeparatorDoc(t, doc)
			})
		}
	}
}

// TestSkipSeparatorWindows reads the pretty-printed documents in two
// windows cut at every length (checkSkipWindows, checkCopyWindows,
// checkSkipResume): the kernel takes over inside and after every run,
// with nothing learned.
func TestSkipSeparatorWindows(t *testing.T) {
	for _, st := range sepStyles {
		for _, width := range []int{2, 7} {
			doc := prettyDoc(st, width)
			t.Run(fmt.Sprintf("%s/width=%d", st.name, width), func(t *testing.T) {
				a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
				step := 1
				if testing.Short() {
					step = 5
				}
				for n := 1; n < len(doc); n += step {
					checkSkipResume(t, a, n)
					checkSkipWindows(t, a, []byte{byte(n - 1), 255})
					checkCopyWindows(t, a, []byte{byte(n - 1), 255})
				}
			})
		}
	}
}

// TestSkipColonSpace checks the skip kernel's step over `": ` to a value
// (colonSpace, from the chain) against the twin and value: a key whose
// closing quote falls at every offset of the first 32-byte block and of
// strShort's and strLoop's 64-byte blocks, followed by ':' and each run
// (one space, two, a space and a newline, a tab, none) and each kind of
// value, whole, with bytes after it, and cut at every byte from the quote
// on; and with a byte that is not whitespace after the space. Since round
// 14 colonSpace dispatches the value's first byte itself: the bytes around
// '[' and '{' and letters that begin no literal, with the values they
// begin invalid.
func TestSkipColonSpace(t *testing.T) {
	values := []string{"1", "-2.5", "true", "null", `"v"`, "{}", `{"a":1}`, "[]", "[1, 2]",
		"false", "0", "9", "-0", "false ", "null\t", "true "}
	bad := []string{"falsee", "nullx", "nulll", "truee", "fals,", "null:", "x", "nul", "fals", "tru", "]", "}", `\`, "Z", "@", "|", "!", "/", ":", ",", "\x80", "n", "F", "N"}
	values = append(values, bad...)
	runs := []string{" ", "  ", " \n", "\t", "", " \n  ", " \v"}
	eachKernelSet(t, func(t *testing.T) {
		for klen := 0; klen <= 140; klen++ {
			if testing.Short() && klen%5 != 0 {
				continue
			}
			key := strings.Repeat("k", klen)
			for _, run := range runs {
				for _, v := range values {
					doc := `{"` + key + `":` + run + v + `,"z":0}`
					valid := !strings.Contains(run, "\v") && !slices.Contains(bad, v)
					for _, pad := range []string{"", " ", "]]]]"} {
						a := skipArgs{src: []byte(doc + pad), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
						if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
							t.Fatalf("skipWhole(%q) = %d %v, want valid %v", a.src, end, ok, valid)
						}
						checkCopy(t, a)
					}
					if run != " " {
						continue
					}
					for cut := klen + 2; cut < len(doc); cut++ {
						a := skipArgs{src: []byte(doc[:cut]), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
						if _, ok := checkSkip(t, a); ok {
							t.Fatalf("skipWhole(%q) took a cut value", a.src)
						}
						checkCopy(t, a)
					}
				}
			}
		}
	})
}

// TestSkipValueSeparator checks the skip kernel's step from a string
// value over `,` and the separator learned to the next key (VSEP) against
// the twin and value: values of every length from 0 to 140, so that the
// key's quote falls at every offset of the first 32-byte block and of the
// 64-byte blocks (and just past them), with separators of 1 to 33 bytes,
// runs that differ from the learned one after it, a key or the ',' cut.
func TestSkipValueSeparator(t *testing.T) {
	seps := []string{"\n  ", " ", "\n" + strings.Repeat(" ", 30), "\n" + strings.Repeat(" ", 32), "\r\n\t"}
	eachKernelSet(t, func(t *testing.T) {
		for vlen := 0; vlen <= 140; vlen++ {
			if testing.Short() && vlen%3 != 0 {
				continue
			}
			v := strings.Repeat("v", vlen)
			for _, sep := range seps {
				for _, next := range []string{sep, sep + " ", sep[:len(sep)-1], sep[:len(sep)-1] + "x"} {
					doc := `{"a": "b",` + sep + `"c": "` + v + `",` + next + `"key": "w",` + sep + `"n": 1}`
					valid := !strings.HasSuffix(next, "x")
					for _, pad := range []string{"", " ", strings.Repeat(" ", 40)} {
						a := skipArgs{src: []byte(doc + pad), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
						if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
							t.Fatalf("skipWhole(%q) = %d %v, want valid %v", a.src, end, ok, valid)
						}
						checkCopy(t, a)
					}
				}
				doc := `{"a": "b",` + sep + `"c": "` + v + `",` + sep + `"key": 1}`
				for cut := len(doc) - len(sep) - 12; cut < len(doc); cut++ {
					a := skipArgs{src: []byte(doc[:cut]), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if _, ok := checkSkip(t, a); ok {
						t.Fatalf("skipWhole(%q) took a cut value", a.src)
					}
					checkCopy(t, a)
				}
			}
		}
	})
}

// sepWriter builds a document in a style at an indent width: nl writes a
// newline and the indent of a depth, comma a ',' and what follows it there.
type sepWriter struct {
	strings.Builder
	st    sepStyle
	width int
}

func (b *sepWriter) nl(depth int) {
	b.WriteString(b.st.newline)
	b.WriteString(strings.Repeat(b.st.unit, b.width*depth))
}

func (b *sepWriter) comma(depth int) {
	b.WriteString(",")
	b.WriteString(b.st.afterComma)
	b.nl(depth)
}

// TestSkipKeyQuote checks the object's ',' and run to a key (SEPKEY, round
// 14: it goes on to str from the run's end) against the twin and value: the
// key's opening quote replaced by another byte, after runs of every length
// from 0 to 40 (predicted or not), at depths 1 to 3; with the quote, valid.
func TestSkipKeyQuote(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		for width := 0; width <= 40; width++ {
			for depth := 1; depth <= 3; depth++ {
				run := "\n" + strings.Repeat(" ", width)
				if width == 0 {
					run = ""
				}
				for _, q := range []string{`"`, "x", "'", "}", "]", ",", ":", "1", "\t" + `"`, " x"} {
					member := `"a": 1,` + run + `"b": [true, 2],` + run + q + `c": null`
					doc := strings.Repeat(`{"o":`, depth-1) + "{" + run + member + run + "}" + strings.Repeat("}", depth-1)
					valid := q == `"` || q == "\t"+`"`
					a := skipArgs{src: []byte(doc + " "), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
						t.Fatalf("skipWhole(%q) = %d %v, want valid %v", a.src, end, ok, valid)
					}
					checkCopy(t, a)
				}
			}
		}
	})
}
