package jsonmask_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestTrustedSplits checks that in trusted mode, which does not validate
// what it skips or copies, invalid scalars still give the same output and
// the same verdict in every mode (SPEC S1): a scalar whole in a window and
// one cut by a window's end must be taken the same way.
func TestTrustedSplits(t *testing.T) {
	values := []string{
		`1`, `-0.5e+7`, `true`, `null`, `false`, `"s"`, `"\u00e9\n"`,
		`1A`, `1 A`, `1.`, `01`, `-`, `truex`, `tru`, `true false`, `nul`, `"s"x`, `"s" x`,
		"\"a\x01b\"", "\"\xff\"", `"\q"`, `1}`, `1]`, `"x"::"b"`,
	}
	masks := []string{`{"k":true}`, `{"d":true}`, `{"k":{"x":true}}`}
	for _, v := range values {
		for _, doc := range []string{
			`{"k":` + v + `}`, `{"k":` + v + `,"z":2}`, `{"k": ` + v + ` ,"z":2}`, `{"a":[` + v + `],"k":` + v + `}`,
		} {
			for _, mask := range masks {
				m := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true), jsonmask.WithArrays(true))
				want, werr := m.Append(nil, []byte(doc))
				for _, mode := range maskModes {
					got, err := mode.mask(m, []byte(doc))
					if fmt.Sprint(err) != fmt.Sprint(werr) || werr == nil && !bytes.Equal(got, want) {
						t.Errorf("mask %s doc %s %s: %q, %v; Append: %q, %v", mask, doc, mode.name, got, err, want, werr)
					}
				}
			}
		}
	}
}
