package toolresult

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	tiktoken "github.com/tiktoken-go/tokenizer"
)

// corpusFiles are the documents of the corpus (bench/testdata) that the tokenizer's
// tests read: English and other languages, escapes, numbers.
var corpusFiles = []string{"conversation_items.json", "flow_document.json", "twitter.json", "twitterescaped.json", "canada.json", "citm_catalog.json"}

// readCorpus returns the first 256 KiB of each of files (64 KiB of two of
// them with -short): cuts are local, and the tests stay fast.
func readCorpus(t *testing.T, texts map[string]string, files ...string) {
	t.Helper()
	prefix := 256 << 10
	if testing.Short() {
		files, prefix = files[:min(2, len(files))], 64<<10
	}
	for _, f := range files {
		b := corpus.File(t, f)
		texts[f] = string(b[:min(len(b), prefix)])
	}
}

// hostileTexts are texts with few cuts of the first kind (a quote or a space
// after a letter or digit), or none.
func hostileTexts() map[string]string {
	b64 := make([]byte, 48<<10)
	for i := range b64 {
		b64[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*7919+i/64)%64]
	}
	return map[string]string{
		"numbers": "[" + strings.Repeat("1,", 16<<10) + "1]",
		"digits":  `[12345678901234567890,-0.5e-7,1E400,x1,a12,Z123,_1234,/12345]`,
		"floats":  `{"x":[` + strings.Repeat("0.125,-3.25e+10,", 4<<10) + "1]}",
		"base64":  `{"blob":"` + string(b64) + `"}`,
		"mixed":   `{"a1":"b2 c3","d":[1,"2",3.0e4],"é1":"²3٣4","'s1":"x'1"}`,
	}
}

// TestChunksAdd checks the cuts bpe chunks a text at (see bpe): at every
// one, the tokens of the text are those of the part before it followed by
// those of the part after it, in both encodings, on the corpus and on texts
// made to have few cuts. Its pieces are compared token by token, not only
// counted.
func TestChunksAdd(t *testing.T) {
	texts := hostileTexts()
	readCorpus(t, texts, corpusFiles...)
	for _, enc := range []tiktoken.Encoding{tiktoken.O200kBase, tiktoken.Cl100kBase} {
		codec, err := tiktoken.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range texts {
			t.Run(string(enc)+"/"+name, func(t *testing.T) {
				whole, _, err := codec.Encode(text)
				if err != nil {
					t.Fatal(err)
				}
				var parts []uint
				cuts, start := 0, 0
				for i := 1; i < len(text); i++ {
					if cutAt([]byte(text), i) {
						ids, _, _ := codec.Encode(text[start:i])
						parts = append(parts, ids...)
						start = i
						cuts++
					}
				}
				ids, _, _ := codec.Encode(text[start:])
				parts = append(parts, ids...)
				if !slices.Equal(parts, whole) {
					i := 0
					for i < min(len(parts), len(whole)) && parts[i] == whole[i] {
						i++
					}
					t.Fatalf("cut at %d places: the parts' tokens differ from the whole's from token %d on", cuts, i)
				}
			})
		}
	}
}

// TestMaxTokenBytes checks maxTokenBytes: no token of either encoding is
// longer.
func TestMaxTokenBytes(t *testing.T) {
	for _, enc := range []tiktoken.Encoding{tiktoken.O200kBase, tiktoken.Cl100kBase} {
		codec, err := tiktoken.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		longest, tokens := 0, 0
		for id := uint(0); id < 1<<20; id++ {
			s, err := codec.Decode([]uint{id})
			if err != nil {
				continue // a hole in the ids, or past the last one
			}
			longest = max(longest, len(s))
			tokens++
		}
		if tokens < 100000 || longest > maxTokenBytes {
			t.Errorf("%s: %d tokens, the longest %d bytes; maxTokenBytes is %d", enc, tokens, longest, maxTokenBytes)
		}
	}
}

// countingCodec counts the tokens its codec tokenizes.
type countingCodec struct {
	tiktoken.Codec
	tokens, calls int
}

func (c *countingCodec) Count(s string) (int, error) {
	n, err := c.Codec.Count(s)
	c.tokens += n
	c.calls++
	return n, err
}

// TestCountEarlyExit checks the early exit of SPEC C10: a count with a limit
// answers exactly when the text has at most limit tokens, and with more than
// limit otherwise; it tokenizes at most limit+1 tokens, and the rest of the
// stretch between two cuts where it stopped (see bpe), which is a few tokens
// in these texts. Texts that are one long run with no cut are the exception
// bpe's documentation states: they are checked for the answer only.
func TestCountEarlyExit(t *testing.T) {
	texts := hostileTexts()
	readCorpus(t, texts, corpusFiles[:2]...)
	onePiece := map[string]string{
		"brackets":    strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		"long-number": "[" + strings.Repeat("9", 30000) + "]",
		"cjk":         `{"text":"` + strings.Repeat("中文", 8000) + `"}`,
	}
	for name, text := range onePiece {
		texts[name] = text
	}
	tok, err := NewTokenizer(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	inner := tok.(*bpe).codec
	// The tokens a count may take past limit+1: the end of the stretch
	// between two cuts where it stopped (a key and its quotes, a number).
	const stretch = 8
	for name, text := range texts {
		whole, _ := inner.Count(text)
		for _, limit := range []int{0, 1, 100, 7000, whole - 1, whole} {
			if limit < 0 {
				continue
			}
			cc := &countingCodec{Codec: inner}
			n := (&bpe{name: O200kBase, codec: cc}).Count([]byte(text), limit)
			if limit == DefaultBudget {
				t.Logf("%s (%d bytes, %d tokens): a count with limit %d tokenized %d tokens in %d calls", name, len(text), whole, limit, cc.tokens, cc.calls)
			}
			switch {
			case whole <= limit && n != whole:
				t.Errorf("%s, limit %d: counted %d, want %d", name, limit, n, whole)
			case whole > limit && n <= limit:
				t.Errorf("%s, limit %d: counted %d, want more than the limit (%d tokens)", name, limit, n, whole)
			case onePiece[name] == "" && cc.tokens > limit+1+stretch:
				t.Errorf("%s, limit %d: tokenized %d tokens in %d calls, want at most limit+1, and %d more for the last stretch", name, limit, cc.tokens, cc.calls, stretch)
			}
		}
	}
}

// TestWhitespaceCounts recounts texts of whitespace and newlines, tiktoken's
// own edge cases among them, against counts that an independent tokenizer
// (js-tiktoken 1.0.21, a port of tiktoken with JavaScript's regular
// expressions) made: testdata/whitespace_counts.json, written by
// testdata/whitespace_counts.mjs. tiktoken-go v0.10.0 alone ends a piece of
// whitespace at its first newline where tiktoken's \s*[\r\n]+ takes it to
// the last one ("x \n \nabc": 4 tokens, not 3).
func TestWhitespaceCounts(t *testing.T) {
	b, err := os.ReadFile("testdata/whitespace_counts.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Text   string
		O200k  int `json:"o200k_base"`
		Cl100k int `json:"cl100k_base"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{O200kBase, Cl100kBase} {
		tok, err := NewTokenizer(enc)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, c := range cases {
			want := c.O200k
			if enc == Cl100kBase {
				want = c.Cl100k
			}
			if got := tok.Count([]byte(c.Text), -1); got != want {
				if bad++; bad <= 10 {
					t.Errorf("%s: %q: %d tokens, want %d", enc, c.Text, got, want)
				}
			}
			// With a limit: the same count, or past it.
			if got := tok.Count([]byte(c.Text), want); got != want {
				t.Errorf("%s: %q with the limit %d: %d tokens", enc, c.Text, want, got)
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d texts counted wrong", enc, bad, len(cases))
		}
	}
}

// BenchmarkCount counts the corpus' conversation items (compact JSON) and
// twitter.json (indented: a newline and spaces before every member).
func BenchmarkCount(b *testing.B) {
	for _, f := range []string{"conversation_items.json", "twitter.json"} {
		text := corpus.File(b, f)
		tok, _ := NewTokenizer(O200kBase)
		b.Run(f, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				tok.Count(text, -1)
			}
		})
	}
}

// FuzzCount: any text, whitespace runs above all, counts the same with a
// limit as without, up to the limit (the pieces found before the codec
// and the chunks add up whatever the limit), and never panics.
func FuzzCount(f *testing.F) {
	for _, s := range []string{"x \n \nabc", " \n \n", "}\n \n", "a\u00a0\n \n\u3000b", "\r\n\r \n", "\xff\n \n\xc3", "1\n\t\n2 3"} {
		f.Add(s, 3)
	}
	tok, err := NewTokenizer(O200kBase)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if len(s) > 4096 {
			return
		}
		all := tok.Count([]byte(s), -1)
		limit = max(limit%64, 0)
		got := tok.Count([]byte(s), limit)
		if all <= limit && got != all || all > limit && got <= limit {
			t.Fatalf("%q: %d tokens, with the limit %d: %d", s, all, limit, got)
		}
	})
}
