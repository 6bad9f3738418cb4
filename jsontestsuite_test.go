package jsonmask_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// firstByte returns the byte that classifies body (SPEC B1), or 0.
func firstByte(body []byte) byte {
	body = bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if len(body) == 0 {
		return 0
	}
	return body[0]
}

// TestJSONTestSuite runs JSONTestSuite's parsing cases with WithArrays and the
// mask {}: every y_ file is accepted, every n_ file that is masked (its first
// byte is '{' or '[') is rejected and every other n_ file passes through as
// it is, in every mode. The i_ files may go either way: how each goes is
// pinned in testdata/jsontestsuite/i_outcomes.txt so that a change is seen
// (rewrite it with -update).
func TestJSONTestSuite(t *testing.T) {
	m, err := jsonmask.Compile([]byte(`{}`), jsonmask.WithArrays(true))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("testdata/jsontestsuite/test_parsing/*.json")
	if err != nil || len(files) < 300 {
		t.Fatalf("JSONTestSuite files: %d, %v", len(files), err)
	}
	var outcomes []string
	for _, file := range files {
		name := filepath.Base(file)
		in, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		masked := firstByte(in) == '{' || firstByte(in) == '['
		var first string
		for _, mode := range maskModes {
			out, err := mode.mask(m, in)
			outcome := "accepted"
			switch {
			case err != nil:
				outcome = "rejected"
			case !masked && !bytes.Equal(out, in):
				t.Errorf("%s %s: passthrough changed the body: %q", name, mode.name, out)
			case !masked:
				outcome = "passed-through"
			}
			if first == "" {
				first = outcome
			} else if outcome != first {
				t.Errorf("%s: %s %s but %s %s", name, maskModes[0].name, first, mode.name, outcome)
			}
		}
		switch {
		case strings.HasPrefix(name, "y_") && first == "rejected":
			t.Errorf("%s: valid JSON rejected", name)
		case strings.HasPrefix(name, "n_") && masked && first != "rejected":
			t.Errorf("%s: invalid JSON %s", name, first)
		case strings.HasPrefix(name, "i_"):
			outcomes = append(outcomes, fmt.Sprintf("%s %s", name, first))
		}
	}
	slices.Sort(outcomes)
	got := strings.Join(outcomes, "\n") + "\n"
	const golden = "testdata/jsontestsuite/i_outcomes.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("i_ outcomes changed (run with -update if intended):\n got:\n%s\nwant:\n%s", got, want)
	}
}
