package fallback

import (
	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// A MarshalJSON method's output under a nested mask is masked here, the
// simple way: decoded into a tree, the mask applied to the tree, and the
// result encoded (maskRaw). Such outputs are rare and small.

// node is a decoded JSON value. Scalars keep their bytes as written; objects
// keep their raw keys (quotes and escapes included) and duplicates, in order.
type node struct {
	kind tokenizer.Kind
	raw  []byte   // a scalar's bytes
	keys [][]byte // an object's keys, as written
	kids []*node  // an object's values or an array's elements
}

// decode reads one whole JSON document (whitespace around it allowed) into a
// tree, with an explicit stack rather than recursion.
func decode(doc []byte, maxDepth int) (*node, error) {
	var (
		sc    tokenizer.Scanner
		stack []*node
		root  *node
		key   []byte
	)
	sc.Reset(maxDepth)
	for i := 0; ; {
		tok, j, err := sc.Next(doc, i)
		if err != nil {
			return nil, err
		}
		i = j
		if tok.More { // the document ends inside this token
			return nil, sc.End(len(doc))
		}
		if tok.Kind == tokenizer.None {
			if err := sc.End(len(doc)); err != nil {
				return nil, err
			}
			return root, nil
		}
		if tok.Key {
			key = doc[tok.Start:tok.End]
			continue
		}
		if tok.Kind == tokenizer.ObjectEnd || tok.Kind == tokenizer.ArrayEnd {
			stack = stack[:len(stack)-1]
			continue
		}
		n := &node{kind: tok.Kind}
		if tok.Kind.IsScalar() {
			n.raw = doc[tok.Start:tok.End]
		}
		if len(stack) == 0 {
			root = n
		} else {
			parent := stack[len(stack)-1]
			if parent.kind == tokenizer.ObjectStart {
				parent.keys = append(parent.keys, key)
			}
			parent.kids = append(parent.kids, n)
		}
		if tok.Kind == tokenizer.ObjectStart || tok.Kind == tokenizer.ArrayStart {
			stack = append(stack, n)
		}
	}
}

// encode appends n to dst compactly.
func encode(dst []byte, n *node) []byte {
	switch n.kind {
	case tokenizer.ObjectStart:
		dst = append(dst, '{')
		for i, k := range n.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(append(dst, k...), ':')
			dst = encode(dst, n.kids[i])
		}
		return append(dst, '}')
	case tokenizer.ArrayStart:
		dst = append(dst, '[')
		for i, e := range n.kids {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = encode(dst, e)
		}
		return append(dst, ']')
	}
	return append(dst, n.raw...)
}

// unescape returns an object's raw key (quotes included) unescaped.
func unescape(rawKey []byte) string {
	return string(tokenizer.AppendUnescaped(nil, rawKey[1:len(rawKey)-1]))
}

// nesting returns how deep the containers of the valid JSON b nest.
func nesting(b []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if d++; d > most {
				most = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// applyProgram returns what is left of n under the nested mask node of
// prog, and false when nothing is (a scalar dropped by SPEC A6).
func applyProgram(prog *compile.Program, mask int32, n *node, dropMismatched bool) (*node, bool) {
	switch n.kind {
	case tokenizer.ObjectStart:
		out := &node{kind: n.kind}
		for i, k := range n.keys {
			e := prog.Lookup(mask, []byte(unescape(k)))
			if e == compile.NoEntry {
				continue
			}
			v := n.kids[i]
			if sub := prog.Entry(e).Node; sub != compile.Keep {
				var ok bool
				if v, ok = applyProgram(prog, sub, v, dropMismatched); !ok {
					continue
				}
			}
			out.keys, out.kids = append(out.keys, k), append(out.kids, v)
		}
		return out, true
	case tokenizer.ArrayStart:
		out := &node{kind: n.kind}
		for _, e := range n.kids {
			if e, ok := applyProgram(prog, mask, e, dropMismatched); ok {
				out.kids = append(out.kids, e)
			}
		}
		return out, true
	}
	return n, !dropMismatched
}
