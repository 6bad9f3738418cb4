package mcpproxy

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// maxExactString is the longest string or number that tokenHash hashes
// unescaped; a longer one is hashed as written (two spellings of it then
// differ).
const maxExactString = 1 << 20

// tokenHash hashes a JSON value given in windows by its tokens, as sameJSON
// compares: whitespace aside, strings unescaped, numbers as written. Two
// values with the same hash are the same JSON; it lets the proxy compare
// values it does not hold (long lines).
type tokenHash struct {
	sc   tokenizer.Scanner
	h    hash.Hash
	base int64
	cont bool   // the last token goes on in the next window
	tok  []byte // a string's or number's bytes so far
	long bool   // tok grew past maxExactString: hashed as written
	bad  bool   // not valid JSON
	led  bool   // the first window came: the text's lead (a byte-order mark) is behind
	un   []byte // scratch: a string unescaped
	hdr  [8]byte
}

func newTokenHash() *tokenHash {
	t := &tokenHash{h: sha256.New()}
	t.sc.Reset(0)
	return t
}

// Write takes the next window; it never fails (a value that is not valid
// JSON has no sum).
func (t *tokenHash) Write(p []byte) (int, error) {
	if t.bad {
		return len(p), nil
	}
	n := len(p)
	if !t.led && len(p) > 0 {
		// A byte-order mark, as sameJSON allows: at the very start of the
		// text only, not in the first window after one of whitespace alone
		// (an empty window is no window).
		t.led = true
		p = jsonwire.TrimLead(p)
	}
	t.sc.SetBase(t.base)
	t.base += int64(len(p))
	for i := 0; ; {
		tok, j, err := t.sc.Next(p, i)
		if err != nil {
			t.bad = true
			return n, nil
		}
		if tok.Kind == tokenizer.None {
			return n, nil
		}
		if !t.cont {
			key := byte(0)
			if tok.Key {
				key = 1
			}
			t.hdr[0], t.hdr[1] = byte(tok.Kind), key
			t.h.Write(t.hdr[:2])
			t.tok, t.long = t.tok[:0], false
		}
		if tok.Kind == tokenizer.String || tok.Kind == tokenizer.Number {
			t.piece(p[tok.Start:tok.End], tok.Kind == tokenizer.String, tok.More)
		}
		t.cont = tok.More
		if tok.More {
			return n, nil // the window ended in the token
		}
		i = j
	}
}

// piece takes a piece of a string or number token; more says that the
// token goes on.
func (t *tokenHash) piece(b []byte, str, more bool) {
	if !t.long && len(t.tok)+len(b) > maxExactString {
		t.hdr[0] = 'L'
		t.h.Write(t.hdr[:1])
		t.h.Write(t.tok)
		t.long = true
	}
	if t.long {
		t.h.Write(b)
		if !more {
			t.hdr[0] = 'E'
			t.h.Write(t.hdr[:1])
		}
		return
	}
	t.tok = append(t.tok, b...)
	if more {
		return
	}
	v := t.tok
	if str {
		t.un = tokenizer.AppendUnescaped(t.un[:0], v[1:len(v)-1])
		v = t.un
	}
	binary.BigEndian.PutUint64(t.hdr[:], uint64(len(v)))
	t.h.Write(t.hdr[:])
	t.h.Write(v)
}

// sum returns the hash of a whole valid value, or nil.
func (t *tokenHash) sum() []byte {
	if t.bad || t.sc.End(0) != nil {
		return nil
	}
	if t.cont {
		// A number at the very end, which End completed: its text is
		// still held, unhashed.
		t.piece(nil, false, false)
		t.cont = false
	}
	return t.h.Sum(nil)
}

// hashOf is the tokenHash of a value held whole.
func hashOf(b []byte) []byte {
	t := newTokenHash()
	t.Write(b)
	return t.sum()
}
