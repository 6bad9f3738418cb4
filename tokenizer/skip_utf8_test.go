package tokenizer

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// utf8Sequences are UTF-8 sequences of every class, valid and not, as the
// kernels' block check (utf8Block) and the scalar utf8 must judge them:
// JSON strings are valid UTF-8 (SPEC V1), as utf8.ValidString has it.
var utf8Sequences = []struct{ name, seq string }{
	{"2-byte", "é"},
	{"2-byte-least", "\xc2\x80"},
	{"2-byte-most", "\xdf\xbf"},
	{"3-byte", "日"},
	{"3-byte-e0-least", "\xe0\xa0\x80"},
	{"3-byte-ed-most", "\xed\x9f\xbf"},
	{"3-byte-ee", "\xee\x80\x80"},
	{"3-byte-most", "\xef\xbf\xbf"},
	{"4-byte", "😀"},
	{"4-byte-least", "\xf0\x90\x80\x80"},
	{"4-byte-most", "\xf4\x8f\xbf\xbf"},
	{"overlong-2-c0", "\xc0\xaf"},
	{"overlong-2-c1", "\xc1\xbf"},
	{"overlong-3", "\xe0\x80\xaf"},
	{"overlong-3-9f", "\xe0\x9f\xbf"},
	{"surrogate-least", "\xed\xa0\x80"},
	{"surrogate-most", "\xed\xbf\xbf"},
	{"overlong-4", "\xf0\x8f\xbf\xbf"},
	{"too-large-f4-90", "\xf4\x90\x80\x80"},
	{"too-large-f5", "\xf5\x80\x80\x80"},
	{"too-large-f8", "\xf8\x88\x80\x80\x80"},
	{"ff", "\xff"},
	{"fe", "\xfe\x80"},
	{"lone-continuation-80", "\x80"},
	{"lone-continuation-bf", "\xbf"},
	{"extra-continuation", "\xc3\xa9\x80"},
	{"four-continuations", "\xf0\x9f\x98\x80\x80"},
	{"truncated-2", "\xc3a"},
	{"truncated-3", "\xe6\x97a"},
	{"truncated-3-one", "\xe6a"},
	{"truncated-4", "\xf0\x9f\x98a"},
	{"truncated-4-two", "\xf0\x9fa"},
	{"lead-lead", "\xc3\xc3\xa9"},
	{"lead-at-quote", "\xc3"},
	{"3-lead-at-quote", "\xe6\x97"},
	{"4-lead-at-quote", "\xf0\x9f\x98"},
	{"lead-at-backslash", "\xe6\\n"},
	{"lead-at-control", "\xe6\x01"},
}

// utf8Fillers surround a sequence: ASCII, CJK text (3-byte sequences, so
// that blocks end inside one) and emoji (4-byte ones).
var utf8Fillers = []struct{ name, text string }{
	{"ascii", strings.Repeat("abcdefgh", 10)},
	{"cjk", strings.Repeat("日本語のテキスト", 4)},
	{"emoji", strings.Repeat("😀🎉", 10)},
	{"mixed", strings.Repeat("aé日😀", 8)},
}

// prefixBytes is the longest prefix of s of at most n bytes that ends
// where a character does.
func prefixBytes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TestSkipUTF8 checks the kernels' UTF-8 (a block of 32 bytes checked at
// once where 32 remain, the scalar utf8 after and where the block check
// flags a byte) against the twin and value (checkSkip, checkCopy): each
// sequence at every offset from 0 to 40 in a string, after ASCII, CJK or
// emoji text and before more of it, as a value and as a key; the verdict
// is utf8.ValidString's. And cut by the window's end at every byte from
// the sequence on.
func TestSkipUTF8(t *testing.T) {
	for _, q := range utf8Sequences {
		t.Run(q.name, func(t *testing.T) {
			for _, f := range utf8Fillers {
				for off := 0; off <= 40; off++ {
					before := prefixBytes(f.text, off)
					for _, after := range []int{0, 1, 5, 33} {
						content := before + q.seq + prefixBytes(f.text, after)
						// Only invalid sequences hold a backslash or a control byte.
						valid := utf8.ValidString(content) && !strings.ContainsAny(content, "\\\x01")
						for _, doc := range []string{`["` + content + `"]`, `{"` + content + `":0}`} {
							a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
							if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
								t.Fatalf("%s offset %d: skipWhole(%q) = %d %v, want valid %v", f.name, off, doc, end, ok, valid)
							}
							checkCopy(t, a)
							if after != 5 {
								continue
							}
							for cut := 2 + len(before); cut < len(doc); cut++ {
								a.src = []byte(doc[:cut])
								if _, ok := checkSkip(t, a); ok {
									t.Fatalf("skipWhole(%q) took a cut value", a.src)
								}
								checkCopy(t, a)
							}
						}
					}
				}
			}
		})
	}
}

// TestSkipUTF8Text checks long strings of text in scripts of 2-, 3- and
// 4-byte sequences, at every start offset within a block, whole and with
// one byte made invalid at every place: whole, they are taken; the invalid
// byte is refused wherever it falls in a block.
func TestSkipUTF8Text(t *testing.T) {
	texts := map[string]string{
		"greek":    strings.Repeat("αβγδεζηθ", 12),
		"japanese": strings.Repeat("日本語のテキストです。", 8),
		"emoji":    strings.Repeat("😀🎉👍🏽", 10),
		"mixed":    strings.Repeat("Zürich 東京 🚀 ", 8),
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			for lead := 0; lead < 34; lead++ {
				doc := `{"k":"` + strings.Repeat("x", lead) + text + `"}`
				a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
				if end, ok := checkSkip(t, a); !ok || end != len(doc) {
					t.Fatalf("lead %d: skipWhole(%q) = %d %v", lead, doc, end, ok)
				}
				checkCopy(t, a)
			}
			body := []byte(`["` + text + `"]`)
			for i := 2; i < len(body)-2; i++ {
				for _, bad := range []byte{0x80, 0xc0, 0xed, 0xf5, 0xff, 'a'} {
					src := append([]byte(nil), body...)
					src[i] = bad
					want := utf8.Valid(src)
					a := skipArgs{src: src, maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
					if end, ok := checkSkip(t, a); ok != want || ok && end != len(src) {
						t.Fatalf("%s at %d: skipWhole(%q) = %d %v, want %v", fmt.Sprintf("%#x", bad), i, src, end, ok, want)
					}
				}
			}
		})
	}
}
