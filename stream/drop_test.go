package stream

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// dropMask keeps keys of 4 and 3 bytes: "keep", "obj" and the "a" under it.
// Every key of another length, unescaped, is dropped by its length alone, so
// that Scanner.Members skips its container in the batch; "kxxp" and "ob\u006a"
// go the other way, by a lookup.
const dropMask = `{"keep":true,"obj":{"a":true,"zz":{"q":true}}}`

// TestDroppedContainers masks documents whose dropped members hold
// containers of every kind, valid or not, given whole, split in two at every
// byte and a byte at a time: the output, or the error with its offset,
// message, pointer and line, must be the same every way (SPEC S1, V3), and
// the one main gave before Members skipped dropped containers itself (each
// want below was taken from main at 9a7411e, and this test passes there).
func TestDroppedContainers(t *testing.T) {
	deep := `{"x":` + strings.Repeat(`[`, 8) + strings.Repeat(`]`, 8) + `,"keep":1}`
	for _, c := range []struct {
		name string
		mask string
		cfg  Config
		doc  string
		want string // the output, or "error: " and the error with its pointer
	}{
		{"EmptyObject", dropMask, Config{}, `{"x":{},"keep":1}`, `{"keep":1}`},
		{"EmptyArray", dropMask, Config{}, `{"x":[],"keep":1}`, `{"keep":1}`},
		{"EmptyLast", dropMask, Config{}, `{"keep":1,"xx":{} }`, `{"keep":1}`},
		{"Nested", dropMask, Config{}, `{"x":{"a":[1,{"b":[[],{}]}],"c":"s"},"keep":"v","obj":{"a":1,"zz":[1,{"q":2,"r":{}}],"y":{"a":[]}}}`, `{"keep":"v","obj":{"a":1,"zz":[1,{"q":2}]}}`},
		{"Several", dropMask, Config{}, `{"s1":{"x":"1","y":[1,2,3]},"s2":{"x":"2"},"s3":[],"keep":true,"s4":{"x":{"y":{}}}}`, `{"keep":true}`},
		{"Pretty", dropMask, Config{}, "{\n  \"x\" : {\n    \"y\" : [ 1, 2 ]\n  },\n  \"keep\" : [ 1 ],\n  \"zz\" : { }\n}\n", `{"keep":[1]}`},
		{"Escapes", dropMask, Config{}, `{"x":{"q\"k":"a\\\"b\u0041}]"},"keep":2}`, `{"keep":2}`},
		{"EscapedKey", dropMask, Config{}, `{"\u0078":{"a":1},"ob\u006a":{"a":2,"b":{}},"keep":3}`, `{"ob\u006a":{"a":2},"keep":3}`},
		{"SameLength", dropMask, Config{}, `{"kxxp":{"a":1},"obj":{"b":[],"a":[{}]},"keep":{"k":{}}}`, `{"obj":{"a":[{}]},"keep":{"k":{}}}`},
		{"NotObjectInside", dropMask, Config{}, `{"x":{"a":tru},"keep":1}`, `error: invalid character '}' in literal true (expecting 'e') at offset 13 (/x)`},
		{"BadCharInside", dropMask, Config{}, `{"keep":1,"x":[1,,2]}`, `error: invalid character ',' looking for beginning of value at offset 17 (/x)`},
		{"BadKeyInside", dropMask, Config{}, `{"x":{"a":1,2:3},"keep":1}`, `error: invalid character '2' looking for beginning of object key string at offset 12 (/x)`},
		{"ControlInside", dropMask, Config{}, "{\"x\":[\"a\tb\"],\"keep\":1}", `error: invalid character '\t' in string literal at offset 8 (/x)`},
		{"UTF8Inside", dropMask, Config{}, "{\"x\":{\"k\":\"\xe3\x81(\"},\"keep\":1}", `error: invalid UTF-8 byte '\xe3' in string at offset 11 (/x)`},
		{"Mismatched", dropMask, Config{}, `{"x":{"a":[1}},"keep":1}`, `error: invalid character '}' after array element at offset 12 (/x)`},
		{"Unclosed", dropMask, Config{}, `{"keep":1,"x":{"a":[1,2`, `error: unexpected end of JSON input at offset 23 (/x)`},
		{"UnclosedString", dropMask, Config{}, `{"keep":1,"x":{"a":"b`, `error: unexpected end of JSON input at offset 21 (/x)`},
		{"AfterDropped", dropMask, Config{}, `{"x":{} "keep":1}`, `error: invalid character '"' after object key:value pair at offset 8 (/x)`},
		{"LongKeyNamed", dropMask, Config{}, `{"` + strings.Repeat("k", 70) + `":[1,}`, `error: invalid character '}' looking for beginning of value at offset 77 (/` + strings.Repeat("k", 70) + `)`},
		{"LongKeyNotNamed", dropMask, Config{}, `{"` + strings.Repeat("k", 300) + `":[1,}`, `error: invalid character '}' looking for beginning of value at offset 307`},
		{"Deep", dropMask, Config{MaxDepth: 6}, deep, `error: exceeded max depth 6 at offset 10 (/x)`},
		{"DeepEnough", dropMask, Config{MaxDepth: 9}, deep, `{"keep":1}`},
		{"LongStringInside", dropMask, Config{MaxToken: 8}, `{"x":{"a":["0123456789"]},"keep":1}`, `error: a string or number longer than 8 bytes at offset 19 (/x)`},
		{"LongNumberInside", dropMask, Config{MaxToken: 8}, `{"x":{"a":[1234567890]},"keep":1}`, `error: a string or number longer than 8 bytes at offset 19 (/x)`},
		{"LongKeyInside", dropMask, Config{MaxToken: 8}, `{"x":{"abcdefghij":1},"keep":1}`, `error: a string or number longer than 8 bytes at offset 14 (/x)`},
		{"TrustedNested", dropMask, Config{Trusted: true}, `{"x":{"a":[1,{"b":[[],{}]}],"c":"s]}"},"keep":"v","obj":{"a":1,"y":{"a":[]}}}`, `{"keep":"v","obj":{"a":1}}`},
		{"TrustedNotChecked", dropMask, Config{Trusted: true}, `{"x":{"a":tru},"keep":1}`, `{"keep":1}`},
		{"TrustedUnclosed", dropMask, Config{Trusted: true}, `{"keep":1,"x":{"a":[1,2`, `error: unexpected end of JSON input at offset 23 (/x)`},
		{"TrustedDeep", dropMask, Config{Trusted: true, MaxDepth: 6}, deep, `error: exceeded max depth 6 at offset 10 (/x)`},
		{"TrustedLongString", dropMask, Config{Trusted: true, MaxToken: 8}, `{"x":{"a":["0123456789"]},"keep":1}`, `error: a string or number longer than 8 bytes at offset 19 (/x)`},
		{"DropMismatched", dropMask, Config{DropMismatched: true}, `{"obj":5,"x":{"a":{}},"obj":{"a":1,"zz":3,"x":[]}}`, `{"obj":{"a":1}}`},
		{"Wildcard", `{"*":{"a":true},"keep":true}`, Config{}, `{"x":{"a":1,"b":{}},"yy":[{"a":2}],"keep":{}}`, `{"x":{"a":1},"yy":[{"a":2}],"keep":{}}`},
		{"WildcardError", `{"*":{"a":true}}`, Config{}, `{"xyz":{"b":[1,}}`, `error: invalid character '}' looking for beginning of value at offset 15 (/xyz/b)`},
		{"NDJSON", dropMask, Config{NDJSON: true}, "{\"x\":{\"a\":[]},\"keep\":1}\n{\"y\":[{}],\"keep\":2}\n{\"z\":{\"a\":[1,]}}\n", "error: line 3: invalid character ']' looking for beginning of value at offset 57 (/z)"},
		{"NDJSONValid", dropMask, Config{NDJSON: true}, "{\"x\":{\"a\":[]},\"keep\":1}\n{\"y\":[{}],\"keep\":2}\n", "{\"keep\":1}\n{\"keep\":2}\n"},
		{"Arrays", dropMask, Config{Arrays: true}, `[{"x":{},"keep":1},{"yy":[[]],"obj":{"zzz":{}}}]`, `[{"keep":1},{"obj":{}}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, err := compile.Compile([]byte(c.mask), compile.Options{Wildcards: true})
			if err != nil {
				t.Fatal(err)
			}
			var m Machine
			doc := []byte(c.doc)
			m.Reset(prog, c.cfg)
			out, err := m.Append(nil, doc)
			if got := dropResult(out, err); got != c.want {
				t.Fatalf("Append: got\n%s\nwant\n%s", got, c.want)
			}
			for cut := 0; cut <= len(doc); cut++ {
				m.Reset(prog, c.cfg)
				if got := dropResult(writeAll(&m, doc[:cut], doc[cut:])); got != c.want {
					t.Fatalf("split at %d: got\n%s\nwant\n%s", cut, got, c.want)
				}
			}
			bytes := make([][]byte, len(doc))
			for k := range doc {
				bytes[k] = doc[k : k+1]
			}
			m.Reset(prog, c.cfg)
			if got := dropResult(writeAll(&m, bytes...)); got != c.want {
				t.Fatalf("a byte at a time: got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// writeAll writes the windows to m, then closes it.
func writeAll(m *Machine, windows ...[]byte) ([]byte, error) {
	var out []byte
	for _, w := range windows {
		for len(w) > 0 {
			var (
				n   int
				err error
			)
			if out, n, err = m.Write(out, w); err != nil {
				return out, err
			}
			w = w[n:]
		}
	}
	for {
		var (
			done bool
			err  error
		)
		if out, done, err = m.Close(out); done || err != nil {
			return out, err
		}
	}
}

// dropResult is what TestDroppedContainers compares: the output, or the
// error, whose text holds its offset, line and pointer.
func dropResult(out []byte, err error) string {
	if err == nil {
		return string(out)
	}
	var e *Error
	if !errors.As(err, &e) {
		return "not an *Error: " + err.Error()
	}
	return "error: " + e.Error()
}

// TestSiblingObjects masks arrays of objects, which Scanner.Members reads
// on from one element to the next in its batch once it has seen how the
// array's elements are laid out: the output, or the error with its pointer,
// whose index counts the elements, must be main's, whole, split at every
// byte and a byte at a time (the wants were taken from main at 9a7411e).
func TestSiblingObjects(t *testing.T) {
	const mask = `{"jobs":{"name":true,"c":true,"sub":{"a":true}},"keep":true}`
	jobs := func(elems ...string) string { return `{"jobs":[` + strings.Join(elems, ",") + `],"keep":1}` }
	job := `{"name":"n","url":"u","c":1}`
	for _, c := range []struct {
		name string
		cfg  Config
		doc  string
		want string
	}{
		{"Plain", Config{}, jobs(job, job, job, job), `{"jobs":[{"name":"n","c":1},{"name":"n","c":1},{"name":"n","c":1},{"name":"n","c":1}],"keep":1}`},
		{"Empty", Config{}, jobs(job, job, `{}`, `{}`, job, `{}`), `{"jobs":[{"name":"n","c":1},{"name":"n","c":1},{},{},{"name":"n","c":1},{}],"keep":1}`},
		{"Pretty", Config{}, "{\"jobs\" : [\n  {\n    \"name\" : \"a\",\n    \"url\" : \"u\"\n  },\n  {\n    \"name\" : \"b\",\n    \"url\" : \"u\"\n  },\n  {\n    \"name\" : \"c\",\n    \"url\" : \"u\"\n  },\n  {\n    \"c\" : 2\n  }\n]}", `{"jobs":[{"name":"a"},{"name":"b"},{"name":"c"},{"c":2}]}`},
		{"Mixed", Config{}, jobs(job, job, `1`, job, `[{"name":2}]`, job, job, `"s"`, job), `{"jobs":[{"name":"n","c":1},{"name":"n","c":1},1,{"name":"n","c":1},[{"name":2}],{"name":"n","c":1},{"name":"n","c":1},"s",{"name":"n","c":1}],"keep":1}`},
		{"StringsBefore", Config{}, `{"jobs":["a","b","c"],"jobs":[{"name":1},"d",{"c":2},"e"]}`, `{"jobs":["a","b","c"],"jobs":[{"name":1},"d",{"c":2},"e"]}`},
		{"Nested", Config{}, jobs(`{"sub":[{"a":1,"b":2},{"a":3},{"b":4},{"a":[5]}],"name":"x"}`, job, `{"sub":{"a":{}}}`), `{"jobs":[{"sub":[{"a":1},{"a":3},{},{"a":[5]}],"name":"x"},{"name":"n","c":1},{"sub":{"a":{}}}],"keep":1}`},
		{"Dropped", Config{}, jobs(job, `{"xx":{"y":[]},"name":1}`, `{"zz":[{}],"c":[1]}`, `{"yyy":{}}`), `{"jobs":[{"name":"n","c":1},{"name":1},{"c":[1]},{}],"keep":1}`},
		{"ErrorInThird", Config{}, jobs(job, job, `{"name":"n","c":tru}`), `error: invalid character '}' in literal true (expecting 'e') at offset 86 (/jobs/2/c)`},
		{"ErrorInFifthKey", Config{}, jobs(job, job, job, job, `{"name":"n",1:2}`), `error: invalid character '1' looking for beginning of object key string at offset 137 (/jobs/4)`},
		{"ErrorDropped", Config{}, jobs(job, job, job, `{"url":[1,]}`), `error: invalid character ']' looking for beginning of value at offset 106 (/jobs/3/url)`},
		{"ErrorAfter", Config{}, jobs(job, job, job) + `x`, `error: invalid character 'x' after top-level value at offset 106`},
		{"Unclosed", Config{}, `{"jobs":[` + job + `,` + job + `,` + job + `,{"name":"n"`, `error: unexpected end of JSON input at offset 107 (/jobs/3/name)`},
		{"UnclosedArray", Config{}, `{"jobs":[` + job + `,` + job + `,` + job + `,{}`, `error: unexpected end of JSON input at offset 98 (/jobs/3)`},
		{"Deep", Config{MaxDepth: 3}, jobs(job, job, `{"sub":{"a":{}}}`), `error: exceeded max depth 3 at offset 74 (/jobs/2/sub)`},
		{"Trusted", Config{Trusted: true}, jobs(job, job, `{"url":{"a":tru},"c":2}`, job), `{"jobs":[{"name":"n","c":1},{"name":"n","c":1},{"c":2},{"name":"n","c":1}],"keep":1}`},
		{"DropMismatched", Config{DropMismatched: true}, jobs(job, job, `{"sub":1,"c":2}`, `{"sub":{"a":1}}`), `{"jobs":[{"name":"n","c":1},{"name":"n","c":1},{"c":2},{"sub":{"a":1}}],"keep":1}`},
		{"RootArray", Config{Arrays: true}, `[{"keep":1,"x":2},{"keep":2},{"keep":3,"y":{}},{"x":4},{"keep":5}]`, `[{"keep":1},{"keep":2},{"keep":3},{},{"keep":5}]`},
		{"RootArrayError", Config{Arrays: true}, `[{"keep":1},{"keep":2},{"keep":3},{"keep":[}]`, `error: invalid character '}' looking for beginning of value at offset 43 (/3/keep)`},
		{"NDJSON", Config{NDJSON: true}, jobs(job, job, job) + "\n" + jobs(job, job, `{"c":1,"name":[1,}`) + "\n", "error: line 2: invalid character '}' looking for beginning of value at offset 191 (/jobs/2/name)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, err := compile.Compile([]byte(mask), compile.Options{Wildcards: true})
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "RootArray" || c.name == "RootArrayError" {
				if prog, err = compile.Compile([]byte(`{"keep":true}`), compile.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			var m Machine
			doc := []byte(c.doc)
			m.Reset(prog, c.cfg)
			out, err := m.Append(nil, doc)
			if got := dropResult(out, err); got != c.want {
				t.Fatalf("Append: got\n%s\nwant\n%s", got, c.want)
			}
			for cut := 0; cut <= len(doc); cut++ {
				m.Reset(prog, c.cfg)
				if got := dropResult(writeAll(&m, doc[:cut], doc[cut:])); got != c.want {
					t.Fatalf("split at %d: got\n%s\nwant\n%s", cut, got, c.want)
				}
			}
			bytes := make([][]byte, len(doc))
			for k := range doc {
				bytes[k] = doc[k : k+1]
			}
			m.Reset(prog, c.cfg)
			if got := dropResult(writeAll(&m, bytes...)); got != c.want {
				t.Fatalf("a byte at a time: got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
