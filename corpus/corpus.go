// Package corpus reads the repository's corpus of real API responses and
// its workloads (bench/testdata/workloads.json: a document, a mask and
// options each), which the tests and benchmarks of the library, the
// gateway and the contrib modules run on. It is for tests only, and public
// (not internal/) because the contrib modules, modules of their own, use it
// as any other module would; outside a checkout of this repository it
// finds no corpus, and every function fails the test.
//
// It finds bench/testdata above the working directory, which go test sets
// to the package's directory, so that a test reads the copy in the
// repository (never ../shared) from any package of any of its modules.
package corpus

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Workload is one entry of workloads.json: a document of the corpus and
// the mask that a gateway would apply to it.
type Workload struct {
	Name    string          `json:"name"`
	File    string          `json:"file"` // in the corpus: read it with File
	Mask    json.RawMessage `json:"mask"`
	Options struct {
		// Arrays: the root is an array and is masked element-wise (SPEC B4).
		Arrays bool `json:"arrays"`
		// NDJSON: the file holds one document per line (SPEC S3).
		NDJSON bool `json:"ndjson"`
	} `json:"options"`
}

// SubName is the workload's name as the name of a subtest or
// sub-benchmark: its "/" would make a level of its own.
func (w Workload) SubName() string { return strings.ReplaceAll(w.Name, "/", "-") }

// Workloads returns the entries of workloads.json, in its order. The test
// fails if they cannot be read.
func Workloads(tb testing.TB) []Workload {
	tb.Helper()
	var ws []Workload
	if err := json.Unmarshal(File(tb, "workloads.json"), &ws); err != nil {
		tb.Fatalf("corpus: workloads.json: %v", err)
	}
	return ws
}

// Find returns the workload with this name. The test fails if there is
// none.
func Find(tb testing.TB, name string) Workload {
	tb.Helper()
	for _, w := range Workloads(tb) {
		if w.Name == name {
			return w
		}
	}
	tb.Fatalf("corpus: no workload %q", name)
	return Workload{}
}

// File returns the file of the corpus with this name. The test fails if it
// cannot be read.
func File(tb testing.TB, name string) []byte {
	tb.Helper()
	dir, err := dirOnce()
	if err != nil {
		tb.Fatalf("corpus: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatalf("corpus: %v", err)
	}
	return b
}

// dirOnce is the corpus' directory: bench/testdata in the working
// directory or the nearest directory above it that has one.
var dirOnce = sync.OnceValues(func() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		p := filepath.Join(dir, "bench", "testdata")
		if _, err := os.Stat(filepath.Join(p, "workloads.json")); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no bench/testdata/workloads.json above " + wd)
		}
		dir = parent
	}
})
