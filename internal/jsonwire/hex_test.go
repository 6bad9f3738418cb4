package jsonwire

import (
	"strconv"
	"testing"
)

func TestParseHex4(t *testing.T) {
	for _, c := range []struct {
		in   string
		want rune
		ok   bool
	}{
		{"0000", 0, true}, {"ffff", 0xFFFF, true}, {"FFFF", 0xFFFF, true}, {"d83D", 0xD83D, true},
		{"00e9rest", 0xE9, true}, {"123", 0, false}, {"", 0, false}, {"12g4", 0, false}, {"-123", 0, false},
	} {
		if got, ok := ParseHex4([]byte(c.in)); got != c.want || ok != c.ok {
			t.Errorf("ParseHex4(%q) = %#x, %t; want %#x, %t", c.in, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseHex4: it agrees with strconv.ParseUint on the first four bytes.
func FuzzParseHex4(f *testing.F) {
	for _, s := range []string{"0000", "fFfF", "12g4", "+123", "0x12"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := ParseHex4(b)
		if len(b) < 4 {
			if ok {
				t.Fatalf("ParseHex4(%q) = %#x, ok", b, got)
			}
			return
		}
		want, err := strconv.ParseUint(string(b[:4]), 16, 32)
		wantOK := err == nil
		if ok != wantOK || ok && got != rune(want) {
			t.Fatalf("ParseHex4(%q) = %#x, %t; strconv says %#x, %v", b, got, ok, want, err)
		}
	})
}

func TestAppendEscape(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want string
	}{{0, `\u0000`}, {0x1f, `\u001f`}, {0xD800, `\ud800`}, {0xFFFF, `\uffff`}} {
		if got := string(AppendEscape(nil, c.r)); got != c.want {
			t.Errorf("AppendEscape(%#x) = %s, want %s", c.r, got, c.want)
		}
	}
}

func TestKindName(t *testing.T) {
	for c, want := range map[byte]string{'{': "object", '[': "array", '"': "string", '-': "number", '0': "number",
		'9': "number", 't': "boolean", 'f': "boolean", 'n': "null", '}': "", 'x': "", 0: ""} {
		if got := KindName(c); got != want {
			t.Errorf("KindName(%q) = %q, want %q", c, got, want)
		}
	}
}
