package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/internal/s3test"
)

// TestQuery stores a variable with jsonmask context and queries it with
// jsonmask query (SPEC C17), on a directory and on a file:// URL.
func TestQuery(t *testing.T) {
	dir := t.TempDir()
	body := `{"items":[` + strings.Repeat(`{"id":1,"cat":"a","n":2},{"id":2,"cat":"b","n":5},`, 200) + `{"id":3,"cat":"a","n":1}]}`
	var stdout, stderr bytes.Buffer
	if status := run([]string{"context", "-budget", "100", "-store", dir}, strings.NewReader(body), &stdout, &stderr); status != 0 {
		t.Fatalf("context: %d %s", status, stderr.String())
	}
	var ctxRes struct {
		Variable struct{ Name string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &ctxRes); err != nil {
		t.Fatalf("context's output: %v\n%s", err, stdout.String())
	}
	name := ctxRes.Variable.Name
	if name == "" {
		t.Fatalf("no variable: %s", stdout.String())
	}
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		out    string // stdout, or a substring of stderr
	}{
		{"Count", []string{"-store", dir, "-format", "text", name, ".items | length"}, 0, "401\n"},
		{"FileURL", []string{"-store", "file://" + dir, "-format", "text", name, ".items | length"}, 0, "401\n"},
		{"Pointer", []string{"-store", dir, "-pointer", "/items/2", "-format", "text", name, ".cat"}, 0, "\"a\"\n"},
		{"GroupBy", []string{"-store", dir, "-format", "text", name, `.items | group_by(.cat) | map({cat: .[0].cat, total: (map(.n) | add)}) | max_by(.total)`}, 0, `{"cat":"b","total":1000}` + "\n"},
		{"JSON", []string{"-store", dir, name, ".items | length"}, 0, `{"route":"passthrough","tokens":{"budget":7000,"context":1,"instructions":0},"content":401}` + "\n"},
		{"OverBudget", []string{"-store", dir, "-budget", "50", name, ".items"}, 0, `"route":"variable"`},
		{"Syntax", []string{"-store", dir, name, ".items | map("}, 1, "syntax error at line 1"},
		{"NoVariable", []string{"-store", dir, "var_000000000000", "."}, 1, "no such variable"},
		{"Time", []string{"-store", dir, "-time", "200ms", name, "last(range(1e12))"}, 1, "limit time"},
		{"NoProgram", []string{"-store", dir, name}, 2, "want NAME and PROGRAM"},
		{"BadStore", []string{"-store", "nosuch://x?key=HUSH", name, "."}, 1, "nosuch://x?…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(append([]string{"query"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
			if status != tc.status {
				t.Fatalf("status %d, stdout %s stderr %s", status, stdout.String(), stderr.String())
			}
			switch {
			case tc.status == 0 && strings.HasPrefix(tc.out, `"route"`):
				if !strings.Contains(stdout.String(), tc.out) {
					t.Fatalf("got %.300s", stdout.String())
				}
			case tc.status == 0:
				if stdout.String() != tc.out {
					t.Fatalf("got %q want %q", stdout.String(), tc.out)
				}
			default:
				if !strings.Contains(stderr.String(), tc.out) || strings.Contains(stderr.String(), "HUSH") {
					t.Fatalf("stderr %q", stderr.String())
				}
				onePrefix(t, stderr.String())
			}
		})
	}
}

// TestQueryS3: jsonmask context and jsonmask query on one S3 store URL
// (SPEC C15): the variable one stores, the other queries.
func TestQueryS3(t *testing.T) {
	srv := s3test.Start(t, t.TempDir(), "")
	body := `{"items":[` + strings.Repeat(`{"id":1,"cat":"a","n":2},{"id":2,"cat":"b","n":5},`, 200) + `{"id":3,"cat":"a","n":1}]}`
	var stdout, stderr bytes.Buffer
	if status := run([]string{"context", "-budget", "100", "-store", srv.URL()}, strings.NewReader(body), &stdout, &stderr); status != 0 {
		t.Fatalf("context: %d %s", status, stderr.String())
	}
	var res struct {
		Variable struct{ Name, Path string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("context's output: %v\n%s", err, stdout.String())
	}
	if res.Variable.Path != "s3://vars/"+res.Variable.Name+".json" {
		t.Fatalf("variable %+v", res.Variable)
	}
	stdout.Reset()
	if status := run([]string{"query", "-store", srv.URL(), "-format", "text", res.Variable.Name, "[.items[].n] | add"}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("query: %d %s", status, stderr.String())
	}
	if stdout.String() != "1401\n" {
		t.Fatalf("got %q", stdout.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), s3test.Secret) {
		t.Fatal("the secret key was printed")
	}
}
