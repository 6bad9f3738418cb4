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
		{"DeepByOne", dropMask, Config{MaxDepth: 8}, deep, `error: exceeded max depth 8 at offset 12 (/x)`},
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
		t.Run(c.name, func(t *testing.T) { checkSplits(t, c.mask, c.cfg, c.doc, c.want) })
	}
}

// checkSplits masks doc by mask with cfg whole, split in two at every byte,
// and a byte at a time, with one Machine reset between the ways (so that
// what its Scanner learned carries over, as in a server), and wants the
// same result each way: the output, or the error as dropResult gives it.
func checkSplits(t *testing.T, mask string, cfg Config, doc, want string) {
	t.Helper()
	prog, err := compile.Compile([]byte(mask), compile.Options{Wildcards: true})
	if err != nil {
		t.Fatal(err)
	}
	var m Machine
	src := []byte(doc)
	m.Reset(prog, cfg)
	out, err := m.Append(nil, src)
	if got := dropResult(out, err); got != want {
		t.Fatalf("Append: got\n%s\nwant\n%s", got, want)
	}
	for cut := 0; cut <= len(src); cut++ {
		m.Reset(prog, cfg)
		if got := dropResult(writeAll(&m, src[:cut], src[cut:])); got != want {
			t.Fatalf("split at %d: got\n%s\nwant\n%s", cut, got, want)
		}
	}
	bytes := make([][]byte, len(src))
	for k := range src {
		bytes[k] = src[k : k+1]
	}
	m.Reset(prog, cfg)
	if got := dropResult(writeAll(&m, bytes...)); got != want {
		t.Fatalf("a byte at a time: got\n%s\nwant\n%s", got, want)
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
			mask := mask
			if c.name == "RootArray" || c.name == "RootArrayError" {
				mask = `{"keep":true}`
			}
			checkSplits(t, mask, c.cfg, c.doc, c.want)
		})
	}
}

// TestMaskedChildObjects masks arrays of objects whose members hold objects
// that the mask recurses into, as google-maps' elements hold "distance" and
// "duration": once the machine has opened such a member's object itself, it
// names its Head to Scanner.Members (Descents), which then goes down into it
// and back up in its batch. Every document repeats its elements, so that the
// heads are learned and the later ones are read that way, with the odd
// element (empty, escaped, duplicate, invalid, cut, too deep, too long) among
// them; KeptObjects holds objects kept whole beside one masked, whose heads
// share the Descents' slots. The output, or the error with its offset,
// message and pointer, must be main's, whole, split at every byte and a byte
// at a time; the Machine is reused from one way to the next, so that the
// later ways go down from the start. Each want was taken from main at
// b49e070, where the same cases pass.
func TestMaskedChildObjects(t *testing.T) {
	const mask = `{"rows":{"elements":{"status":true,"distance":{"text":true},"duration":{"text":true,"value":true},"deep":{"a":{"b":{"c":true}}}}},"keep":true}`
	rows := func(elems ...string) string {
		return `{"rows":[{"elements":[` + strings.Join(elems, ",") + `]}],"keep":1}`
	}
	el := `{"distance":{"text":"1 m","value":1},"duration":{"text":"2 s","value":2},"status":"OK"}`
	many := func(last string) string { return rows(el, el, el, el, last, el) }
	for _, c := range []struct {
		name string
		mask string
		cfg  Config
		doc  string
		want string
	}{
		{"Plain", mask, Config{}, many(el), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"Empty", mask, Config{}, many(`{"distance":{},"duration":{},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{},"duration":{},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"EmptyPretty", mask, Config{}, many(`{"distance":{ },"duration":{  },"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{},"duration":{},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"Pretty", mask, Config{}, "{\"rows\" : [ {\n  \"elements\" : [ " + strings.Repeat("{\n    \"distance\" : {\n      \"text\" : \"1 m\",\n      \"value\" : 1\n    },\n    \"duration\" : {\n      \"text\" : \"2 s\",\n      \"value\" : 2\n    },\n    \"status\" : \"OK\"\n  }, ", 5) + "{ }\n] } ]\n}", `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{}]}]}`},
		{"EscapedKeyInside", mask, Config{}, many(`{"distance":{"te\u0078t":"e","value":1},"duration":{"\u0074ext":"f","value":2},"status":"OK"}`), "{\"rows\":[{\"elements\":[{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"te\\u0078t\":\"e\"},\"duration\":{\"\\u0074ext\":\"f\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"}]}],\"keep\":1}"},
		{"EscapedKeyOutside", mask, Config{}, many(`{"dist\u0061nce":{"text":"e","value":1},"duration":{"text":"f","value":2},"status":"OK"}`), "{\"rows\":[{\"elements\":[{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"},{\"dist\\u0061nce\":{\"text\":\"e\"},\"duration\":{\"text\":\"f\",\"value\":2},\"status\":\"OK\"},{\"distance\":{\"text\":\"1 m\"},\"duration\":{\"text\":\"2 s\",\"value\":2},\"status\":\"OK\"}]}],\"keep\":1}"},
		{"Duplicate", mask, Config{}, many(`{"distance":{"text":"a","text":"b","value":1},"distance":{"text":"c"},"duration":{"text":"2 s","value":2},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"a","text":"b"},"distance":{"text":"c"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"DroppedInside", mask, Config{}, many(`{"distance":{"text":"a","x":{"y":[1,{}]},"value":[1]},"duration":{"zz":[],"text":"2 s","value":{"v":[]}},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"a"},"duration":{"text":"2 s","value":{"v":[]}},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"KeptContainerInside", mask, Config{}, many(`{"distance":{"text":{"a":[1]},"value":1},"duration":{"text":[1,{"b":2}],"value":2},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":{"a":[1]}},"duration":{"text":[1,{"b":2}],"value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"DeepRepeated", mask, Config{}, rows(`{"deep":{"a":{"b":{"c":1,"d":2},"x":3}},"status":"OK"}`, `{"deep":{"a":{"b":{"c":1,"d":2},"x":3}},"status":"OK"}`, `{"deep":{"a":{"b":{"c":1,"d":2},"x":3}},"status":"OK"}`, `{"deep":{"a":{"b":{"c":1,"d":2},"x":3}},"status":"OK"}`), `{"rows":[{"elements":[{"deep":{"a":{"b":{"c":1}}},"status":"OK"},{"deep":{"a":{"b":{"c":1}}},"status":"OK"},{"deep":{"a":{"b":{"c":1}}},"status":"OK"},{"deep":{"a":{"b":{"c":1}}},"status":"OK"}]}],"keep":1}`},
		{"ArrayValue", mask, Config{}, many(`{"distance":[{"text":"a"}],"duration":{"text":"f","value":2},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":[{"text":"a"}],"duration":{"text":"f","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"ScalarValue", mask, Config{}, many(`{"distance":"far","duration":null,"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":"far","duration":null,"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"ScalarValueDropMismatched", mask, Config{DropMismatched: true}, many(`{"distance":"far","duration":{"text":1,"value":{"a":1}},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"duration":{"text":1,"value":{"a":1}},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"DropMismatched", mask, Config{DropMismatched: true}, many(el), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"InvalidInside", mask, Config{}, many(`{"distance":{"text":"1 m","value":tru},"status":"OK"}`), `error: invalid character '}' in literal true (expecting 'e') at offset 411 (/rows/0/elements/4/distance/value)`},
		{"InvalidKeyInside", mask, Config{}, many(`{"distance":{"text":"1 m",1:2},"status":"OK"}`), `error: invalid character '1' looking for beginning of object key string at offset 400 (/rows/0/elements/4/distance)`},
		{"ControlInside", mask, Config{}, many("{\"distance\":{\"text\":\"1\tm\",\"value\":1},\"status\":\"OK\"}"), "error: invalid character '\\t' in string literal at offset 396 (/rows/0/elements/4/distance/text)"},
		{"UTF8Inside", mask, Config{}, many("{\"distance\":{\"text\":\"\xe3\x81(\",\"value\":1},\"status\":\"OK\"}"), "error: invalid UTF-8 byte '\\xe3' in string at offset 395 (/rows/0/elements/4/distance/text)"},
		{"BadDroppedInside", mask, Config{}, many(`{"distance":{"text":"1 m","xx":[1,]},"status":"OK"}`), `error: invalid character ']' looking for beginning of value at offset 408 (/rows/0/elements/4/distance/xx)`},
		{"MissingComma", mask, Config{}, many(`{"distance":{"text":"1 m" "value":1},"status":"OK"}`), `error: invalid character '"' after object key:value pair at offset 400 (/rows/0/elements/4/distance/text)`},
		{"MissingCommaAfter", mask, Config{}, many(`{"distance":{"text":"1 m","value":1} "status":"OK"}`), `error: invalid character '"' after object key:value pair at offset 411 (/rows/0/elements/4/distance)`},
		{"ClosedByBracket", mask, Config{}, many(`{"distance":{"text":"1 m","value":1],"status":"OK"}`), `error: invalid character ']' after object key:value pair at offset 409 (/rows/0/elements/4/distance/value)`},
		{"Unclosed", mask, Config{}, rows(el, el, el, `{"distance":{"text":"1 m","value":1`), `error: invalid character ']' after object key:value pair at offset 321 (/rows/0/elements/3/distance/value)`},
		{"UnclosedAfterKey", mask, Config{}, rows(el, el, el, `{"distance":{"text":`), `error: invalid character ']' looking for beginning of value at offset 306 (/rows/0/elements/3/distance/text)`},
		{"UnclosedInside", mask, Config{}, rows(el, el, el, `{"distance":{`), `error: invalid character ']' looking for beginning of object key string at offset 299 (/rows/0/elements/3/distance)`},
		{"LongStringInside", mask, Config{MaxToken: 10}, many(`{"distance":{"text":"0123456789ab","value":1},"status":"OK"}`), `error: a string or number longer than 10 bytes at offset 404 (/rows/0/elements/4/distance/text)`},
		{"LongKeyInside", mask, Config{MaxToken: 10}, many(`{"distance":{"abcdefghijkl":1,"value":1},"status":"OK"}`), `error: a string or number longer than 10 bytes at offset 397 (/rows/0/elements/4/distance)`},
		{"LongNumberInside", mask, Config{MaxToken: 10}, many(`{"distance":{"text":1,"value":123456789012},"status":"OK"}`), `error: a string or number longer than 10 bytes at offset 414 (/rows/0/elements/4/distance/value)`},
		{"MaxDepth", mask, Config{MaxDepth: 5}, many(el), `error: exceeded max depth 5 at offset 34 (/rows/0/elements/0/distance)`},
		{"MaxDepthInside", mask, Config{MaxDepth: 6}, many(`{"distance":{"text":{},"value":1},"status":"OK"}`), `error: exceeded max depth 6 at offset 394 (/rows/0/elements/4/distance/text)`},
		{"MaxDepthAliased", mask, Config{MaxDepth: 13}, rows(el, el, el, el, `[[[[[[[[`+el+`]]]]]]]]`), `error: exceeded max depth 13 at offset 394 (/rows/0/elements/4/0/0/0/0/0/0/0/0/distance)`},
		{"MaxDepthAliasedEnough", mask, Config{MaxDepth: 14}, rows(el, el, el, el, `[[[[[[[[`+el+`,`+el+`]]]]]]]]`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},[[[[[[[[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]]]]]]]]]}],"keep":1}`},
		{"Trusted", mask, Config{Trusted: true}, many(`{"distance":{"text":"a","x":{"y":tru},"value":1},"duration":{"text":"f","value":2},"status":"OK"}`), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"},{"distance":{"text":"a"},"duration":{"text":"f","value":2},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s","value":2},"status":"OK"}]}],"keep":1}`},
		{"TrustedUnclosed", mask, Config{Trusted: true}, rows(el, el, el, `{"distance":{"text":"1 m","value":1`), `error: invalid character ']' after object key:value pair at offset 321 (/rows/0/elements/3/distance/value)`},
		{"SharedHeads", `{"a":{"d":{"x":true}},"b":{"d":{"y":true}},"c":{"d":true}}`, Config{}, `{"a":[` + strings.Repeat(`{"d":{"x":1,"y":2},"e":1},`, 4) + `{"d":{"x":1,"y":2}}],"b":[` + strings.Repeat(`{"d":{"x":1,"y":2},"e":1},`, 4) + `{"d":{"x":1,"y":2}}],"c":[` + strings.Repeat(`{"d":{"x":1,"y":2},"e":1},`, 4) + `{"d":{"x":1,"y":2}}],"a":[` + strings.Repeat(`{"d":{"x":1,"y":2},"e":1},`, 3) + `{"d":{"x":1,"y":[}}]}`, `error: invalid character '}' looking for beginning of value at offset 491 (/a/3/d/y)`},
		{"AlikeChildren", `{"r":{"distance":{"text":true},"duration":{"value":true}}}`, Config{}, `{"r":[` + strings.Repeat(`{"distance":{"text":"a","value":1},"duration":{"text":"b","value":2}},`, 6) + `{"duration":{"text":"b","value":2},"distance":{"text":"a","value":1}}]}`, `{"r":[{"distance":{"text":"a"},"duration":{"value":2}},{"distance":{"text":"a"},"duration":{"value":2}},{"distance":{"text":"a"},"duration":{"value":2}},{"distance":{"text":"a"},"duration":{"value":2}},{"distance":{"text":"a"},"duration":{"value":2}},{"distance":{"text":"a"},"duration":{"value":2}},{"duration":{"value":2},"distance":{"text":"a"}}]}`},
		{"KeptObjects", `{"r":{"a":{"x":true},"b":true,"c":true,"d":true,"e":true,"f":true,"g":true,"h":true,"i":true}}`, Config{}, `{"r":[` + strings.Repeat(`{"a":{"x":1,"y":2},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},`, 5) + `{"i":{"x":[}}]}`, `error: invalid character '}' looking for beginning of value at offset 597 (/r/5/i)`},
		{"KeptObjectsValid", `{"r":{"a":{"x":true},"b":true,"c":true,"d":true,"e":true,"f":true,"g":true,"h":true,"i":true}}`, Config{}, `{"r":[` + strings.Repeat(`{"a":{"x":1,"y":2},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},`, 5) + `{"i":{"x":[]}}]}`, `{"r":[{"a":{"x":1},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},{"a":{"x":1},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},{"a":{"x":1},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},{"a":{"x":1},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},{"a":{"x":1},"b":{"x":1},"c":{"x":1},"d":{"x":1},"e":{"x":1},"f":{"x":1},"g":{"x":1},"h":{"x":1},"i":{"x":1}},{"i":{"x":[]}}]}`},
		{"Wildcard", `{"rows":{"elements":{"*":{"text":true}}}}`, Config{}, many(el), `{"rows":[{"elements":[{"distance":{"text":"1 m"},"duration":{"text":"2 s"},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s"},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s"},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s"},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s"},"status":"OK"},{"distance":{"text":"1 m"},"duration":{"text":"2 s"},"status":"OK"}]}]}`},
		{"WildcardError", `{"rows":{"elements":{"*":{"text":true}}}}`, Config{}, many(`{"distance":{"text":"1 m","value":tru},"status":"OK"}`), `error: invalid character '}' in literal true (expecting 'e') at offset 411 (/rows/0/elements/4/distance/value)`},
		{"NDJSON", mask, Config{NDJSON: true}, many(el) + "\n" + many(el) + "\n" + many(`{"duration":{"text":[1,}}`) + "\n", `error: line 3: invalid character '}' looking for beginning of value at offset 1523 (/rows/0/elements/4/duration/text)`},
		{"RootArray", `{"distance":{"text":true},"status":true}`, Config{Arrays: true}, `[` + strings.Repeat(`{"distance":{"text":"1 m","value":1},"status":"OK"},`, 5) + `{"distance":{"text":"x","value":[}}]`, `error: invalid character '}' looking for beginning of value at offset 294 (/5/distance/value)`},
	} {
		t.Run(c.name, func(t *testing.T) { checkSplits(t, c.mask, c.cfg, c.doc, c.want) })
	}
}
