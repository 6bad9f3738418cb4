package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

// TestMaskFlags checks -fields, -wildcards and -print-mask (SPEC T4, L1) on
// the main command.
func TestMaskFlags(t *testing.T) {
	dir := t.TempDir()
	maskFile := filepath.Join(dir, "mask.json")
	if err := os.WriteFile(maskFile, []byte(`{"b": {"*": true}, "a": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const doc = `{"a":1,"b":{"c":2,"*":3},"z":"CANARY"}`
	runCases(t, []cliCase{
		{name: "Fields", args: []string{"-fields", "a,b/c"}, stdin: doc, wantOut: `{"a":1,"b":{"c":2}}` + "\n"},
		{name: "FieldsWildcard", args: []string{"-fields", "b/*"}, stdin: doc, wantOut: `{"b":{"c":2,"*":3}}` + "\n"},
		{name: "FieldsEscapedStar", args: []string{"-fields", `b/\*`}, stdin: doc, wantOut: `{"b":{"*":3}}` + "\n"},
		{name: "JSONStarIsAKey", args: []string{"-mask-file", maskFile}, stdin: doc, wantOut: `{"a":1,"b":{"*":3}}` + "\n"},
		{name: "JSONWildcards", args: []string{"-mask-file", maskFile, "-wildcards"}, stdin: doc, wantOut: `{"a":1,"b":{"c":2,"*":3}}` + "\n"},
		{name: "PrintFields", args: []string{"-fields", " items(id, status),next ,*/x", "-print-mask"},
			wantOut: `{"items":{"id":true,"status":true},"next":true,"*":{"x":true}}` + "\n"},
		{name: "PrintMaskFile", args: []string{"-print-mask", "-mask-file", maskFile, "ignored.json"}, wantOut: `{"b":{"*":true},"a":true}` + "\n"},
		{name: "PrintEscapes", args: []string{"-print-mask", "-fields", `a\,b,"q",\\`}, wantOut: `{"a,b":true,"\"q\"":true,"\\":true}` + "\n"},
		{name: "PrintNoJSONForm", args: []string{"-print-mask", "-fields", `*,\*`}, wantErr: `jsonmask: a mask with both a wildcard and a key named "*" has no JSON form` + "\nrun 'jsonmask -h' for usage\n", wantStatus: 2},
		{name: "FieldsError", args: []string{"-fields", "a(b,c"}, wantErr: "jsonmask: invalid fields mask: unbalanced parentheses: '(' is not closed at offset 1\nrun 'jsonmask -h' for usage\n", wantStatus: 2},
		{name: "FieldsTrailingComma", args: []string{"-fields", "a,b/c,"}, wantErr: "trailing comma at offset 5", wantStatus: 2},
		{name: "FieldsAndMask", args: []string{"-fields", "a", "-mask", `{}`}, wantErr: "give one of -mask, -mask-file and -fields", wantStatus: 2},
	})
}

// TestExplainCommand checks jsonmask explain (SPEC D1) on a document whose
// mask empties objects and meets a scalar.
func TestExplainCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "doc.json")
	doc := `{"id": 1, "items": [{"price": {"currency": "CANARY"}}, {"price": {"amount": 3}}], "owner": "ana", "pw": "CANARY"}`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	const text = `bytes: 113 in, 68 out (60.2%)

matched  absent  scalars  entry
      1       0        0  /id
      1       0        0  /items
      2       0        0  /items/price
      1       1        0  /items/price/amount
      1       0        1  /owner  (its nested mask met scalars)
      0       0        0  /owner/name  (never matched)
      0       1        0  /missing  (never matched)

objects that had members and became {} (keep a field of each, or drop them):
count  path
    1  /items/*/price
`
	const js = `{"masked":true,"bytes":{"in":113,"out":68},"entries":[` +
		`{"entry":"/id","matched":1,"absent":0,"scalars":0},{"entry":"/items","nested":true,"matched":1,"absent":0,"scalars":0},` +
		`{"entry":"/items/price","nested":true,"matched":2,"absent":0,"scalars":0},{"entry":"/items/price/amount","matched":1,"absent":1,"scalars":0},` +
		`{"entry":"/owner","nested":true,"matched":1,"absent":0,"scalars":1},{"entry":"/owner/name","matched":0,"absent":0,"scalars":0},` +
		`{"entry":"/missing","matched":0,"absent":1,"scalars":0}],"emptied":[{"path":"/items/*/price","count":1}]}` + "\n"
	fields := "id,items/price/amount,owner/name,missing"
	runCases(t, []cliCase{
		{name: "Text", args: []string{"explain", "-fields", fields, file}, wantOut: text},
		{name: "Stdin", args: []string{"explain", "-fields", fields}, stdin: doc, wantOut: text},
		{name: "JSON", args: []string{"explain", file, "-json", "-fields", fields}, wantOut: js},
		{name: "Passthrough", args: []string{"explain", "-fields", "a"}, stdin: `[1]`,
			wantOut: "bytes: 3 in, 3 out (100.0%)\nthe input is not a JSON object: it passes through unmasked (SPEC B3)\n\nmatched  absent  scalars  entry\n      0       0        0  /a\n\nno object that had members became {}\n"},
		{name: "Rejected", args: []string{"explain", "-fields", "a"}, stdin: `{"a":[1,}`, wantErr: "jsonmask: stdin: invalid character '}' looking for beginning of value at offset 8 (/a)\n", wantStatus: 1},
		{name: "Missing", args: []string{"explain", "-fields", "a", filepath.Join(dir, "nope.json")}, wantErr: "nope.json: no such file or directory\n", wantStatus: 1},
		{name: "MaxInput", args: []string{"explain", "-fields", "a", "-max-input", "4"}, stdin: `{"a":1}`, wantErr: "input longer than 4 bytes at offset 4", wantStatus: 1},
		{name: "NoMask", args: []string{"explain", file}, wantErr: "a mask is required", wantStatus: 2},
		{name: "TwoFiles", args: []string{"explain", "-fields", "a", file, file}, wantErr: "jsonmask: one input at a time, got 2\nrun 'jsonmask explain -h' for usage\n", wantStatus: 2},
		{name: "PrintMask", args: []string{"explain", "-fields", "a/b", "-print-mask"}, wantOut: `{"a":{"b":true}}` + "\n"},
		{name: "Help", args: []string{"explain", "-h"}, wantOut: explainUsage, outHas: true},
	})
}

// TestPathsCommand checks jsonmask paths (SPEC D2), with and without a mask,
// as a table and as JSON.
func TestPathsCommand(t *testing.T) {
	const doc = `{"id": 7, "pw": "CANARY", "items": [{"id": 1}, {"id": 2, "x": null}], "k\nl": true}`
	runCases(t, []cliCase{
		{name: "NoMask", args: []string{"paths"}, stdin: doc, wantOut: `bytes   share  count  types    path
   71  100.0%      1  object   (root)
   28   39.4%      1  array    /items
   25   35.2%      2  object   /items/*
    8   11.3%      1  string   /pw
    4    5.6%      1  null     /items/*/x
    4    5.6%      1  boolean  "/k\nl"
    2    2.8%      2  number   /items/*/id
    1    1.4%      1  number   /id
`},
		{name: "Mask", args: []string{"paths", "-fields", "id,items/id"}, stdin: doc, wantOut: `bytes   share  count  types    mask     kept  path
   71  100.0%      1  object   masked     36  (root)
   28   39.4%      1  array    masked     19  /items
   25   35.2%      2  object   masked     16  /items/*
    8   11.3%      1  string   dropped     0  /pw
    4    5.6%      1  null     dropped     0  /items/*/x
    4    5.6%      1  boolean  dropped     0  "/k\nl"
    2    2.8%      2  number   kept        2  /items/*/id
    1    1.4%      1  number   kept        1  /id
`},
		{name: "JSON", args: []string{"paths", "-json", "-fields", "items/x"}, stdin: `{"items":[{"x":1},{"x":"a"}]}`,
			wantOut: `[{"path":"","count":1,"types":["object"],"bytes":29,"share":1,"mask":"masked","kept_bytes":29},` +
				`{"path":"/items","count":1,"types":["array"],"bytes":19,"share":0.6551724137931034,"mask":"masked","kept_bytes":19},` +
				`{"path":"/items/*","count":2,"types":["object"],"bytes":16,"share":0.5517241379310345,"mask":"masked","kept_bytes":16},` +
				`{"path":"/items/*/x","count":2,"types":["string","number"],"bytes":4,"share":0.13793103448275862,"mask":"kept","kept_bytes":4}]` + "\n"},
		{name: "JSONNoMask", args: []string{"paths", "-json"}, stdin: `[true]`,
			wantOut: `[{"path":"","count":1,"types":["array"],"bytes":6,"share":1},{"path":"/*","count":1,"types":["boolean"],"bytes":4,"share":0.6666666666666666}]` + "\n"},
		{name: "NDJSON", args: []string{"paths", "-ndjson", "-json"}, stdin: "{\"a\":1}\n\n{\"a\":22}\n",
			wantOut: `[{"path":"","count":2,"types":["object"],"bytes":15,"share":1},{"path":"/a","count":2,"types":["number"],"bytes":3,"share":0.2}]` + "\n"},
		{name: "NotJSON", args: []string{"paths"}, stdin: "<html>", wantErr: "jsonmask: stdin: invalid character '<' looking for beginning of value at offset 0\n", wantStatus: 1},
		{name: "Rejected", args: []string{"paths", "-fields", "a", "-strict"}, stdin: "[1]", wantErr: "body is not a JSON object", wantStatus: 1},
		{name: "Help", args: []string{"paths", "-h"}, wantOut: pathsUsage, outHas: true},
	})
}

// TestContextFields checks that jsonmask context takes a text mask (SPEC
// C12 names -fields) and -print-mask, as every command that masks does.
func TestContextFields(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    []string
		wantOut string
	}{
		{"Fields", []string{"context", "-fields", "a,c/d", "-format", "text"}, `{"a":1,"c":{"d":2}}` + "\n"},
		{"PrintMask", []string{"context", "-fields", "a,c/d", "-print-mask"}, `{"a":true,"c":{"d":true}}` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(c.args, strings.NewReader(`{"a":1,"b":"CANARY","c":{"d":2,"e":"CANARY"}}`), &stdout, &stderr)
			if status != 0 || stdout.String() != c.wantOut {
				t.Errorf("status %d, stdout %q, stderr %q; want %q", status, stdout.String(), stderr.String(), c.wantOut)
			}
		})
	}
}

// TestExplainTokens: -tokens counts the input and the masked output with the
// model layer's tokenizer, exactly, in either encoding; a bad -encoding is a
// usage error.
func TestExplainTokens(t *testing.T) {
	doc, err := os.ReadFile("demo/flow.json")
	if err != nil {
		t.Fatal(err)
	}
	m := jsonmask.MustCompileFields("_id,members/email")
	masked, err := m.Append(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		t.Run(enc, func(t *testing.T) {
			tk, err := toolresult.NewTokenizer(enc)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if status := run([]string{"explain", "-json", "-tokens", "-encoding", enc, "-fields", "_id,members/email", "demo/flow.json"}, nil, &stdout, &stderr); status != 0 {
				t.Fatalf("status %d: %s", status, stderr.String())
			}
			var got struct {
				Tokens struct {
					In, Out  int
					Encoding string
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if in, out := tk.Count(doc, -1), tk.Count(masked, -1); got.Tokens.In != in || got.Tokens.Out != out || got.Tokens.Encoding != enc {
				t.Fatalf("tokens = %+v, want in %d, out %d, %s", got.Tokens, in, out, enc)
			}
			if got.Tokens.Out >= got.Tokens.In {
				t.Fatalf("the mask kept %d of %d tokens", got.Tokens.Out, got.Tokens.In)
			}
		})
	}
	t.Run("BadEncoding", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if status := run([]string{"explain", "-tokens", "-encoding", "p50k", "-fields", "a", "demo/flow.json"}, nil, &stdout, &stderr); status != 2 ||
			stderr.String() != "jsonmask: unknown encoding \"p50k\": want o200k_base or cl100k_base\nrun 'jsonmask explain -h' for usage\n" {
			t.Fatalf("status %d, stderr %q", status, stderr.String())
		}
	})
}
