package compile

import "slices"

// Keys returns the entries of node's keys, in the order of the keys
// (bytewise, as strings.Compare orders them): each entry e such that
// Lookup(node, []byte(Entry(e).Key)) is e. It is for callers that look a
// node's few keys up in a Go map rather than each key of a large map up in
// the node. It allocates: call it once per node and keep the answer.
func (p *Program) Keys(node int32) []int32 {
	var keys []int32
	stack := []int32{p.roots[node]}
	for len(stack) > 0 {
		s := &p.states[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if s.accept != NoEntry {
			keys = append(keys, s.accept)
		}
		stack = append(stack, p.targets[s.lo:s.hi]...)
	}
	slices.Sort(keys) // a node's entries are numbered in the order of its keys
	return keys
}
