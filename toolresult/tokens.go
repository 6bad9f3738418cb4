package toolresult

import (
	"sync"

	"github.com/jsonmask/jsonmask/internal/errs"
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
		return nil, errs.New(`unknown encoding "` + encoding + `": want o200k_base or cl100k_base`)
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
// of its parts. In both encodings' expressions a piece always ends
//
//   - before a '"' or a ' ' that follows an ASCII letter or digit: no piece
//     holds a letter or digit followed by a quote or a space (letters run
//     into letters and contractions, digits into digits, and the space or
//     quote starts the next piece);
//   - before an ASCII digit that follows a printable ASCII byte that is
//     neither a digit nor a space: digits are only ever in pieces of digits
//     (\p{N}{1,3}), so a run of them starts a piece. This is what cuts
//     arrays of numbers, which have no quote or space, and base64. (Not
//     after whitespace: a run of it before a letter or digit leaves its
//     last space to the next piece, \s+(?!\S), which a cut there changes.)
//
// The expressions never look behind, and look ahead only at the end of a run
// of whitespace, and no cut leaves whitespace at the end of a part.
// TestChunksAdd checks on the corpus that the tokens of the parts are those
// of the whole at every such cut. Cutting there
//
//   - stops early: a count with a limit ends at the first chunk that goes
//     past it, and takes chunks no longer than the tokens still allowed, so
//     that it tokenizes at most limit+1 tokens, and the rest of the stretch
//     between two cuts that the last chunk ends in, not the whole text;
//   - bounds the work on one piece: a chunk of n bytes holds at least
//     n/maxTokenBytes tokens, so a chunk that would go past the limit on that
//     count alone (a long run with no cut) is not tokenized at all;
//   - keeps the codec's own buffers (it converts its input to runes) small.
//
// A run with no cut (one long piece: a string of CJK text with no ASCII in
// it, a deep nest of brackets) is tokenized whole when it may still fit,
// that is when it is shorter than maxTokenBytes bytes per token still
// allowed: such a count may tokenize more than limit+1 tokens.
type bpe struct {
	name  string
	codec tiktoken.Codec
	ws    ranks // for the whitespace pieces the codec splits wrongly (whitespace.go)
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
		total += t.countCodec(text[:n])
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
	c, p := text[i], text[i-1]
	switch {
	case c == '"' || c == ' ':
		return p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z' || p >= '0' && p <= '9'
	case c >= '0' && c <= '9':
		return p > ' ' && p < 0x7F && (p < '0' || p > '9')
	}
	return false
}
