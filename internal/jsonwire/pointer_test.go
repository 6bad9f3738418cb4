package jsonwire

import (
	"strings"
	"testing"
)

var pointerCases = []struct{ name, tok, esc string }{
	{"Empty", "", ""},
	{"Plain", "name", "name"},
	{"Tilde", "a~b", "a~0b"},
	{"Slash", "a/b", "a~1b"},
	{"Both", "~/", "~0~1"},
	{"EscapeLookalike", "~1", "~01"},
	{"Many", "//~~", "~1~1~0~0"},
	{"UTF8", "日/本", "日~1本"},
}

func TestPointerToken(t *testing.T) {
	for _, c := range pointerCases {
		t.Run(c.name, func(t *testing.T) {
			if got := string(AppendPointerToken([]byte("/"), c.tok)); got != "/"+c.esc {
				t.Errorf("AppendPointerToken(%q) = %q, want %q", c.tok, got, "/"+c.esc)
			}
			if got := string(AppendPointerToken(nil, []byte(c.tok))); got != c.esc {
				t.Errorf("AppendPointerToken([]byte %q) = %q, want %q", c.tok, got, c.esc)
			}
			if got := EscapePointerToken(c.tok); got != c.esc {
				t.Errorf("EscapePointerToken(%q) = %q, want %q", c.tok, got, c.esc)
			}
			if got, ok := UnescapePointerToken(c.esc); !ok || got != c.tok {
				t.Errorf("UnescapePointerToken(%q) = %q, %t, want %q", c.esc, got, ok, c.tok)
			}
		})
	}
}

func TestUnescapePointerTokenInvalid(t *testing.T) {
	for _, s := range []string{"~", "a~", "~2", "~a", "x~0~"} {
		if got, ok := UnescapePointerToken(s); ok {
			t.Errorf("UnescapePointerToken(%q) = %q, ok; want not ok", s, got)
		}
	}
}

func TestEscapePointerTokenNoAlloc(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = EscapePointerToken("plain key") }); n != 0 {
		t.Errorf("EscapePointerToken of a plain key allocates %v times", n)
	}
}

// FuzzPointerToken: unescaping undoes escaping, and the escape holds no "/"
// and no "~" that is not an escape.
func FuzzPointerToken(f *testing.F) {
	for _, c := range pointerCases {
		f.Add(c.tok)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		esc := EscapePointerToken(tok)
		if strings.Contains(esc, "/") {
			t.Fatalf("EscapePointerToken(%q) = %q holds a slash", tok, esc)
		}
		if back, ok := UnescapePointerToken(esc); !ok || back != tok {
			t.Fatalf("UnescapePointerToken(EscapePointerToken(%q)) = %q, %t", tok, back, ok)
		}
	})
}

func TestQuotePointer(t *testing.T) {
	long := "/" + strings.Repeat("é", 150) // 301 bytes
	for _, c := range []struct{ name, in, want string }{
		{"Plain", "/a/0", `"/a/0"`},
		{"Controls", "/a\nb\x1b[31m", `"/a\nb\x1b[31m"`},
		{"LineSeparators", "/\u2028\u2029", `"/\u2028\u2029"`},
		{"InvalidUTF8", "/\xff", `"/\xff"`},
		{"Long", long, `"/` + strings.Repeat("é", 49) + "…" + strings.Repeat("é", 48) + `"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := QuotePointer(c.in); got != c.want {
				t.Errorf("QuotePointer(%q) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}
