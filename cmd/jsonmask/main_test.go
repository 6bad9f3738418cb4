package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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
	badLines := write("bad.ndjson", "{\"a\":1}\n{\"a\":2,\"b\":x}\n{\"a\":3}\n")
	textFile := write("text.txt", "plain text\n")
	empty := write("empty.json", "")
	dashFile := write("-x.json", `{"a":1,"b":2}`)

	runCases(t, []cliCase{
		{name: "Stdin", args: []string{"-mask", `{"a":true}`}, stdin: `{"a":1,"b":2}`, wantOut: "{\"a\":1}\n"},
		{name: "StdinDash", args: []string{"-mask", `{"a":true}`, "-"}, stdin: `{"a":1,"b":2}`, wantOut: "{\"a\":1}\n"},
		{name: "Files", args: []string{"-mask-file", maskFile, good, arr}, wantOut: "{\"a\":1,\"b\":{\"c\":2}}\n[{\"a\": 1, \"z\": 2}]\n"},
		{name: "FlagsAfterFiles", args: []string{good, "-mask-file", maskFile, arr, "-arrays"}, wantOut: "{\"a\":1,\"b\":{\"c\":2}}\n[{\"a\":1}]\n"},
		{name: "DoubleDash", args: []string{"-mask", `{"a":true}`, "--", dashFile}, wantOut: "{\"a\":1}\n"},
		{name: "Arrays", args: []string{"-mask-file", maskFile, "-arrays", arr}, wantOut: "[{\"a\":1}]\n"},
		{name: "DropMismatched", args: []string{"-mask", `{"a":{"x":true},"b":true}`, "-drop-mismatched"}, stdin: `{"a":1,"b":2}`, wantOut: "{\"b\":2}\n"},
		{name: "Trusted", args: []string{"-mask", `{"a":true}`, "-trusted"}, stdin: `{"b":[1,2],"a":1}`, wantOut: "{\"a\":1}\n"},
		{name: "NDJSON", args: []string{"-mask", `{"a":true}`, "-ndjson", lines}, wantOut: "{\"a\":1}\n\n[1]\n{\"a\":2}\n"},
		{name: "NDJSONRejectedThenFile", args: []string{"-mask", `{"a":true}`, "-ndjson", badLines, lines},
			wantOut: "{\"a\":1}\n{\"a\":2\n{\"a\":1}\n\n[1]\n{\"a\":2}\n",
			wantErr: "jsonmask: " + badLines + ": line 2: invalid character 'x' looking for beginning of value at offset 19 (/b)\n", wantStatus: 1},
		{name: "Rejected", args: []string{"-mask-file", maskFile, bad, good}, wantOut: "{\"a\":1,\"b\":{\n{\"a\":1,\"b\":{\"c\":2}}\n",
			wantErr: "jsonmask: " + bad + ": invalid character '2' after object key at offset 19 (/b/c)\n", wantStatus: 1},
		{name: "RejectedStdin", args: []string{"-mask", `{"a":true}`}, stdin: `{"a":1,}`, wantOut: "{\"a\":1\n",
			wantErr: "jsonmask: stdin: invalid character '}' looking for beginning of object key string at offset 7\n", wantStatus: 1},
		{name: "PassthroughEndsWithNewline", args: []string{"-mask", `{}`, textFile}, wantOut: "plain text\n"},
		{name: "PassthroughWithoutNewline", args: []string{"-mask", `{}`}, stdin: "[1, 2]", wantOut: "[1, 2]\n"},
		{name: "EmptyInput", args: []string{"-mask", `{}`, empty, empty}, wantOut: ""},
		{name: "EmptyStdin", args: []string{"-mask", `{}`}, wantOut: ""},
		{name: "Strict", args: []string{"-mask", `{}`, "-strict", textFile}, wantErr: "jsonmask: " + textFile + ": body is not a JSON object: first byte 'p' at offset 0\n", wantStatus: 1},
		{name: "StrictEmpty", args: []string{"-mask", `{}`, "-strict"}, wantErr: "jsonmask: stdin: empty body at offset 0\n", wantStatus: 1},
		{name: "MaxInput", args: []string{"-mask", `{"a":true}`, "-max-input", "5"}, stdin: `{"a":1,"b":2}`, wantOut: "{\n", wantErr: "input longer than 5 bytes at offset 5", wantStatus: 1},
		{name: "MaxToken", args: []string{"-mask", `{"a":true}`, "-max-token", "4"}, stdin: `{"a":"12345"}`, wantOut: "{\"a\":\n", wantErr: "at offset 9 (/a)", wantStatus: 1},
		{name: "Buffer", args: []string{"-mask", `{"a":true}`, "-buffer", "1"}, stdin: `{"a":1,"b":2}`, wantOut: "{\"a\":1}\n"},
		{name: "MaxDepth", args: []string{"-mask", `{"a":true}`, "-max-depth", "2"}, stdin: `{"b":[[1]]}`, wantOut: "{\n", wantErr: "exceeded max depth 2", wantStatus: 1},
		{name: "MissingFile", args: []string{"-mask", `{}`, filepath.Join(dir, "nope.json")}, wantErr: "nope.json: no such file or directory\n", wantStatus: 1},
		{name: "NoMask", args: []string{good}, wantErr: "jsonmask: a mask is required: -mask JSON, -mask-file FILE or -fields TEXT\nrun 'jsonmask -h' for usage\n", wantStatus: 2},
		{name: "BothMasks", args: []string{"-mask", `{}`, "-mask-file", maskFile}, wantErr: "give one of -mask, -mask-file and -fields", wantStatus: 2},
		{name: "MaskFileMissing", args: []string{"-mask-file", filepath.Join(dir, "nope.json")}, wantErr: "jsonmask: -mask-file: no such file or directory\n", wantStatus: 2},
		{name: "BadMask", args: []string{"-mask", `{"a":false}`}, wantErr: "jsonmask: mask member \"/a\" must be true or an object, got false\nrun 'jsonmask -h' for usage\n", wantStatus: 2},
		{name: "BadMaxDepth", args: []string{"-mask", `{}`, "-max-depth", "0"}, wantErr: "jsonmask: -max-depth must be at least 1, got 0\n", wantStatus: 2},
		{name: "BadMaxInput", args: []string{"-mask", `{}`, "-max-input", "-1"}, wantErr: "jsonmask: -max-input must be at least 0, got -1\n", wantStatus: 2},
		{name: "BadBuffer", args: []string{"-mask", `{}`, "-buffer", "0"}, wantErr: "jsonmask: -buffer must be at least 1, got 0\n", wantStatus: 2},
		{name: "BadFlag", args: []string{"-nope"}, wantErr: "jsonmask: flag provided but not defined: -nope\nrun 'jsonmask -h' for usage\n", wantStatus: 2},
		{name: "BadFlagValue", args: []string{"-max-depth", "x"}, wantErr: "jsonmask: invalid value \"x\" for flag -max-depth: parse error\nrun 'jsonmask -h' for usage\n", wantStatus: 2},
		{name: "Help", args: []string{"-h"}, wantOut: "usage: jsonmask [flags] [FILE ...]", outHas: true},
		{name: "HelpAfterFile", args: []string{good, "--help"}, wantOut: "-unbuffered", outHas: true},
		{name: "Version", args: []string{"-version"}, wantOut: "jsonmask ", outHas: true},
		{name: "DemoArgs", args: []string{"demo", "x"}, wantErr: "jsonmask: demo takes no arguments, got \"x\"\nrun 'jsonmask demo -h' for usage\n", wantStatus: 2},
		{name: "DemoHelp", args: []string{"demo", "-h"}, wantOut: "usage: jsonmask demo", outHas: true},
	})
}

// cliCase is a run of the command, and what it must give.
type cliCase struct {
	name       string
	args       []string
	stdin      string
	wantOut    string // stdout
	outHas     bool   // wantOut is a part of stdout, not all of it
	wantErr    string // a part of stderr; "" for none
	wantStatus int
}

// runCases runs each case as a subtest. Whatever the case, no "CANARY"
// (which test documents put in the values their masks drop) may be in
// stdout or stderr, and a -json run that succeeds writes JSON.
func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			out := stdout.String()
			if status != c.wantStatus {
				t.Errorf("status %d, want %d (stderr %q)", status, c.wantStatus, stderr.String())
			}
			if c.outHas && !strings.Contains(out, c.wantOut) {
				t.Errorf("stdout %q, want it to hold %q", out, c.wantOut)
			} else if !c.outHas && out != c.wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, c.wantOut)
			}
			if c.wantErr == "" && stderr.Len() > 0 || !strings.Contains(stderr.String(), c.wantErr) {
				t.Errorf("stderr %q, want it to hold %q", stderr.String(), c.wantErr)
			}
			onePrefix(t, stderr.String())
			if strings.Contains(out+stderr.String(), "CANARY") {
				t.Errorf("a dropped value got out: stdout %q, stderr %q", out, stderr.String())
			}
			if slices.Contains(c.args, "-json") && status == 0 && !json.Valid(stdout.Bytes()) {
				t.Errorf("not JSON: %s", out)
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

// TestUnbuffered: with -unbuffered each NDJSON line is written as soon as it
// is masked, before the next one arrives, as a `tail -f` pipeline needs.
func TestUnbuffered(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run([]string{"-mask", `{"a":true}`, "-ndjson", "-unbuffered"}, inR, outW, io.Discard)
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	for i := range 3 {
		fmt.Fprintf(inW, "{\"a\":%d,\"b\":\"dropped\"}\n", i)
		got := make(chan string, 1)
		go func() { s, _ := lines.ReadString('\n'); got <- s }()
		want := fmt.Sprintf("{\"a\":%d}\n", i)
		select {
		case s := <-got:
			if s != want {
				t.Fatalf("line %d = %q, want %q", i, s, want)
			}
		case <-time.After(10 * time.Second): // a deadline for a hang, not a speed test
			t.Fatalf("line %d did not come out before the next line was sent", i)
		}
	}
	inW.Close()
	if status := <-done; status != 0 {
		t.Fatalf("status %d", status)
	}
}
