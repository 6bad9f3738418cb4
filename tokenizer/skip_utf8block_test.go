package tokenizer

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// utf8BlockPrefix is n bytes of string content that ends where a character
// does: CJK text (when cjk) cut to a character, then ASCII up to n. With
// CJK text before it, a sequence after the prefix is checked by the block
// check that the first non-ASCII byte of its block began (utf8Chain); with
// ASCII, by the one that it begins itself.
func utf8BlockPrefix(n int, cjk bool) string {
	p := ""
	if cjk {
		p = prefixBytes(strings.Repeat("日本語のテキスト", 20), n)
	}
	return p + strings.Repeat("x", n-len(p))
}

// utf8BlockDocs are documents that put each sequence of utf8Sequences at
// every offset of the blocks that the value kernels check in a string: its
// first 32 bytes, the 64 after them (strShort) and the first 64 of strLoop,
// so that each is cut by a block's end at every byte and each valid one
// straddles every boundary; after ASCII or CJK text, with CJK text after
// it, as a value then another string in the same block (the chain), and as
// a key.
func utf8BlockDocs(each func(doc string, valid bool)) {
	tail := strings.Repeat("語", 40)
	for _, q := range utf8Sequences {
		for _, cjk := range []bool{false, true} {
			for n := 0; n < 32+64+64+4; n++ {
				content := utf8BlockPrefix(n, cjk) + q.seq + tail
				valid := utf8.ValidString(content) && !strings.ContainsAny(content, "\\\x01")
				each(`{"k":"`+content+`","n":"日本"}`, valid)
				each(`{"`+content+`":["x","é"]}`, valid)
			}
		}
	}
}

// TestSkipUTF8Blocks checks the kernels' block check of UTF-8 (utf8Chain,
// utf8Chain32) against the twin and value (checkSkip, checkCopy) on
// utf8BlockDocs, whole and cut at each of the last 80 bytes (src's end in
// the block, STOPSTAIL's last 64 bytes): the verdict is utf8.ValidString's,
// and the checkpoints the twin's.
func TestSkipUTF8Blocks(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 7 // -race -short: every 7th cut (13 s whole, without the race detector)
	}
	utf8BlockDocs(func(doc string, valid bool) {
		a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
		if end, ok := checkSkip(t, a); ok != valid || ok && end != len(doc) {
			t.Fatalf("skipWhole(%q) = %d %v, want valid %v", doc, end, ok, valid)
		}
		checkCopy(t, a)
		for cut := max(1, len(doc)-80); cut < len(doc); cut += step {
			a.src = []byte(doc[:cut])
			if _, ok := checkSkip(t, a); ok {
				t.Fatalf("skipWhole(%q) took a cut value", a.src)
			}
			checkCopy(t, a)
		}
	})
}

// TestSkipUTF8BlockTokens checks maxToken where a string's first stop in
// a block was a byte from 0x80, which the block check drops: a string of
// CJK text longer than the limit is refused, one at the limit taken,
// wherever it ends.
func TestSkipUTF8BlockTokens(t *testing.T) {
	for n := 100; n < 400; n++ {
		content := utf8BlockPrefix(n, true)
		doc := `["` + content + `","x"]`
		for _, limit := range []int{n + 1, n + 2} {
			a := skipArgs{src: []byte(doc), maxDepth: DefaultMaxDepth, maxToken: limit}
			if _, ok := checkSkip(t, a); ok != (limit == n+2) {
				t.Fatalf("maxToken %d: skipWhole(%q) = %v", limit, doc, ok)
			}
			checkCopy(t, a)
		}
	}
}
