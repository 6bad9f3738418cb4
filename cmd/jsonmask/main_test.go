package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", "{\n \"a\": 1, \"b\": {\"c\": 2, \"d\": 3}\n}\n")
	bad := write("bad.json", `{"a": 1, "b": {"c" 2}}`)
	arr := write("arr.json", `[{"a": 1, "z": 2}]`)
	maskFile := write("mask.json", `{"a": true, "b": {"c": true}}`)
	lines := write("lines.ndjson", "{\"a\":1,\"x\":0}\n\n[1]\n{\"a\":2}")

	for _, c := range []struct {
		name       string
		args       []string
		stdin      string
		wantOut    string
		wantErr    string // a substring of stderr
		wantStatus int
	}{
		{name: "Stdin", args: []string{"-mask", `{"a":true}`}, stdin: `{"a":1,"b":2}`, wantOut: "{\"a\":1}\n"},
		{name: "Files", args: []string{"-mask-file", maskFile, good, arr}, wantOut: "{\"a\":1,\"b\":{\"c\":2}}\n[{\"a\": 1, \"z\": 2}]\n"},
		{name: "Arrays", args: []string{"-mask-file", maskFile, "-arrays", arr}, wantOut: "[{\"a\":1}]\n"},
		{name: "DropMismatched", args: []string{"-mask", `{"a":{"x":true},"b":true}`, "-drop-mismatched"}, stdin: `{"a":1,"b":2}`, wantOut: "{\"b\":2}\n"},
		{name: "Trusted", args: []string{"-mask", `{"a":true}`, "-trusted"}, stdin: `{"b":[1,2],"a":1}`, wantOut: "{\"a\":1}\n"},
		{name: "NDJSON", args: []string{"-mask", `{"a":true}`, "-ndjson", lines}, wantOut: "{\"a\":1}\n\n[1]\n{\"a\":2}\n"},
		{name: "Rejected", args: []string{"-mask-file", maskFile, bad, good}, wantOut: "{\"a\":1,\"b\":{\n{\"a\":1,\"b\":{\"c\":2}}\n",
			wantErr: "jsonmask: " + bad + ": invalid character '2' after object key at offset 19 (/b/c)\n", wantStatus: 1},
		{name: "RejectedStdin", args: []string{"-mask", `{"a":true}`}, stdin: `{"a":1,}`, wantOut: "{\"a\":1\n",
			wantErr: "jsonmask: stdin: invalid character '}' looking for beginning of object key string at offset 7", wantStatus: 1},
		{name: "MaxDepth", args: []string{"-mask", `{"a":true}`, "-max-depth", "2"}, stdin: `{"b":[[1]]}`, wantErr: "exceeded max depth 2", wantStatus: 1},
		{name: "MissingFile", args: []string{"-mask", `{}`, filepath.Join(dir, "nope.json")}, wantErr: "nope.json: open", wantStatus: 1},
		{name: "NoMask", args: []string{good}, wantErr: "a mask is required", wantStatus: 2},
		{name: "BothMasks", args: []string{"-mask", `{}`, "-mask-file", maskFile}, wantErr: "not both", wantStatus: 2},
		{name: "BadMask", args: []string{"-mask", `{"a":false}`}, wantErr: `jsonmask: mask member "/a" must be true or an object, got false`, wantStatus: 2},
		{name: "BadMaxDepth", args: []string{"-mask", `{}`, "-max-depth", "0"}, wantErr: "depth must be at least 1", wantStatus: 2},
		{name: "BadFlag", args: []string{"-nope"}, wantErr: "flag provided but not defined", wantStatus: 2},
		{name: "DemoArgs", args: []string{"demo", "x"}, wantErr: "usage:", wantStatus: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			if status != c.wantStatus {
				t.Errorf("status %d, want %d (stderr %q)", status, c.wantStatus, stderr.String())
			}
			if c.wantOut != "" && stdout.String() != c.wantOut {
				t.Errorf("stdout %q, want %q", stdout.String(), c.wantOut)
			}
			if !strings.Contains(stderr.String(), c.wantErr) || c.wantErr == "" && stderr.Len() > 0 {
				t.Errorf("stderr %q, want it to hold %q", stderr.String(), c.wantErr)
			}
		})
	}
}

func TestDemo(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run([]string{"demo"}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`"service_item"`, "75 top-level keys", "12071 bytes", "masked:", `{"_id":"flow_9e8455469d105d1d9f8a366f","last_action_number":6858,"members":[`} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "full_name") || strings.Contains(out, "setting_0") {
		t.Errorf("demo output holds a dropped field")
	}
}
