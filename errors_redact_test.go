package jsonmask

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// redactCanary is in every key and value that a test's mask drops.
const redactCanary = "CANARY\u202e-9b3"

// TestRedacted: the pointer shown to a client or a log stops at the last
// kept member, never names a dropped key, and escapes control and bidi
// characters; the message quotes no byte of the input (SPEC G5, G9). The
// same through Append, Copy, NewReader and NewWriter.
func TestRedacted(t *testing.T) {
	m := MustCompile(`{"id":true,"user":{"name":true,"tags":true},"items":{"k":true},"3":{"x":true},"w":{"*":{"a":true}}}`, WithArrays(true), WithWildcards(true))
	cases := []struct {
		name, in, pointer string
	}{
		{"DroppedKey", `{"id":1,"` + redactCanary + `":{"x":01}}`, "/…"},
		{"DroppedUnder", `{"user":{"name":"a","` + redactCanary + `":[01]}}`, "/user/…"},
		{"KeptScalar", `{"user":{"name":01}}`, "/user/name"},
		{"KeptWhole", `{"user":{"tags":[1,01]}}`, "/user/tags"},
		{"ArrayElement", `{"items":[{"k":1},{"k":01}]}`, "/items/1/k"},
		{"ArrayIndexLast", `{"items":[{"k":1},01]}`, "/items/…"},
		{"ArrayDropped", `{"items":[{"k":1,"` + redactCanary + `":01}]}`, "/items/0/…"},
		// "3" may be an index of an array root, whose elements keep no
		// "x": a reading that drops it cuts the pointer.
		{"NumericKeyAmbiguous", `{"3":{"x":01}}`, "/3/…"},
		{"Wildcard", `{"w":{"` + redactCanary + `":{"a":01}}}`, "/w/CANARY\\u202e-9b3/a"},
		{"WildcardDropped", `{"w":{"k":{"a":1,"` + redactCanary + `":01}}}`, "/w/k/…"},
		{"RootArray", `[{"id":1},{"` + redactCanary + `":01}]`, "/1/…"},
		{"BadCharInDropped", `{"id":1,"` + redactCanary + `":"\x01"}`, "/…"},
		{"Top", `{"id":1,}`, ""},
	}
	for _, c := range cases {
		for _, via := range []string{"Append", "Copy", "Reader", "Writer"} {
			t.Run(c.name+"/"+via, func(t *testing.T) {
				err := maskVia(m, via, c.in)
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("error %v, want a *SyntaxError", err)
				}
				if got := se.KeptPointer(); got != c.pointer {
					t.Errorf("KeptPointer %q, want %q (Pointer %q)", got, c.pointer, se.Pointer)
				}
				red := se.Redacted()
				wrapped := Redact(fmt.Errorf("reading: %w", err))
				for _, s := range []string{red, wrapped} {
					if strings.Contains(s, "CANARY") && !strings.Contains(c.pointer, "CANARY") || strings.ContainsAny(s, "\u202e\x01'") {
						t.Errorf("redacted message %q", s)
					}
				}
				if !strings.HasPrefix(wrapped, "reading: jsonmask: ") || !strings.Contains(wrapped, "at offset") {
					t.Errorf("Redact %q", wrapped)
				}
			})
		}
	}
}

func maskVia(m *Mask, via, in string) error {
	var sb strings.Builder
	switch via {
	case "Append":
		_, err := m.Append(nil, []byte(in))
		return err
	case "Copy":
		_, err := m.Copy(&sb, strings.NewReader(in))
		return err
	case "Reader":
		r := m.NewReader(strings.NewReader(in))
		_, err := r.WriteTo(&sb)
		return err
	}
	w := m.NewWriter(&sb)
	if _, err := w.Write([]byte(in)); err != nil {
		return err
	}
	return w.Close()
}

// TestRedactedReasons: each kind of fault in words, without the input's
// bytes.
func TestRedactedReasons(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":x}`, "jsonmask: invalid character looking for beginning of value at offset 5 (/…)"},
		{`{"a"'}`, "jsonmask: invalid character after object key at offset 4 (/…)"},
		{`{"a":1`, "jsonmask: unexpected end of JSON input at offset 6 (/…)"},
		{`[1]`, "jsonmask: not a JSON object, where one is required at offset 0"},
	} {
		_, err := MustCompile(`{}`, WithStrict(true)).Append(nil, []byte(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Redacted() != c.want {
			t.Errorf("%s: %q, want %q (%v)", c.in, Redact(err), c.want, err)
		}
	}
}
