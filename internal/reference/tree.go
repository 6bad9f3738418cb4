package reference

import "github.com/jsonmask/jsonmask/tokenizer"

// node is a decoded JSON value. Scalars keep their bytes as written; objects
// keep their raw keys (quotes and escapes included) and duplicates, in order.
type node struct {
	kind tokenizer.Kind
	raw  []byte   // a scalar's bytes
	keys [][]byte // an object's keys, as written
	kids []*node  // an object's values or an array's elements
}

// decode reads one whole JSON document (whitespace around it allowed) into a
// tree, by recursive descent: the tokenizer bounds the nesting (maxDepth, 0
// for its default), and so the recursion.
func decode(doc []byte, maxDepth int) (*node, error) {
	d := &decoder{doc: doc}
	d.sc.Reset(maxDepth)
	tok, err := d.next()
	if err != nil {
		return nil, err
	}
	n, err := d.value(tok)
	if err != nil {
		return nil, err
	}
	if tok, err = d.next(); err != nil {
		return nil, err
	}
	if tok.Kind != tokenizer.None { // not reached: the scanner refuses a second value
		return nil, &tokenizer.Error{Offset: int64(tok.Start), Msg: "a second value"}
	}
	return n, nil
}

// decoder reads doc's tokens in turn.
type decoder struct {
	sc  tokenizer.Scanner
	doc []byte
	i   int
}

// next returns the next token, whole: a number at the very end is completed
// by End. At the end of the document its Kind is None.
func (d *decoder) next() (tokenizer.Token, error) {
	tok, j, err := d.sc.Next(d.doc, d.i)
	if err != nil {
		return tok, err
	}
	d.i = j
	if tok.More || tok.Kind == tokenizer.None {
		err = d.sc.End(len(d.doc))
	}
	return tok, err
}

// value reads the value that starts with tok.
func (d *decoder) value(tok tokenizer.Token) (*node, error) {
	n := &node{kind: tok.Kind}
	if tok.Kind.IsScalar() {
		n.raw = d.doc[tok.Start:tok.End]
		return n, nil
	}
	end := tokenizer.ObjectEnd
	if tok.Kind == tokenizer.ArrayStart {
		end = tokenizer.ArrayEnd
	}
	for {
		tok, err := d.next()
		if err != nil {
			return nil, err
		}
		if tok.Kind == end {
			return n, nil
		}
		if tok.Key {
			n.keys = append(n.keys, d.doc[tok.Start:tok.End])
			if tok, err = d.next(); err != nil {
				return nil, err
			}
		}
		kid, err := d.value(tok)
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, kid)
	}
}

// encode appends n to dst compactly: members and elements joined by commas.
func encode(dst []byte, n *node) []byte {
	if n.kind.IsScalar() {
		return append(dst, n.raw...)
	}
	open, close := byte('['), byte(']')
	if n.kind == tokenizer.ObjectStart {
		open, close = '{', '}'
	}
	dst = append(dst, open)
	for i, kid := range n.kids {
		if i > 0 {
			dst = append(dst, ',')
		}
		if n.keys != nil {
			dst = append(append(dst, n.keys[i]...), ':')
		}
		dst = encode(dst, kid)
	}
	return append(dst, close)
}

// unescape returns an object's raw key (quotes included) unescaped.
func unescape(rawKey []byte) string {
	return string(tokenizer.AppendUnescaped(nil, rawKey[1:len(rawKey)-1]))
}
