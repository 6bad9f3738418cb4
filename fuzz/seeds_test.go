package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// conformanceSeeds returns the masks and inputs of the shared conformance
// cases (testdata/conformance/cases.json at the module's root).
func conformanceSeeds(f *testing.F) (masks, inputs [][]byte) {
	data, err := os.ReadFile("../testdata/conformance/cases.json")
	if err != nil {
		f.Fatal(err)
	}
	var cases []struct {
		Mask    json.RawMessage `json:"mask"`
		MaskRaw *string         `json:"mask_raw"`
		Input   *string         `json:"input"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		switch {
		case c.MaskRaw != nil:
			masks = append(masks, []byte(*c.MaskRaw))
		case c.Mask != nil:
			masks = append(masks, c.Mask)
		}
		if c.Input != nil {
			inputs = append(inputs, []byte(*c.Input))
		}
	}
	return masks, inputs
}

// suiteSeeds returns the JSONTestSuite parsing cases, the small ones.
func suiteSeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob("../testdata/jsontestsuite/test_parsing/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("JSONTestSuite: %v", err)
	}
	var docs [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 4096 {
			docs = append(docs, b)
		}
	}
	return docs
}
