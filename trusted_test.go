package jsonmask_test

import (
	"bytes"
	"fmt"
	"strings"
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

// TestTrustedLongValues runs the block scan's fast path (runs of 64-byte
// blocks taken in one kernel call) on kept and dropped values long enough
// for it, laid out with whitespace to drop, next to dropped values that carry
// a marker: trusted mode gives what the validating mode gives, and no dropped
// byte lands anywhere in the output buffer, past its end included, however
// much room that buffer has.
func TestTrustedLongValues(t *testing.T) {
	const marker = "CANARY"
	var sb strings.Builder
	sb.WriteString("{\n")
	for i := range 40 {
		fmt.Fprintf(&sb, "  \"keep%d\": [\n    %s\"end\",\n    {\"s\": \"a \\\" [{\", \"n\": [1, 2, 3]}\n  ],\n", i, strings.Repeat(`"x y", `, i))
		fmt.Fprintf(&sb, "  \"drop%d\": {\"k\": \"%s\", \"v\": [%s\"%s\"]},\n", i, marker, strings.Repeat(`"\\", `, i), marker)
	}
	sb.WriteString("  \"last\": 0\n}")
	doc := []byte(sb.String())
	mask := `{"keep0":true,"keep3":true,"keep17":true,"keep38":true,"keep39":true,"last":true}`
	want, err := jsonmask.MustCompile(mask).Append(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	trusted := jsonmask.MustCompile(mask, jsonmask.WithTrustedInput(true))
	for _, room := range []int{0, 10, 100, 1000, 10000} {
		dst := bytes.Repeat([]byte{'#'}, room)[:0]
		out, err := trusted.Append(dst, doc)
		if err != nil || !bytes.Equal(out, want) {
			t.Fatalf("room %d: %q, %v; want %q", room, out, err, want)
		}
		if bytes.Contains(out[:cap(out)], []byte(marker)) {
			t.Fatalf("room %d: a dropped byte lies in the output buffer: %q", room, out[:cap(out)])
		}
	}
	for _, mode := range maskModes {
		if out, err := mode.mask(trusted, doc); err != nil || !bytes.Equal(out, want) {
			t.Errorf("%s: %q, %v; want %q", mode.name, out, err, want)
		}
	}
}
