package tokenizer_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// TestAppendUnescaped pins both modes of the one unescaping loop: lone
// surrogates as WTF-8 (keys, SPEC M5) or as U+FFFD (values for queries, as
// encoding/json), and bodies cut short at a window's end.
func TestAppendUnescaped(t *testing.T) {
	for _, tc := range []struct {
		name, in      string
		wtf8, replace string
	}{
		{"Plain", `abc`, "abc", "abc"},
		{"Empty", ``, "", ""},
		{"Escapes", `a\"b\\c\/d\b\f\n\r\t`, "a\"b\\c/d\b\f\n\r\t", "a\"b\\c/d\b\f\n\r\t"},
		{"EscapeFirst", `\nx`, "\nx", "\nx"},
		{"EscapeLast", `x\n`, "x\n", "x\n"},
		{"OnlyEscapes", `\\\\`, `\\`, `\\`},
		{"Unicode", `\u00e9\u0041\uFFFF\u0000`, "éA\uffff\x00", "éA\uffff\x00"},
		{"UpperHex", `\u00E9`, "é", "é"},
		{"Pair", `\ud83d\ude00`, "😀", "😀"},
		{"PairLast", `x\ud83d\ude00`, "x😀", "x😀"},
		{"PairUpper", `\uD83D\uDE00!`, "😀!", "😀!"},
		{"LoneHigh", `\ud800x`, "\xed\xa0\x80x", "\uFFFDx"},
		{"LoneHighLast", `x\ud800`, "x\xed\xa0\x80", "x\uFFFD"},
		{"LoneLow", `\udc00`, "\xed\xb0\x80", "\uFFFD"},
		{"LowThenHigh", `\udc00\ud800`, "\xed\xb0\x80\xed\xa0\x80", "\uFFFD\uFFFD"},
		{"HighThenNonLow", `\ud800\u0041`, "\xed\xa0\x80A", "\uFFFDA"},
		{"HighHighLow", `\ud800\ud83d\ude00`, "\xed\xa0\x80😀", "\uFFFD😀"},
		{"HighThenEscape", `\ud800\n`, "\xed\xa0\x80\n", "\uFFFD\n"},
		{"HighThenText", `\ud800\ude`, "\xed\xa0\x80\\ude", "\uFFFD\\ude"},
		{"LastSurrogates", `\udbff\udfff`, "\U0010FFFF", "\U0010FFFF"},
		// Cut short (not valid on its own; a window's end): the last
		// bytes stay as they are.
		{"CutBackslash", `ab\`, `ab\`, `ab\`},
		{"CutUnicode", `ab\u00`, `ab\u00`, `ab\u00`},
		{"CutAfterHigh", `\ud83d\ude0`, "\xed\xa0\xbd\\ude0", "\uFFFD\\ude0"},
		{"CutAfterHighBackslash", `\ud83d\`, "\xed\xa0\xbd\\", "\uFFFD\\"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tokenizer.AppendUnescaped([]byte("<"), []byte(tc.in)); string(got) != "<"+tc.wtf8 {
				t.Errorf("WTF8: got %q, want %q", got, tc.wtf8)
			}
			if got := tokenizer.AppendUnescapedAs(nil, []byte(tc.in), tokenizer.WTF8); string(got) != tc.wtf8 {
				t.Errorf("AppendUnescapedAs WTF8: got %q, want %q", got, tc.wtf8)
			}
			if got := tokenizer.AppendUnescapedAs(nil, []byte(tc.in), tokenizer.Replace); string(got) != tc.replace {
				t.Errorf("Replace: got %q, want %q", got, tc.replace)
			}
		})
	}
}

// FuzzAppendUnescaped: on a valid string body, Replace decodes as
// encoding/json does, and WTF8 differs from it only where a lone surrogate
// is (its three bytes for U+FFFD's).
func FuzzAppendUnescaped(f *testing.F) {
	for _, s := range []string{`abc`, `a\"b\\c\/d\b\f\n\r\t\u00e9`, `\ud83d\ude00`, `\ud800x`, `\udc00\ud800`, `\ud800\ud83d\ude00`, `x\`, `\u12`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		wtf := tokenizer.AppendUnescaped(nil, b)
		rep := tokenizer.AppendUnescapedAs(nil, b, tokenizer.Replace)
		if got := tokenizer.AppendUnescapedAs(nil, b, tokenizer.WTF8); !bytes.Equal(got, wtf) {
			t.Fatalf("AppendUnescapedAs(WTF8) %q, AppendUnescaped %q", got, wtf)
		}
		quoted := append(append([]byte{'"'}, b...), '"')
		if !json.Valid(quoted) || !utf8.Valid(b) {
			return
		}
		var want string
		if err := json.Unmarshal(quoted, &want); err != nil {
			t.Fatal(err)
		}
		if string(rep) != want {
			t.Fatalf("Replace %q, encoding/json %q", rep, want)
		}
		if back := replaceSurrogates(wtf); !bytes.Equal(back, rep) {
			t.Fatalf("WTF8 %q is not Replace %q but for lone surrogates", wtf, rep)
		}
	})
}

// replaceSurrogates replaces the WTF-8 form of each surrogate in b (ED A0
// 80 to ED BF BF) with U+FFFD.
func replaceSurrogates(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == 0xED && i+2 < len(b) && b[i+1] >= 0xA0 && b[i+1] <= 0xBF {
			out = append(out, "\uFFFD"...)
			i += 2
			continue
		}
		out = append(out, b[i])
	}
	return out
}
