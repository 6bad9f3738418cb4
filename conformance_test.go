package jsonmask_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// conformanceCase is one entry of testdata/conformance/cases.json (see its README).
type conformanceCase struct {
	Name         string          `json:"name"`
	Rules        string          `json:"rules"`
	Mask         json.RawMessage `json:"mask"`
	MaskRaw      *string         `json:"mask_raw"`
	Input        *string         `json:"input"`
	InputHex     *string         `json:"input_hex"`
	Options      caseOptions     `json:"options"`
	Output       *string         `json:"output"`
	Error        bool            `json:"error"`
	CompileError bool            `json:"compile_error"`
}

type caseOptions struct {
	Arrays         bool `json:"arrays"`
	DropMismatched bool `json:"drop_mismatched"`
	NDJSON         bool `json:"ndjson"`
}

func (o caseOptions) list() []jsonmask.Option {
	return []jsonmask.Option{jsonmask.WithArrays(o.Arrays), jsonmask.WithDropMismatched(o.DropMismatched), jsonmask.WithNDJSON(o.NDJSON)}
}

func (c conformanceCase) mask() []byte {
	if c.MaskRaw != nil {
		return []byte(*c.MaskRaw)
	}
	return c.Mask
}

func (c conformanceCase) input(t testing.TB) []byte {
	switch {
	case c.InputHex != nil:
		b, err := hex.DecodeString(*c.InputHex)
		if err != nil {
			t.Fatalf("%s: input_hex: %v", c.Name, err)
		}
		return b
	case c.Input != nil:
		return []byte(*c.Input)
	}
	return nil
}

func loadConformance(t testing.TB) []conformanceCase {
	data, err := os.ReadFile("testdata/conformance/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []conformanceCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance cases")
	}
	return cases
}

// TestConformance runs every case of the shared conformance file through every
// way of masking (see maskModes): in memory, and streamed at every chunk size.
func TestConformance(t *testing.T) {
	for _, c := range loadConformance(t) {
		t.Run(c.Name, func(t *testing.T) {
			m, err := jsonmask.Compile(c.mask(), c.Options.list()...)
			if c.CompileError {
				var me *jsonmask.MaskError
				if !errors.As(err, &me) {
					t.Fatalf("Compile(%s) = %v, want a *MaskError", c.mask(), err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile(%s): %v", c.mask(), err)
			}
			in := c.input(t)
			for _, mode := range maskModes {
				out, err := mode.mask(m, in)
				if c.Error {
					var se *jsonmask.SyntaxError
					if !errors.As(err, &se) {
						t.Errorf("%s: err = %v, want a *SyntaxError (output %q)", mode.name, err, out)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", mode.name, err)
					continue
				}
				if string(out) != *c.Output {
					t.Errorf("%s:\n got %q\nwant %q", mode.name, out, *c.Output)
				}
			}
		})
	}
}
