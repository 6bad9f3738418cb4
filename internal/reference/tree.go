package reference

import "github.com/jsonmask/jsonmask/tokenizer"

// node is a decoded JSON value, as written: a scalar is its bytes, an object
// its members in order (duplicates too), an array its elements.
type node struct {
	kind     tokenizer.Kind
	raw      []byte
	members  []pair
	elements []*node
}

// pair is a member of an object: its key as written (quotes and escapes
// included) and its value.
type pair struct {
	key   []byte
	value *node
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
		var key []byte
		if tok.Key {
			key = d.doc[tok.Start:tok.End]
			if tok, err = d.next(); err != nil {
				return nil, err
			}
		}
		v, err := d.value(tok)
		if err != nil {
			return nil, err
		}
		if key != nil {
			n.members = append(n.members, pair{key, v})
		} else {
			n.elements = append(n.elements, v)
		}
	}
}

// encode appends n to dst compactly.
func encode(dst []byte, n *node) []byte {
	switch n.kind {
	case tokenizer.ObjectStart:
		return encodeList(dst, '{', '}', len(n.members), func(dst []byte, i int) []byte {
			return encode(append(append(dst, n.members[i].key...), ':'), n.members[i].value)
		})
	case tokenizer.ArrayStart:
		return encodeList(dst, '[', ']', len(n.elements), func(dst []byte, i int) []byte {
			return encode(dst, n.elements[i])
		})
	}
	return append(dst, n.raw...)
}

// encodeList appends open, the n items that item appends, separated by
// commas, and close.
func encodeList(dst []byte, open, close byte, n int, item func(dst []byte, i int) []byte) []byte {
	dst = append(dst, open)
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = item(dst, i)
	}
	return append(dst, close)
}

// unescape returns an object's raw key (quotes included) unescaped.
func unescape(rawKey []byte) string {
	return string(tokenizer.AppendUnescaped(nil, rawKey[1:len(rawKey)-1]))
}
