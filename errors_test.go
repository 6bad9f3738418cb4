package jsonmask_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask"
)

// checkOneLine fails unless msg is safe to log (SPEC V3): one line, no
// control byte, no U+2028 or U+2029, valid UTF-8.
func checkOneLine(t *testing.T, msg string) {
	t.Helper()
	if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\u2028\u2029\x7f") || strings.IndexFunc(msg, func(r rune) bool { return r < ' ' }) >= 0 {
		t.Errorf("message is not one safe line: %q", msg)
	}
}

// TestSyntaxErrorQuoting: keys in a SyntaxError's message are escaped as Go's
// %q escapes them, so that a key holding "\n", ESC, U+2028 or a lone
// surrogate cannot forge a log line or a terminal escape, and long pointers
// are shortened; the Pointer field keeps the key as it is (SPEC V3). Every
// way of streaming gives the same error.
func TestSyntaxErrorQuoting(t *testing.T) {
	long := strings.Repeat("k", 150)
	for _, c := range []struct {
		name, mask, in string
		msg, pointer   string
	}{
		{"NewlineAndEscape", `{"a":true}`, `{"x\nlevel=ERROR \u001b[31mFAKE":[1,}`,
			`jsonmask: invalid character '}' looking for beginning of value at offset 36 (/x\nlevel=ERROR \x1b[31mFAKE)`, "/x\nlevel=ERROR \x1b[31mFAKE"},
		{"LineSeparators", `{"a":{"b":true}}`, `{"a":{"\u2028k\u2029":[1,}}}`,
			`jsonmask: invalid character '}' looking for beginning of value at offset 25 (/a/\u2028k\u2029)`, "/a/\u2028k\u2029"},
		{"LoneSurrogate", `{"a":{"b":true}}`, `{"a":{"\u00ff\ud800":[1,}}}`,
			`jsonmask: invalid character '}' looking for beginning of value at offset 24 (/a/ÿ\xed\xa0\x80)`, "/a/\u00ff\xed\xa0\x80"},
		{"Quote", `{"a":true}`, `{"x\")(y":[1,}`,
			`jsonmask: invalid character '}' looking for beginning of value at offset 13 (/x\")(y)`, "/x\")(y"},
		{"LongKept", `{"` + long + `":{"` + long + `":true}}`, `{"` + long + `":{"` + long + `":[1,}}}`,
			`jsonmask: invalid character '}' looking for beginning of value at offset 311 (/` + long[:99] + `…` + long[:97] + `)`, "/" + long + "/" + long},
		{"LongMultibyte", `{"a":true}`, `{"` + strings.Repeat("é", 120) + `":[1,}`,
			`jsonmask: invalid character '}' looking for beginning of value at offset 247 (/` + strings.Repeat("é", 49) + `…` + strings.Repeat("é", 48) + `)`, "/" + strings.Repeat("é", 120)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask)
			for _, mode := range maskModes {
				out, err := mode.mask(m, []byte(c.in))
				var se *jsonmask.SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("%s: err = %v, want a *SyntaxError", mode.name, err)
				}
				if err.Error() != c.msg || se.Pointer != c.pointer {
					t.Errorf("%s:\n got %s (Pointer %q)\nwant %s (Pointer %q)", mode.name, err, se.Pointer, c.msg, c.pointer)
				}
				checkOneLine(t, err.Error())
				if strings.Contains(string(out), "FAKE") {
					t.Errorf("%s: a dropped key reached the output: %q", mode.name, out)
				}
			}
		})
	}
}

// TestMaskErrorQuoting: a MaskError quotes and shortens its pointer as a
// SyntaxError does (SPEC V3).
func TestMaskErrorQuoting(t *testing.T) {
	long := strings.Repeat("m", 300)
	for _, c := range []struct{ name, mask, msg, pointer string }{
		{"Escape", `{"a\n\u001b[2J":false}`, `jsonmask: mask member "/a\n\x1b[2J" must be true or an object, got false`, "/a\n\x1b[2J"},
		{"LineSeparator", `{"\u2028":{"b":1}}`, `jsonmask: mask member "/\u2028/b" must be true or an object, got a number`, "/\u2028/b"},
		{"LoneSurrogate", `{"\udc00":null}`, `jsonmask: mask member "/\xed\xb0\x80" must be true or an object, got null`, "/\xed\xb0\x80"},
		{"Long", `{"` + long + `":0}`, `jsonmask: mask member "/` + long[:99] + `…` + long[:97] + `" must be true or an object, got a number`, "/" + long},
		{"Twice", `{"\n":true,"\u000a":true}`, `jsonmask: mask member "/\n" appears twice (SPEC M4) at offset 11`, "/\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := jsonmask.Compile([]byte(c.mask))
			var me *jsonmask.MaskError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v, want a *MaskError", err)
			}
			if err.Error() != c.msg || me.Pointer != c.pointer {
				t.Errorf("\n got %s (Pointer %q)\nwant %s (Pointer %q)", err, me.Pointer, c.msg, c.pointer)
			}
			checkOneLine(t, err.Error())
		})
	}
}

// TestErrorPointerDroppedKeys pins SPEC V3's rule for dropped members: one is
// named when its raw key, between the quotes, is at most 256 bytes, whatever
// the mask's longest key and wherever windows end; and while a key is being
// read, the pointer names the enclosing object.
func TestErrorPointerDroppedKeys(t *testing.T) {
	key := func(n int) string { return strings.Repeat("d", n) }
	for _, c := range []struct {
		name, mask, in, pointer string
	}{
		{"Raw255", `{"k":true}`, `{"` + key(255) + `":[1,}`, "/" + key(255)},
		{"Raw256", `{"k":true}`, `{"` + key(256) + `":[1,}`, "/" + key(256)},
		{"Raw257", `{"k":true}`, `{"` + key(257) + `":[1,}`, ""},
		{"Raw257LongMask", `{"` + key(100) + `":true}`, `{"` + key(257) + `":[1,}`, ""},
		{"Escaped256", `{"k":true}`, `{"` + key(250) + `\u0064":[1,}`, "/" + key(251)},
		{"Escaped257", `{"k":true}`, `{"` + key(251) + `\u0064":[1,}`, ""},
		{"InKey", `{"a":{"k":true}}`, `{"a":{"x":1,"ab` + "\x01" + `":2}}`, "/a"},
		{"Kept", `{"a":{"k":true}}`, `{"a":{"k":[1,}}}`, "/a/k"},
		{"ArrayElement", `{"a":{"k":true}}`, `{"a":[{"k":1},{"x":[1,}]}`, "/a/1/x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask)
			first := ""
			for _, mode := range maskModes {
				_, err := mode.mask(m, []byte(c.in))
				var se *jsonmask.SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("%s: err = %v, want a *SyntaxError", mode.name, err)
				}
				if se.Pointer != c.pointer {
					t.Errorf("%s: Pointer %q, want %q", mode.name, se.Pointer, c.pointer)
				}
				if first == "" {
					first = err.Error()
				} else if err.Error() != first {
					t.Errorf("%s: %s; %s gave %s", mode.name, err, maskModes[0].name, first)
				}
			}
		})
	}
}

// TestSentinels: the front door's sentinels carry its prefix, and errors
// wrap them, not the inner packages' (which have none).
func TestSentinels(t *testing.T) {
	for _, c := range []struct {
		name     string
		opts     []jsonmask.Option
		in       string
		sentinel error
	}{
		{"MaxDepth", []jsonmask.Option{jsonmask.WithMaxDepth(2)}, `{"a":[[1]]}`, jsonmask.ErrMaxDepth},
		{"InputTooLarge", []jsonmask.Option{jsonmask.WithMaxInputSize(4)}, `{"a":1}`, jsonmask.ErrInputTooLarge},
		{"TokenTooLarge", []jsonmask.Option{jsonmask.WithMaxTokenSize(4)}, `{"a":"long"}`, jsonmask.ErrTokenTooLarge},
		{"NotObject", []jsonmask.Option{jsonmask.WithStrict(true)}, `[]`, jsonmask.ErrNotObject},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.HasPrefix(c.sentinel.Error(), "jsonmask: ") {
				t.Errorf("sentinel %q lacks the prefix", c.sentinel)
			}
			m := jsonmask.MustCompile(`{"a":true}`, c.opts...)
			for _, mode := range maskModes {
				_, err := mode.mask(m, []byte(c.in))
				if !errors.Is(err, c.sentinel) || strings.Count(err.Error(), "jsonmask: ") != 1 {
					t.Errorf("%s: err = %v, want one wrapping %v with one prefix", mode.name, err, c.sentinel)
				}
			}
		})
	}
	t.Run("Closed", func(t *testing.T) {
		m := jsonmask.MustCompile(`{"a":true}`)
		w := m.NewWriter(&strings.Builder{})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(`{}`)); err != jsonmask.ErrClosed {
			t.Errorf("Write after Close: %v, want ErrClosed", err)
		}
		r := m.NewReader(strings.NewReader(`{}`))
		r.Close()
		if _, err := r.Read(make([]byte, 4)); err != jsonmask.ErrClosed {
			t.Errorf("Read after Close: %v, want ErrClosed", err)
		}
	})
	t.Run("MaskTooDeep", func(t *testing.T) {
		_, err := jsonmask.Compile([]byte(`{"a":{"b":{}}}`), jsonmask.WithMaxDepth(2))
		if !errors.Is(err, jsonmask.ErrMaxDepth) || strings.Count(err.Error(), "jsonmask: ") != 1 {
			t.Errorf("err = %v, want one wrapping ErrMaxDepth with one prefix", err)
		}
	})
}
