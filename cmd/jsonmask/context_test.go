package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestContext(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdin string
		args        []string
		status      int
		route       string
		out         string // text output, or a substring of stderr
	}{
		{"Passthrough", `{"a":1,"b":2,"display_instructions_for_model":"be brief"}`, []string{"-mask", `{"a":true}`}, 0, "passthrough", ""},
		{"PassthroughText", `{"a":1,"display_instructions_for_model":"be brief"}`, []string{"-format", "text"}, 0, "", "be brief\n\n{\"a\":1}\n"},
		{"Plaintext", "rate limited\n", []string{"-format", "text"}, 0, "", "rate limited\n"},
		{"Variable", `{"items":[` + strings.Repeat(`{"id":1,"name":"x"},`, 200) + `{"id":2}]}`, []string{"-budget", "100", "-store", dir, "-name", "items"}, 0, "variable", ""},
		{"Rejected", `{"a":1 x}`, []string{"-mask", `{"a":true}`}, 1, "", "jsonmask: stdin: invalid character after object key:value pair at offset 7 (/a)\n"},
		{"BadFormat", `{}`, []string{"-format", "xml"}, 2, "", "-format must be json or text"},
		{"BadEncoding", `{}`, []string{"-encoding", "p99"}, 2, "", "unknown encoding"},
		{"BadBudget", `{}`, []string{"-budget", "-1"}, 2, "", "-budget must be at least 0 (0: off), got -1"},
		// 0 turns the budget off, as in jsonmask mcp's configuration.
		{"BudgetOff", `{"items":[` + strings.Repeat(`{"id":1,"name":"x"},`, 2000) + `{"id":2}]}`, []string{"-budget", "0"}, 0, "passthrough", ""},
		// Without a mask, JSON that is not valid is plaintext, and the
		// result says it is invalid, and where.
		{"InvalidJSON", `{"a":1 x}`, []string{"-budget", "1"}, 0, "plaintext", `"hints":[{"pointer":"","hint":"the response starts like JSON but is not valid JSON: invalid character 'x' after object key:value pair at offset 7`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(append([]string{"context"}, tc.args...), strings.NewReader(tc.stdin), &stdout, &stderr)
			if status != tc.status {
				t.Fatalf("status %d, stderr %s", status, stderr.String())
			}
			switch {
			case tc.route != "":
				var res map[string]any
				if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
					t.Fatalf("not JSON: %v: %s", err, stdout.String())
				}
				if res["route"] != tc.route {
					t.Fatalf("route %v", res["route"])
				}
				for _, k := range []string{"tokens", "content"} {
					if _, ok := res[k]; !ok {
						t.Fatalf("no %s: %s", k, stdout.String())
					}
				}
				if !strings.Contains(stdout.String(), tc.out) {
					t.Fatalf("stdout %s, want %s in it", stdout.String(), tc.out)
				}
				_, hasVar := res["variable"]
				_, hasSchema := res["schema"]
				if hasVar != (tc.route == "variable") || hasSchema != (tc.route == "variable") {
					t.Fatalf("members that do not apply: %s", stdout.String())
				}
			case tc.status == 0:
				if stdout.String() != tc.out {
					t.Fatalf("got %q want %q", stdout.String(), tc.out)
				}
			default:
				if !strings.Contains(stderr.String(), tc.out) {
					t.Fatalf("stderr %q", stderr.String())
				}
				onePrefix(t, stderr.String())
			}
		})
	}
}

// TestContextLocation: -variable-location makes the model text name the
// variable's file (SPEC C16); without it, the text does not say where the
// store is.
func TestContextLocation(t *testing.T) {
	dir := t.TempDir()
	in := `{"items":[` + strings.Repeat(`{"id":1,"name":"x"},`, 200) + `{"id":2}]}`
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"OffByDefault", nil, false},
		{"On", []string{"-variable-location"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"context", "-budget", "100", "-store", dir, "-name", "items", "-format", "text"}, tc.args...)
			if status := run(args, strings.NewReader(in), &stdout, &stderr); status != 0 {
				t.Fatalf("status %d, stderr %s", status, stderr.String())
			}
			path := filepath.Join(dir, "items.json")
			if got := strings.Contains(stdout.String(), path); got != tc.want {
				t.Fatalf("names %s: %v, want %v:\n%s", path, got, tc.want, stdout.String())
			}
			if strings.Contains(stdout.String(), dir) != tc.want {
				t.Fatalf("the store's directory in the text: %s", stdout.String())
			}
		})
	}
}
