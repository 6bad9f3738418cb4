package toolresult

import (
	"errors"
	"sync"

	tiktoken "github.com/tiktoken-go/tokenizer"
)

// A Tokenizer counts the tokens of a text exactly, as a model's BPE tokenizer
// splits it (SPEC C1). Implementations must be safe for concurrent use.
type Tokenizer interface {
	// Encoding names the tokenizer's encoding, such as "o200k_base".
	Encoding() string
	// Count returns the number of tokens in text when there are at most
	// limit of them, and otherwise some number greater than limit, having
	// tokenized about limit+1 tokens of text, not all of it. A negative
	// limit counts the whole text.
	Count(text []byte, limit int) int
}

// Encodings a Tokenizer can be made for by NewTokenizer.
const (
	O200kBase  = "o200k_base"  // GPT-4o, GPT-4.1, GPT-5, o-series; the default
	Cl100kBase = "cl100k_base" // GPT-4, GPT-3.5
)

// DefaultEncoding is the encoding a Processor counts with unless told.
const DefaultEncoding = O200kBase

// NewTokenizer returns the tokenizer of an encoding, O200kBase or
// Cl100kBase, with the vocabulary built in (github.com/tiktoken-go/tokenizer):
// it needs no network. Tokenizers are shared: every call with one name
// returns the same one.
func NewTokenizer(encoding string) (Tokenizer, error) {
	var e tiktoken.Encoding
	switch encoding {
	case O200kBase:
		e = tiktoken.O200kBase
	case Cl100kBase:
		e = tiktoken.Cl100kBase
	default:
		return nil, errors.New(`jsonmask: unknown encoding "` + encoding + `": want o200k_base or cl100k_base`)
	}
	tokenizersMu.Lock()
	defer tokenizersMu.Unlock()
	if t, ok := tokenizers[encoding]; ok {
		return t, nil
	}
	c, err := tiktoken.Get(e)
	if err != nil {
		return nil, err
	}
	t := &bpe{name: encoding, codec: c}
	tokenizers[encoding] = t
	return t, nil
}

var (
	tokenizersMu sync.Mutex
	tokenizers   = map[string]*bpe{}
)

// maxTokenBytes is the length in bytes of the longest token of o200k_base and
// cl100k_base (TestMaxTokenBytes checks it): a text of n bytes holds at least
// n/maxTokenBytes tokens, whatever it is.
const maxTokenBytes = 128

// bpe counts with a tiktoken codec, a chunk at a time.
//
// BPE splits a text into pieces with a regular expression and merges each
// piece on its own, so a text cut where a piece always ends counts as the sum
// of its parts. Such a cut is before a '"' or a ' ' that follows an ASCII
// letter or digit: no piece of either encoding's expression holds a letter or
// digit followed by a quote or a space (letters run into letters and
// contractions, digits into digits, and the space or quote starts the next
// piece), and the expressions never look behind. TestChunksAdd checks it on
// the corpus at every such cut. Cutting there
//
//   - stops early: a count with a limit ends at the first chunk that goes
//     past it, and takes chunks no longer than the tokens still allowed, so
//     that it tokenizes about limit+1 tokens, not the whole text;
//   - bounds the work on one piece: a chunk of n bytes holds at least
//     n/maxTokenBytes tokens, so a chunk that would go past the limit on that
//     count alone (a long base64 string) is not tokenized at all;
//   - keeps the codec's own buffers (it converts its input to runes) small.
type bpe struct {
	name  string
	codec tiktoken.Codec
}

func (t *bpe) Encoding() string { return t.name }

// chunkBytes is the length a chunk is cut at, when a cut is near and no limit
// asks for less.
const chunkBytes = 16 << 10

func (t *bpe) Count(text []byte, limit int) int {
	total := 0
	for len(text) > 0 {
		want := chunkBytes
		if limit >= 0 {
			left := limit + 1 - total // tokens still to count before we know
			if len(text)/maxTokenBytes >= left {
				return total + len(text)/maxTokenBytes // at least that many
			}
			want = min(want, max(left, 1))
		}
		n := chunkEnd(text, want)
		if limit >= 0 && n/maxTokenBytes >= limit+1-total {
			return total + n/maxTokenBytes
		}
		c, _ := t.codec.Count(string(text[:n]))
		total += c
		text = text[n:]
		if limit >= 0 && total > limit {
			return total
		}
	}
	return total
}

// chunkEnd returns where to end the chunk that starts text: at the last cut
// at or before want bytes, or else at the first cut after it, or the end.
func chunkEnd(text []byte, want int) int {
	if want >= len(text) {
		return len(text)
	}
	for i := want; i > 0; i-- {
		if cutAt(text, i) {
			return i
		}
	}
	for i := want + 1; i < len(text); i++ {
		if cutAt(text, i) {
			return i
		}
	}
	return len(text)
}

// cutAt reports whether a piece of BPE always ends before text[i].
func cutAt(text []byte, i int) bool {
	c := text[i]
	if c != '"' && c != ' ' {
		return false
	}
	p := text[i-1]
	return p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z' || p >= '0' && p <= '9'
}
