package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// testdataDir holds the corpus and workloads.json, relative to the package
// directory, which is where go test runs.
const testdataDir = "testdata"

// Workload is one entry of testdata/workloads.json: a document and the mask
// that a gateway would apply to it.
type Workload struct {
	Name    string          `json:"name"`
	File    string          `json:"file"`
	Mask    json.RawMessage `json:"mask"`
	Options struct {
		// Arrays: the root is an array and is masked element-wise (SPEC B4).
		Arrays bool `json:"arrays"`
		// NDJSON: the file holds one document per line (SPEC S3).
		NDJSON bool `json:"ndjson"`
	} `json:"options"`
}

// benchName is the workload's name as a sub-benchmark name element: a '/'
// would split it into two levels of the benchmark name.
func (w *Workload) benchName() string {
	return strings.ReplaceAll(w.Name, "/", "-")
}

// Input reads the workload's document from dir.
//
// The slice has inputPadding bytes of spare capacity after the body, so that
// the limit:simdjson column can parse it in place, as simdjson parses its own
// padded strings, rather than copy it first.
func (w *Workload) Input(dir string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, w.File))
	if err != nil {
		return nil, err
	}
	return append(make([]byte, 0, len(data)+inputPadding), data...), nil
}

// inputPadding is simdjson's SIMDJSON_PADDING: how many bytes past the end of
// its input the parser may read.
const inputPadding = 64

// LoadWorkloads reads dir/workloads.json. Unknown fields are an error so that
// an option added to the file is not silently ignored here.
func LoadWorkloads(dir string) ([]Workload, error) {
	data, err := os.ReadFile(filepath.Join(dir, "workloads.json"))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var ws []Workload
	if err := dec.Decode(&ws); err != nil {
		return nil, fmt.Errorf("workloads.json: %w", err)
	}
	seen := make(map[string]bool, len(ws))
	for _, w := range ws {
		if seen[w.benchName()] {
			return nil, fmt.Errorf("workloads.json: duplicate workload %q", w.Name)
		}
		seen[w.benchName()] = true
	}
	return ws, nil
}
