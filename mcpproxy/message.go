package mcpproxy

import (
	"bytes"
	"errors"
	"math/big"
	"strings"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// span is a stretch of a message, b[start:end].
type span struct{ start, end int }

// member is one member of a JSON object in a message.
type member struct {
	key   string // unescaped
	start int    // the key's opening quote
	val   span
}

// raw returns the member as written, key, colon and value.
func (m member) raw(b []byte) []byte { return b[m.start:m.val.end] }

// parser reads the JSON of messages with the project's tokenizer: one level
// of an object or an array at a time, as spans of the message, validating
// what it reads (RFC 8259, in full unless trusted: see trust). Its errors, as the
// tokenizer's, have no "jsonmask: " in front: who reports one says it.
type parser struct{ sc tokenizer.Scanner }

// trust says how the parser reads the values it skips: untrusted, a
// message as it arrives, validated in full (RFC 8259); trusted, a part of a
// message that was validated when it arrived, whose string quoting and
// nesting alone are read (tokenizer's SkipTrusted).
type trust bool

const (
	untrusted trust = false
	trusted   trust = true
)

// errShape is a value that is not the object or array it should be.
var errShape = errors.New("not the JSON object or array expected")

// open starts reading the value at v, which must begin with want ('{' or
// '['), whitespace around it allowed.
func (p *parser) open(b []byte, v span, want tokenizer.Kind) ([]byte, int, error) {
	src := b[v.start:v.end]
	p.sc.Reset(0)
	p.sc.SetBase(int64(v.start))
	k, i, err := p.sc.Peek(src, 0)
	if err != nil {
		return nil, 0, err
	}
	if k != want {
		if k == tokenizer.None {
			return nil, 0, p.sc.End(len(src))
		}
		return nil, 0, errShape
	}
	_, i, err = p.sc.Next(src, i)
	return src, i, err
}

// close checks that nothing but whitespace follows the value.
func (p *parser) close(src []byte, i int) error {
	if _, _, err := p.sc.Peek(src, i); err != nil {
		return err
	}
	return p.sc.End(len(src))
}

// value consumes the value at src[i], which Peek found.
func (p *parser) value(src []byte, i int, how trust) (int, error) {
	var done bool
	var err error
	if how == trusted {
		i, done, err = p.sc.SkipTrusted(src, i)
	} else {
		i, done, err = p.sc.SkipValue(src, i)
	}
	if err == nil && !done {
		err = p.sc.End(len(src))
	}
	return i, err
}

// members reads the members of the object at v. On an error it returns the
// members read before it, with the error.
func (p *parser) members(b []byte, v span, how trust) ([]member, error) {
	src, i, err := p.open(b, v, tokenizer.ObjectStart)
	if err != nil {
		return nil, err
	}
	var ms []member
	for {
		t, j, err := p.sc.Next(src, i)
		switch {
		case err != nil:
			return ms, err
		case t.Kind == tokenizer.None:
			return ms, p.sc.End(len(src))
		case t.Kind == tokenizer.ObjectEnd:
			return ms, p.close(src, j)
		}
		key := unquote(src[t.Start:t.End])
		k, vs, err := p.sc.Peek(src, j)
		if err == nil && k == tokenizer.None {
			err = p.sc.End(len(src))
		}
		if err != nil {
			return ms, err
		}
		ve, err := p.value(src, vs, how)
		if err != nil {
			return ms, err
		}
		ms = append(ms, member{key: key, start: v.start + t.Start, val: span{v.start + vs, v.start + ve}})
		i = ve
	}
}

// elements reads the elements of the array at v.
func (p *parser) elements(b []byte, v span, how trust) ([]span, error) {
	src, i, err := p.open(b, v, tokenizer.ArrayStart)
	if err != nil {
		return nil, err
	}
	var es []span
	for {
		k, j, err := p.sc.Peek(src, i)
		switch {
		case err != nil:
			return es, err
		case k == tokenizer.None:
			return es, p.sc.End(len(src))
		case k == tokenizer.ArrayEnd:
			_, j, _ = p.sc.Next(src, j)
			return es, p.close(src, j)
		}
		e, err := p.value(src, j, how)
		if err != nil {
			return es, err
		}
		es = append(es, span{v.start + j, v.start + e})
		i = e
	}
}

// unquote returns the text of a string token, quotes included.
func unquote(tok []byte) string {
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	return string(tokenizer.AppendUnescaped(nil, body))
}

// text returns the string a value holds, if it is a string.
func text(b []byte, v span) (string, bool) {
	raw := b[v.start:v.end]
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	return unquote(raw), true
}

// textBytes is text as bytes: a string value's content, unescaped.
func textBytes(b []byte, v span) []byte {
	raw := b[v.start:v.end]
	return tokenizer.AppendUnescaped(make([]byte, 0, len(raw)), raw[1:len(raw)-1])
}

// find returns the first member called key, and whether another one
// follows it.
func find(ms []member, key string) (m *member, twice bool) {
	for i := range ms {
		if ms[i].key == key {
			if m != nil {
				return m, true
			}
			m = &ms[i]
		}
	}
	return m, false
}

// idKey returns a request id as a map key, canonicalised: ids are compared
// as JSON values, so that "\u0031" is "1" and 1.0 is 1E0 (JSON-RPC allows
// strings and numbers; a server may write back the id it parsed in its own
// spelling). It reports false for anything else.
func idKey(raw []byte) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch c := raw[0]; {
	case c == '"':
		return "s" + unquote(raw), true
	case c == '-' || c >= '0' && c <= '9':
		s := string(raw)
		if !strings.ContainsAny(s, ".eE") {
			if s == "-0" {
				s = "0"
			}
			return "n" + s, true
		}
		f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
		if err != nil {
			return "", false
		}
		if f.IsInt() {
			n, _ := f.Int(nil)
			return "n" + n.String(), true
		}
		return "n" + f.Text('g', -1), true
	}
	return "", false
}

// sameJSON reports whether a and b are the same JSON: the same tokens in
// the same order, whitespace aside, strings compared after unescaping,
// numbers as written (SPEC P4: a result's structuredContent and its text,
// serialized by the same server, differ at most in whitespace and escapes).
//
// Text that is not valid JSON is the same as nothing, not even itself, as
// on a long line's streamed path, where such text has no hash
// (bigValues.same).
func sameJSON(a, b []byte) bool {
	var sa, sb tokenizer.Scanner
	sa.Reset(0)
	sb.Reset(0)
	i, j := jsonwire.LeadLen(a), jsonwire.LeadLen(b)
	for {
		ta, i2, ea := sa.Next(a, i)
		tb, j2, eb := sb.Next(b, j)
		if ea != nil || eb != nil || ta.Kind != tb.Kind || ta.Key != tb.Key {
			return false
		}
		if ta.Kind == tokenizer.None {
			return sa.End(len(a)) == nil && sb.End(len(b)) == nil
		}
		x, y := a[ta.Start:ta.End], b[tb.Start:tb.End]
		if ta.More || tb.More {
			// a and b are whole: a token that would go on past their
			// end is a number at the top level, which End completes, or
			// a cut one, which End refuses. Asking Next again would give
			// the same empty piece, for ever. The other text's token may
			// have ended before whitespace (1 and "1 ").
			return bytes.Equal(x, y) && wholeEnd(&sa, a, i2, ta.More) && wholeEnd(&sb, b, j2, tb.More)
		}
		if !bytes.Equal(x, y) && (ta.Kind != tokenizer.String ||
			!bytes.Equal(tokenizer.AppendUnescaped(nil, x[1:len(x)-1]), tokenizer.AppendUnescaped(nil, y[1:len(y)-1]))) {
			return false
		}
		i, j = i2, j2
	}
}

// wholeEnd reports whether s, having read src to i, is at the valid end of
// the whole text src: only whitespace after the token read, unless it goes
// on past src's end (more), which End completes or refuses.
func wholeEnd(s *tokenizer.Scanner, src []byte, i int, more bool) bool {
	if !more {
		if k, _, err := s.Peek(src, i); err != nil || k != tokenizer.None {
			return false
		}
	}
	return s.End(len(src)) == nil
}
