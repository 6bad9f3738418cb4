package jsonmask_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestMaxTokenSize: a string or number one byte over the limit is rejected,
// in every place and every mode, with the same error at the offset where it
// crosses the limit; one at the limit is not.
func TestMaxTokenSize(t *testing.T) {
	const limit = 20
	str := func(n int) string { return `"` + strings.Repeat("s", n-2) + `"` } // n bytes with its quotes
	num := func(n int) string { return "-" + strings.Repeat("7", n-1) }
	type place struct {
		name, before, after string
	}
	places := []place{
		{"MaskedKey", `{"id":1,`, `:1}`},
		{"KeptValue", `{"id":`, `}`},
		{"DroppedValue", `{"x":`, `,"id":1}`},
		{"InKept", `{"id":[1,`, `]}`},
		{"InDropped", `{"x":{"k":[`, `]},"id":1}`},
		{"InKeptBetween", `{"id":[1,`, `,2]}`},
		{"InDroppedBetween", `{"x":{"k":[1, `, ` ,2]},"id":1}`},
		{"KeyInDropped", `{"x":{`, `:1},"id":1}`},
		{"KeyInKept", `{"id":{`, `:1}}`},
		{"InMaskedArray", `{"u":[`, `]}`},
	}
	for _, trusted := range []bool{false, true} {
		m := jsonmask.MustCompile(`{"id":true,"u":{"n":true}}`, jsonmask.WithMaxTokenSize(limit), jsonmask.WithTrustedInput(trusted))
		for _, p := range places {
			for _, kind := range []string{"string", "number"} {
				if kind == "number" && strings.Contains(p.name, "Key") {
					continue
				}
				if kind == "number" && trusted && strings.HasPrefix(p.name, "In") && p.name != "InMaskedArray" {
					continue // trusted scans do not measure numbers inside containers
				}
				for _, n := range []int{limit - 1, limit, limit + 1, 3 * limit} {
					tok := str(n)
					if kind == "number" {
						tok = num(n)
					}
					in := p.before + tok + p.after
					name := fmt.Sprintf("trusted=%v/%s/%s/%d", trusted, p.name, kind, n)
					var first error
					for _, mode := range maskModes {
						_, err := mode.mask(m, []byte(in))
						if n <= limit {
							if err != nil {
								t.Errorf("%s %s: %v", name, mode.name, err)
							}
							continue
						}
						var se *jsonmask.SyntaxError
						if !errors.Is(err, jsonmask.ErrTokenTooLarge) || !errors.As(err, &se) || se.Offset != int64(len(p.before)+limit) {
							t.Errorf("%s %s: err = %v, want ErrTokenTooLarge at offset %d", name, mode.name, err, len(p.before)+limit)
							continue
						}
						if first == nil {
							first = err
						} else if err.Error() != first.Error() {
							t.Errorf("%s: %s says %q, Append %q", name, mode.name, err, first)
						}
					}
				}
			}
		}
	}
	// Off by default.
	big := `{"id":"` + strings.Repeat("x", 1<<20) + `"}`
	if _, err := jsonmask.MustCompile(`{"id":true}`).Append(nil, []byte(big)); err != nil {
		t.Errorf("no limit by default: %v", err)
	}
}

// TestMaxInputSize: an input longer than the limit is rejected at the offset
// of the limit, masked, passed through or NDJSON, in every mode.
func TestMaxInputSize(t *testing.T) {
	const limit = 30
	for _, c := range []struct {
		name string
		body func(n int) string
		opts []jsonmask.Option
	}{
		{"Masked", func(n int) string { return `{"id":"` + strings.Repeat("x", n-9) + `"}` }, nil},
		{"Passthrough", func(n int) string { return strings.Repeat("y", n) }, nil},
		{"Whitespace", func(n int) string { return strings.Repeat(" ", n) }, nil},
		{"NDJSON", func(n int) string { return strings.Repeat("{}\n", n/3) + strings.Repeat(" ", n%3) }, []jsonmask.Option{jsonmask.WithNDJSON(true)}},
	} {
		m := jsonmask.MustCompile(`{"id":true}`, append(c.opts, jsonmask.WithMaxInputSize(limit))...)
		for _, n := range []int{limit - 1, limit, limit + 1, 5 * limit} {
			in := c.body(n)
			if len(in) != n {
				t.Fatalf("%s: body of %d bytes, want %d", c.name, len(in), n)
			}
			for _, mode := range maskModes {
				_, err := mode.mask(m, []byte(in))
				var se *jsonmask.SyntaxError
				switch {
				case n <= limit && err != nil:
					t.Errorf("%s/%d %s: %v", c.name, n, mode.name, err)
				case n > limit && (!errors.Is(err, jsonmask.ErrInputTooLarge) || !errors.As(err, &se) || se.Offset != limit || err.Error() != "jsonmask: input longer than 30 bytes at offset 30"):
					t.Errorf("%s/%d %s: err = %v, want ErrInputTooLarge at offset %d", c.name, n, mode.name, err, limit)
				}
			}
		}
	}
	for _, opt := range []jsonmask.Option{jsonmask.WithMaxInputSize(-1), jsonmask.WithMaxTokenSize(-1)} {
		if _, err := jsonmask.Compile([]byte(`{}`), opt); err == nil {
			t.Error("a negative limit was accepted")
		}
	}
}

// TestMaxTokenSizeFirstError: when a string or number is both too long and
// malformed, the error that comes first in the input is reported, in every
// mode: the limit when the bad byte lies past it.
func TestMaxTokenSizeFirstError(t *testing.T) {
	const limit = 12
	m := jsonmask.MustCompile(`{"id":true}`, jsonmask.WithMaxTokenSize(limit))
	for _, c := range []struct {
		in      string
		tooLong bool
	}{
		{`{"id":"0123456789\x"}`, false}, // the bad escape at offset 18: at the limit, not past it
		{`{"id":"01234567890\x"}`, true}, // the bad escape at 19, past the limit's 18
		{`{"id":"012345678901\x"}`, true},
		{`{"x":"0123456789012345\q"}`, true},
		{`{"x":[-1234567890123e+]}`, true},
		{`{"x":[-123e+]}`, false},
		{`{"0123456789012\q":1}`, true},
		// Invalid UTF-8 is named by its first byte but found at the byte that
		// breaks it: the limit when that byte lies past the limit's 18.
		{"{\"id\":\"0123456789\xd40\"}", false},    // \xd4 at 17, broken at 18
		{"{\"id\":\"01234567890\xd40\"}", true},    // \xd4 at 18, broken at 19
		{"{\"id\":\"012345678\xe2\x82X\"}", false}, // \xe2 at 16, broken at 18
		{"{\"id\":\"0123456789\xe2\x82X\"}", true}, // \xe2 at 17, broken at 19
		{"{\"0123456789a\xd40\":1}", true},         // a key from 1: \xd4 at 13, broken at 14, past the limit's 13
	} {
		var first string
		for _, mode := range maskModes {
			_, err := mode.mask(m, []byte(c.in))
			if err == nil || errors.Is(err, jsonmask.ErrTokenTooLarge) != c.tooLong {
				t.Errorf("%s %s: err = %v, want too long: %v", c.in, mode.name, err, c.tooLong)
				continue
			}
			if first == "" {
				first = err.Error()
			} else if err.Error() != first {
				t.Errorf("%s: %s says %q, Append %q", c.in, mode.name, err, first)
			}
		}
	}
}
