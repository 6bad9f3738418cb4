package compile

import (
	"errors"
	"iter"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// Nodes returns the number of nodes of p: node 0 is the mask's root object,
// every other one the nested mask of one entry.
func (p *Program) Nodes() int { return len(p.roots) }

// Entries returns the number of entries of p, wildcards included. Entries are
// numbered from 0, as Lookup returns them.
func (p *Program) Entries() int { return len(p.entries) }

// Members returns node's entries in the order the mask first wrote them, its
// wildcard included.
func (p *Program) Members(node int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for _, e := range p.order[p.orders[node]:p.orders[node+1]] {
			if !yield(e) {
				return
			}
		}
	}
}

// errWildcardAndStar is AppendJSON's error for a program that holds both a
// wildcard and a key named "*": in a JSON mask, "*" is one or the other, for
// the whole mask (SPEC T2). It is not exported: the front door turns any
// AppendJSON error into a *jsonmask.MaskError, and no caller needs to tell
// it from another.
var errWildcardAndStar = errors.New(`a mask with both a wildcard and a key named "*" has no JSON form`)

// AppendJSON appends to dst the JSON mask (SPEC M1) that compiles to p, with
// keys in the order first written and the wildcard as the key "*": compiled
// with Options.Wildcards when p has a wildcard, without otherwise. It walks
// the nodes with a stack, not by recursion.
func (p *Program) AppendJSON(dst []byte) ([]byte, error) {
	wild, star := false, false
	for _, e := range p.entries {
		wild = wild || e.Wildcard
		star = star || !e.Wildcard && e.Key == "*"
	}
	if wild && star {
		return dst, errWildcardAndStar
	}
	type open struct{ node, next int32 } // a node being written, and its next member's place in order
	stack := []open{{0, p.orders[0]}}
	dst = append(dst, '{')
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == p.orders[top.node+1] {
			dst = append(dst, '}')
			stack = stack[:len(stack)-1]
			continue
		}
		if top.next > p.orders[top.node] {
			dst = append(dst, ',')
		}
		e := p.entries[p.order[top.next]]
		top.next++
		dst = append(jsonwire.AppendQuote(dst, e.Key), ':')
		if e.Node == Keep {
			dst = append(dst, "true"...)
			continue
		}
		dst = append(dst, '{')
		stack = append(stack, open{e.Node, p.orders[e.Node]})
	}
	return dst, nil
}
