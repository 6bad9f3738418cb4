package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// Option bits of the fuzzers' flags argument.
const (
	optArrays = 1 << iota
	optDropMismatched
	optTrusted
	optNDJSON
	optTokenLimit // strings and numbers of at most 12 bytes
	optInputLimit // inputs of at most 96 bytes
)

func options(flags uint8) ([]jsonmask.Option, reference.Options) {
	ref := reference.Options{Arrays: flags&optArrays != 0, DropMismatched: flags&optDropMismatched != 0, NDJSON: flags&optNDJSON != 0}
	opts := []jsonmask.Option{
		jsonmask.WithArrays(ref.Arrays), jsonmask.WithDropMismatched(ref.DropMismatched),
		jsonmask.WithTrustedInput(flags&optTrusted != 0), jsonmask.WithNDJSON(ref.NDJSON),
	}
	if flags&optTokenLimit != 0 {
		opts = append(opts, jsonmask.WithMaxTokenSize(12))
	}
	if flags&optInputLimit != 0 {
		opts = append(opts, jsonmask.WithMaxInputSize(96))
	}
	return opts, ref
}

// splitReader yields data in reads whose sizes cycle through splits (each
// byte a size from 1 to 256).
type splitReader struct {
	data   []byte
	splits []byte
	k      int
}

func (r *splitReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	size := 1
	if len(r.splits) > 0 {
		size = int(r.splits[r.k%len(r.splits)]) + 1
		r.k++
	}
	n := copy(p[:min(len(p), size)], r.data)
	r.data = r.data[n:]
	return n, nil
}

func streamed(m *jsonmask.Mask, doc, splits []byte) ([]byte, error) {
	var out bytes.Buffer
	_, err := m.Copy(&out, &splitReader{data: doc, splits: splits})
	return out.Bytes(), err
}

// written pushes doc through NewWriter in pieces cut by splits.
func written(m *jsonmask.Mask, doc, splits []byte) ([]byte, error) {
	var out bytes.Buffer
	w := m.NewWriter(&out)
	for k := 0; len(doc) > 0; k++ {
		n := min(len(doc), int(splits[k%len(splits)])+1)
		if _, err := w.Write(doc[:n]); err != nil {
			return out.Bytes(), err
		}
		doc = doc[n:]
	}
	err := w.Close()
	return out.Bytes(), err
}

// masked reports whether doc is a body that a mask with these options masks
// (SPEC B1), and returns it without its byte-order mark.
func masked(doc []byte, arrays bool) ([]byte, bool) {
	body := bytes.TrimPrefix(doc, []byte("\xEF\xBB\xBF"))
	t := bytes.TrimLeft(body, " \t\r\n")
	return body, len(t) > 0 && (t[0] == '{' || t[0] == '[' && arrays)
}

// validJSON is the independent verdict: encoding/json's grammar (and its
// nesting limit, the same as jsonmask's default) plus UTF-8, which
// encoding/json does not check.
func validJSON(b []byte) bool { return json.Valid(b) && utf8.Valid(b) }

// validOutput checks output with fastjson, a third reader, where its own
// nesting limit allows.
func validOutput(out []byte) bool {
	if err := fastjson.ValidateBytes(out); err != nil && !strings.Contains(err.Error(), "too big depth") {
		return false
	}
	return validJSON(out)
}

// ndjsonSeeds are inputs of several lines, for the fuzz targets' NDJSON
// mode.
var ndjsonSeeds = []string{
	"{\"keep\":1,\"x\":{\"a\":[1,2]}}\n{\"x\":\"s\",\"keep\":[1]}\n\n[1]\n{\"keep\":{\"a\":1}}\r\n",
	"{\"keep\":1,\n\"x\":2}\n{\"keep\":2}\n",
	"{\"keep\":1}\n{\"x\":{\"a\":\n1},\"keep\":2}\n",
	"{\"keep\":1} x\n{\"keep\":2}\n",
	"{\"keep\":1}{\"keep\":2}\n",
	"{\"keep\":\"a\nb\"}\n{\"x\":\"c\nd\",\"keep\":3}\n",
	"\xEF\xBB\xBF{\"keep\":1}\n {\"keep\":2} \t\r\n{\"obj\":{\"a\":1,\"b\":2}}",
	"[{\"keep\":1,\"x\":2},{\"keep\":3}]\n{\"keep\":4}\n[{\"keep\":5},\n{}]\n",
	"{\"keep\":1}\n{\"keep\":[1,2",
}

func FuzzMask(f *testing.F) {
	masks, inputs := conformanceSeeds(f)
	suite := suiteSeeds(f)
	for i, in := range append(inputs, suite...) {
		f.Add(in, masks[i%len(masks)], []byte{byte(i), 3, 0}, uint8(i))
	}
	// Dropped members whose values are containers, which the tokenizer's
	// member loop skips itself when the key's length rules it out.
	for i, in := range []string{
		`{"x":{"a":[1,{"b":[[],{}]}],"c":"s"},"keep":"v","obj":{"a":1,"zz":[1,{"q":2,"r":{}}],"y":{"a":[]}}}`,
		`{"s1":{"x":"1","y":[1,2,3]},"s2":{"x":"2"},"s3":[],"keep":true,"s4":{"x":{"y":{}}}}`,
		`{"x":{"q\"k":"a\\\"b\u0041}]"},"\u0078":{"a":1},"ob\u006a":{"a":2,"b":{}},"kxxp":[],"keep":3}`,
		`{"x":{"a":tru},"keep":1}`,
		`{"keep":1,"x":{"a":[1,2`,
		"{\n  \"x\" : {\n    \"y\" : [ 1, 2 ]\n  },\n  \"keep\" : [ 1 ],\n  \"zz\" : { }\n}\n",
	} {
		f.Add([]byte(in), []byte(`{"keep":true,"obj":{"a":true,"zz":{"q":true}}}`), []byte{byte(5*i + 2), 1}, uint8(3*i))
	}
	// Arrays of objects, whose next object the member loop opens itself.
	job := `{"name":"n","url":"u","c":1}`
	for i, in := range []string{
		`{"jobs":[` + strings.Repeat(job+",", 4) + `{},{},` + job + `,1,` + job + `,` + job + `],"keep":1}`,
		`{"jobs":["a","b","c"],"jobs":[{"name":1},"d",{"c":2},"e",` + job + `,` + job + `,` + job + `]}`,
		"{\"jobs\" : [\n  {\n    \"name\" : \"a\"\n  },\n  {\n    \"name\" : \"b\"\n  },\n  {\n    \"c\" : [1]\n  },\n  {\n    \"name\" : {\"x\":1}\n  }\n]}",
		`{"jobs":[` + strings.Repeat(job+",", 3) + `{"name":"n","c":tru}]}`,
	} {
		f.Add([]byte(in), []byte(`{"jobs":{"name":true,"c":true},"keep":true}`), []byte{byte(11*i + 5), 2}, uint8(5*i))
	}
	// Objects of an array holding objects that the mask recurses into,
	// which the member loop goes down into once the machine has opened one.
	el := `{"distance":{"text":"1 m","value":1},"duration":{"text":"2 s","value":{"v":2}},"status":"OK"}`
	for i, in := range []string{
		`{"rows":[` + strings.Repeat(el+",", 4) + `{"distance":{},"duration":{"te\u0078t":1}},` + el + `]}`,
		`{"rows":[` + strings.Repeat(el+",", 4) + `{"distance":{"text":"a","text":{"b":[1]},"x":{"y":[]}},"distance":"s"}]}`,
		`{"rows":[` + strings.Repeat(el+",", 4) + `{"distance":{"text":"1 m","value":tru}}]}`,
		`{"rows":[` + strings.Repeat(el+",", 4) + `[[[[[[[[` + el + `]]]]]]]]]}`,
		"{\"rows\":[" + strings.Repeat("{\n  \"distance\" : {\n    \"text\" : \"a\"\n  },\n  \"status\" : 1\n},", 4) + "{}]}",
	} {
		f.Add([]byte(in), []byte(`{"rows":{"status":true,"distance":{"text":true},"duration":{"text":true,"value":{"w":true}}}}`), []byte{byte(7*i + 3), 2}, uint8(7*i))
	}
	// Child objects whose keys lie on both sides of the 16 bytes that the
	// machine moves for an opened object's key, with dropped members right
	// after the brace.
	long := `{"abcdefghijklmn":{"zz":"x","t":1},"abcdefghijklmno":{"zz":"y","t":2},"s":{"t":"z"}}`
	for i, in := range []string{
		`{"rows":[` + strings.Repeat(long+",", 4) + `{"abcdefghijklmn":{"t":{"u":1}},"abcdefghijklmnp":{"t":3}},` + long + `]}`,
		`{"rows":[` + strings.Repeat(long+",", 4) + `{"abcdefghijklm\u006e":{"zz":1,"t":4},"s":"t"}]}`,
		"{\"rows\":[" + strings.Repeat("{\n  \"abcdefghijklmn\" : {\n    \"zz\" : 1\n  },\n  \"s\" : {\"t\":5}\n},", 4) + "{}]}",
	} {
		f.Add([]byte(in), []byte(`{"rows":{"abcdefghijklmn":{"t":true},"abcdefghijklmno":{"t":true},"s":{"t":true}}}`), []byte{byte(13*i + 7), 2}, uint8(13*i))
	}
	// Short strings and numbers, which the member loop reads itself, and
	// short kept members, which the machine moves 16 bytes at a time.
	short := `{"text":"1 m","value":0,"tex_":"4,490 km","d":{"text":1234567,"value":"x"},"status":"OK"}`
	for i, in := range []string{
		`{"rows":[` + strings.Repeat(short+",", 4) + `{"text":"a\u00e9b","value":-0,"tex_":"é","d":{"text":0.5,"value":12345678},"status":"\""}]}`,
		`{"rows":[` + strings.Repeat(short+",", 4) + `{"tex_":"0123456789abcdef","value":01,"text":"x"}]}`,
		`{"rows":[` + strings.Repeat(short+",", 4) + "{\"text\":\"a\x01\",\"d\":{\"text\":1e5}}]}",
		"{\"rows\" : [ " + strings.Repeat("{\n  \"text\" : \"1 m\",\n  \"value\" : 4489862,\n  \"status\" : \"OK\"\n}, ", 4) + "{\"text\" : 12345678901234567}]}",
	} {
		f.Add([]byte(in), []byte(`{"rows":{"text":true,"status":true,"d":{"text":true}}}`), []byte{byte(3*i + 1), 2}, uint8(11*i))
	}
	// NDJSON, whose lines the machine masks in one pass over the window
	// where the line opens the root: a '\n' inside the root, bytes after
	// it, whitespace after it, a line cut short, the lines after them.
	for i, in := range ndjsonSeeds {
		for _, flags := range []uint8{optNDJSON, optNDJSON | optTrusted, optNDJSON | optArrays} {
			f.Add([]byte(in), []byte(`{"keep":true,"obj":{"a":true}}`), []byte{byte(5*i + 1), 3, byte(flags)}, flags)
		}
	}
	f.Fuzz(func(t *testing.T, doc, mask, splits []byte, flags uint8) {
		opts, ref := options(flags)
		m, err := jsonmask.Compile(mask, opts...)
		if err != nil {
			var me *jsonmask.MaskError
			if !errors.As(err, &me) {
				t.Fatalf("Compile: %T %v", err, err)
			}
			return
		}
		out, err := m.Append(nil, doc)
		if err != nil {
			var se *jsonmask.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > int64(len(doc)) {
				t.Fatalf("Append: %T %v", err, err)
			}
		}

		// SPEC V4: where the default mode accepts the input, the trusted mode
		// writes the same bytes.
		if flags&optTrusted != 0 && flags&(optTokenLimit|optInputLimit) == 0 {
			dopts, _ := options(flags &^ optTrusted)
			if dm, derr := jsonmask.Compile(mask, dopts...); derr == nil {
				if dout, derr := dm.Append(nil, doc); derr == nil && (err != nil || !bytes.Equal(out, dout)) {
					t.Fatalf("trusted: %q, %v\ndefault: %q", out, err, dout)
				}
			}
		}

		// SPEC S1: streaming at the fuzzer's splits, and a byte at a time.
		if sout, serr := streamed(m, doc, splits); (serr != nil) != (err != nil) || err == nil && !bytes.Equal(sout, out) {
			t.Fatalf("Copy at splits %v: %q, %v\nAppend: %q, %v", splits, sout, serr, out, err)
		} else if err != nil && serr.Error() != err.Error() {
			t.Fatalf("Copy error %q, Append error %q", serr, err)
		}
		if len(splits) > 0 {
			if wout, werr := written(m, doc, splits); (werr != nil) != (err != nil) || err == nil && !bytes.Equal(wout, out) {
				t.Fatalf("NewWriter at splits %v: %q, %v\nAppend: %q, %v", splits, wout, werr, out, err)
			}
		}
		if len(doc) <= 512 {
			if sout, serr := streamed(m, doc, nil); (serr != nil) != (err != nil) || err == nil && !bytes.Equal(sout, out) {
				t.Fatalf("Copy a byte at a time: %q, %v\nAppend: %q, %v\ndoc %q mask %q flags %d", sout, serr, out, err, doc, mask, flags)
			}
		}

		if flags&(optTokenLimit|optInputLimit) != 0 {
			return // the reference and the oracles know no limits
		}
		// The reference masker, which decodes into a tree.
		want, werr := reference.Reference(mask, doc, ref)
		if flags&optTrusted == 0 || werr == nil {
			if (werr != nil) != (err != nil) || err == nil && !bytes.Equal(out, want) {
				t.Fatalf("reference: %q, %v\nmachine:   %q, %v", want, werr, out, err)
			}
		}
		if ref.NDJSON || flags&optTrusted != 0 {
			return
		}

		body, isMasked := masked(doc, ref.Arrays)
		if !isMasked {
			if err != nil || !bytes.Equal(out, doc) {
				t.Fatalf("passthrough changed the body: %q, %v", out, err)
			}
			return
		}
		// An independent verdict on validity.
		if valid := validJSON(body); valid != (err == nil) {
			t.Fatalf("encoding/json says valid=%v, jsonmask says %v", valid, err)
		}
		if err != nil {
			return
		}
		if !validOutput(out) {
			t.Fatalf("invalid output %q", out)
		}
		// Masking is idempotent.
		if again, err := m.Append(nil, out); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("masking the output again: %q, %v; want %q", again, err, out)
		}
		// The keep-everything mask gives the compacted input.
		if keepAll := keepAllMask(body); keepAll != nil {
			all, err := jsonmask.Compile(keepAll)
			if err != nil {
				t.Fatalf("keep-all mask %s: %v", keepAll, err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, body); err != nil {
				t.Fatal(err)
			}
			if got, err := all.Append(nil, body); err != nil || !bytes.Equal(got, compact.Bytes()) {
				t.Fatalf("keep-all mask %s: %q, %v; want %q", keepAll, got, err, compact.Bytes())
			}
		}
	})
}

// keepAllMask returns a mask that keeps every member of the object body, or
// nil when body is not an object.
func keepAllMask(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	keys := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		keys[tok.(string)] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	mask := map[string]bool{}
	for k := range keys {
		if strings.ContainsRune(k, utf8.RuneError) {
			return nil // perhaps a lone surrogate that encoding/json replaced: the key cannot be written back
		}
		mask[k] = true
	}
	b, _ := json.Marshal(mask)
	return b
}

func FuzzCompile(f *testing.F) {
	masks, _ := conformanceSeeds(f)
	for _, m := range masks {
		f.Add(m)
	}
	for _, doc := range suiteSeeds(f) {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, mask []byte) {
		m, err := jsonmask.Compile(mask)
		if err != nil {
			var me *jsonmask.MaskError
			if !errors.As(err, &me) || me.Offset < 0 || me.Offset > int64(len(mask)) {
				t.Fatalf("Compile(%q): %T %v", mask, err, err)
			}
			if wellFormedMask(mask) {
				t.Fatalf("Compile(%q) rejected a well-formed mask: %v", mask, err)
			}
			return
		}
		if !wellFormedMask(mask) {
			t.Fatalf("Compile(%q) accepted a mask that is not well formed", mask)
		}
		if _, err := m.Append(nil, []byte(`{"a":[1,{"b":2}],"c":"d"}`)); err != nil {
			t.Fatal(err)
		}
	})
}

// wellFormedMask decides SPEC M1 to M4 and M8 with encoding/json: a valid
// JSON object whose values are true or such objects, with no key twice,
// after an optional UTF-8 byte-order mark.
func wellFormedMask(mask []byte) bool {
	mask = bytes.TrimPrefix(mask, []byte("\xEF\xBB\xBF"))
	if !validJSON(mask) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(mask))
	var walk func() bool
	walk = func() bool { // the value after a key, or the root
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == true {
			return true
		}
		if tok != json.Delim('{') {
			return false
		}
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return false
			}
			key := k.(string)
			if seen[key] || !utf8.ValidString(key) && strings.ContainsRune(key, utf8.RuneError) {
				// encoding/json turns lone surrogates into U+FFFD, which can make
				// two different keys look the same: let jsonmask decide those.
				if seen[key] && !strings.ContainsRune(key, utf8.RuneError) {
					return false
				}
			}
			seen[key] = true
			if !walk() {
				return false
			}
		}
		_, err = dec.Token()
		return err == nil
	}
	if bytes.TrimLeft(mask, " \t\r\n")[0] != '{' {
		return false
	}
	return walk()
}
