package jsonwire

import (
	"bytes"
	"testing"
)

func TestLeadLen(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want int
	}{
		{"Empty", "", 0},
		{"Object", "{}", 0},
		{"Spaces", " \t\r\n{", 4},
		{"AllSpace", "  \n", 3},
		{"BOM", "\xEF\xBB\xBF{", 3},
		{"BOMThenSpace", "\xEF\xBB\xBF \n[", 5},
		{"BOMAlone", "\xEF\xBB\xBF", 3},
		{"BOMCutShort1", "\xEF", 0},
		{"BOMCutShort2", "\xEF\xBB", 0},
		{"BOMBroken", "\xEF\xBB{", 0},
		{"BOMAfterSpace", " \xEF\xBB\xBF{", 1},
		{"TwoBOMs", "\xEF\xBB\xBF\xEF\xBB\xBF{", 3},
		{"NotSpace", "\v{", 0},
		{"FormFeed", "\f{", 0},
		{"NBSP", "\xC2\xA0{", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := LeadLen([]byte(c.in)); got != c.want {
				t.Errorf("LeadLen(%q) = %d, want %d", c.in, got, c.want)
			}
		})
	}
}

func TestCutBOM(t *testing.T) {
	for in, want := range map[string]bool{"": true, "\xEF": true, "\xEF\xBB": true, "\xEF\xBB\xBF": false, "\xEF{": false, "{": false, " ": false} {
		if got := CutBOM([]byte(in)); got != want {
			t.Errorf("CutBOM(%q) = %t, want %t", in, got, want)
		}
	}
}

func TestTrim(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"Empty", "", ""},
		{"Both", "\xEF\xBB\xBF \n{\"a\":1}\r\n\t ", `{"a":1}`},
		{"InsideKept", " [1, 2] ", "[1, 2]"},
		{"AllSpace", " \t ", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Trim([]byte(c.in)); string(got) != c.want {
				t.Errorf("Trim(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestIsSpace(t *testing.T) {
	for c := range 256 {
		want := c == ' ' || c == '\t' || c == '\n' || c == '\r'
		if got := IsSpace(byte(c)); got != want {
			t.Errorf("IsSpace(%#x) = %t, want %t", c, got, want)
		}
	}
}

// FuzzLeadLen: the lead is an optional byte-order mark and whitespace, and
// what follows it is neither.
func FuzzLeadLen(f *testing.F) {
	for _, s := range []string{"", "{}", "\xEF\xBB\xBF {", "\xEF\xBB", " \xEF", "\t\n\r [1]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := LeadLen(b)
		if n < 0 || n > len(b) {
			t.Fatalf("LeadLen(%q) = %d", b, n)
		}
		rest := bytes.TrimPrefix(b[:n], []byte(BOM))
		if len(bytes.Trim(rest, " \t\r\n")) != 0 {
			t.Fatalf("LeadLen(%q) = %d: the lead holds more than a BOM and whitespace", b, n)
		}
		if n < len(b) && IsSpace(b[n]) {
			t.Fatalf("LeadLen(%q) = %d: whitespace follows", b, n)
		}
		if n < len(b) && n == 0 && bytes.HasPrefix(b, []byte(BOM)) {
			t.Fatalf("LeadLen(%q) = 0 before a BOM", b)
		}
	})
}

func TestStringLead(t *testing.T) {
	for _, c := range []struct {
		name, content string
		want          byte
	}{
		{"Object", `{}`, '{'},
		{"ArrayAfterSpace", " \n\t[1]", '['},
		{"EscapedSpace", `\n\r\t {`, '{'},
		{"EscapedBrace", `\u007b`, '{'},
		{"EscapedSpaceThenBracket", `\u0020\u005b`, '['},
		{"BOM", "\xEF\xBB\xBF{", '{'},
		{"EscapedBOM", `\ufeff{`, '{'},
		{"BOMAfterSpace", " \xEF\xBB\xBF[", '['},
		{"Text", `x{`, 'x'},
		{"Empty", ``, 0},
		{"AllSpace", `  `, 0},
		{"EscapedNonASCII", `\u00e9`, NonASCII},
		{"NonASCII", "é{", NonASCII},
		{"BrokenBOM", "\xEF\xBB{", NonASCII},
		{"EscapedQuote", `\"{`, '"'},
		{"EscapedSlash", `\/`, '/'},
		{"BadHex", `\u0z7b`, 0},
		{"CutInEscape", `  \`, 0},
		{"CutInHex", `\u007`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := StringLead([]byte(c.content)); got != c.want {
				t.Errorf("StringLead(%q) = %q, want %q", c.content, got, c.want)
			}
		})
	}
}
