package jsonwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// stringSeeds are strings that take every path of the quoting functions:
// plain ASCII runs of every length around a word, the escapes, HTML, every
// length of UTF-8 sequence and the bounds of each (overlong forms,
// surrogates, past U+10FFFF), U+2028 and U+2029, sequences cut short at the
// end, and the WTF-8 of lone surrogates.
var stringSeeds = []string{
	"", "a", "abcdefg", "abcdefgh", "abcdefghi", strings.Repeat("x", 33),
	`"`, `\`, "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<", ">", "&", "a<b>&c", "<script>",
	"é", "日本語", "😀", "\u2028", "\u2029", "\u2027\u202a", "a\u2028b\u2029c",
	"\xe2\x80", "\xe2", "\xff", "\xc3", "\xc3(", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xe0\xa0\x80",
	"\xed\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x8f\xbf\xbf", "\xf0\x90\x80\x80",
	"\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf0\x9f\x98", "日本\xe8", "\x80\x80\x80",
	"\xed\xa0", "\xed\x41\x42", "a\xed\xb0\x80b",
	"あいうえおかきくけこ" + "abcdefghij" + "さしすせそ", "line1\nline2 <b>\u2028</b> é \xff end",
}

// TestAppendMarshalString: strings are written exactly as encoding/json
// writes them.
func TestAppendMarshalString(t *testing.T) {
	for _, s := range stringSeeds {
		checkMarshal(t, s)
		checkMarshal(t, s+strings.Repeat("z", 9)) // each again followed by a word of plain bytes
		checkMarshal(t, strings.Repeat("y", 7)+s)
	}
}

func FuzzAppendMarshalString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(checkMarshal)
}

func checkMarshal(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendMarshalString([]byte("x"), s); !bytes.Equal(got[1:], want) {
		t.Errorf("AppendMarshalString(%q)\n got %s\nwant %s", s, got[1:], want)
	}
}

// TestAppendQuote: the house's dialect, case by case.
func TestAppendQuote(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"Empty", "", `""`},
		{"Plain", "name", `"name"`},
		{"QuoteBackslash", `a"b\c`, `"a\"b\\c"`},
		{"ShortEscapes", "\n\r\t", `"\n\r\t"`},
		{"OtherControls", "\x00\x08\x0c\x1f", `"\u0000\b\f\u001f"`},
		{"DEL", "\x7f", "\"\x7f\""},
		{"HTMLAsIs", "<&>", `"<&>"`},
		{"UTF8AsIs", "é日😀\u2028", "\"é日😀\u2028\""},
		{"LoneHighSurrogate", "a\xed\xa0\x80b", `"a\ud800b"`},
		{"LoneLowSurrogate", "\xed\xbf\xbf", `"\udfff"`},
		{"InvalidByte", "a\xffb", `"a\ufffdb"`},
		{"CutSequence", "日\xe6\x97", `"日\ufffd\ufffd"`},
		{"EDNotSurrogate", "\xed\x41", `"\ufffdA"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := string(AppendQuote(nil, c.in)); got != c.want {
				t.Errorf("AppendQuote(%q) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}

// FuzzAppendQuote: the output is valid JSON, and unescapes to the input
// wherever the input is valid UTF-8.
func FuzzAppendQuote(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := AppendQuote(nil, s)
		if !json.Valid(out) {
			t.Fatalf("AppendQuote(%q) = %s, not JSON", s, out)
		}
		if !utf8.ValidString(s) {
			return
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Fatalf("AppendQuote(%q) = %s, unescapes to %q (%v)", s, out, back, err)
		}
		if want := quoteByBytes(s); string(out) != want {
			t.Fatalf("AppendQuote(%q) = %s, want %s (escaped no more than JSON requires)", s, out, want)
		}
	})
}

// quoteByBytes is AppendQuote of valid UTF-8, a byte at a time: what its
// word and sequence loops must give, no escape more or fewer.
func quoteByBytes(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == '"' || c == '\\' {
			b = appendEscapedASCII(b, c)
		} else {
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}

// TestAppendQuoteExact: the benchmarks' shapes, cut at every length, are
// quoted as quoteByBytes quotes them.
func TestAppendQuoteExact(t *testing.T) {
	for _, c := range benchStrings {
		for n := 0; n <= len(c.s); n++ {
			s := c.s[:n]
			if !utf8.ValidString(s) {
				continue
			}
			if got, want := string(AppendQuote(nil, s)), quoteByBytes(s); got != want {
				t.Fatalf("%s[:%d]: AppendQuote = %s, want %s", c.name, n, got, want)
			}
		}
	}
}

// TestSeqLen: seqLen accepts exactly the sequences utf8.DecodeRune accepts,
// for every first byte and enough of what may follow.
func TestSeqLen(t *testing.T) {
	tails := []string{"", "\x80", "\xbf", "\x7f", "\xc0", "\x80\x80", "\x8f\xbf", "\x90\x80", "\x9f\xbf", "\xa0\x80",
		"\xbf\xbf", "\x80\x80\x80", "\x90\x80\x80", "\x8f\xbf\xbf", "\xbf\xbf\xbf", "\x80\x7f", "\x80\x80\x7f"}
	for c := 0x80; c < 0x100; c++ {
		for _, tail := range tails {
			s := string(rune(0)) + string([]byte{byte(c)}) + tail
			r, size := utf8.DecodeRuneInString(s[1:])
			want := size
			if r == utf8.RuneError && size == 1 {
				want = 0
			}
			if got := seqLen(s, 1); got != want {
				t.Errorf("seqLen(%q) = %d, want %d", s[1:], got, want)
			}
		}
	}
}

// TestStops: stops and quoteStops flag a word exactly when one of its bytes
// is not written as it is in their dialect.
func TestStops(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			x := uint64(0)
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(w[i])
			}
			want := c >= utf8.RuneSelf || !plain[c]
			if got := stops(x) != 0; got != want {
				t.Errorf("stops(%q) = %t, want %t", w, got, want)
			}
			want = c >= utf8.RuneSelf || c < ' ' || c == '"' || c == '\\'
			if got := quoteStops(x) != 0; got != want {
				t.Errorf("quoteStops(%q) = %t, want %t", w, got, want)
			}
		}
	}
}
