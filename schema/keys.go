package schema

import (
	"hash/maphash"
	"strconv"
)

// Keys are found at their place without a string per key: first by the
// Scanner's name for the key's bytes (MemberSpan.Head), in a small cache
// shared by every place; else in the place's own table, open-addressed on a
// hash of the key.

// keySeed seeds the hash of keys; the order of a place's keys is the order
// they were first seen, whatever their hashes.
var keySeed = maphash.MakeSeed()

// headCache maps the Scanner's names of keys (MemberSpan.Head: the same
// name, the same key bytes) to the props they were found as, direct-mapped:
// objects in an array have their keys in the same order, so a name comes
// back at the same place again and again.
type headCache [256]struct {
	head uint64
	n    *node
	p    *prop
}

// prop returns the prop of n called text, adding it when it is new, or nil
// when n has just been cut for having too many keys. head is the Scanner's
// name for the key's bytes, or 0.
func (in *Inferrer) prop(n *node, text []byte, head uint64) *prop {
	if head != 0 {
		if in.heads == nil {
			in.heads = new(headCache)
		}
		e := &in.heads[head%uint64(len(in.heads))]
		if e.head == head && e.n == n {
			return e.p
		}
		p := in.propByName(n, text)
		if p != nil {
			e.head, e.n, e.p = head, n, p
		}
		return p
	}
	return in.propByName(n, text)
}

// propByName is prop by the node's table.
func (in *Inferrer) propByName(n *node, text []byte) *prop {
	h := maphash.Bytes(keySeed, text)
	if p := n.lookup(text, h); p != nil {
		return p
	}
	if len(n.props) == MaxKeys {
		n.cutObject("more than " + strconv.Itoa(MaxKeys) + " keys: not described")
		return nil
	}
	p := &prop{name: string(text), hash: h, n: in.newNode(n.depth + 1)}
	n.add(p)
	return p
}

// lookup returns the prop of n called name, whose hash is h, or nil.
func (n *node) lookup(name []byte, h uint64) *prop {
	if len(n.slots) == 0 {
		return nil
	}
	m := uint64(len(n.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		s := n.slots[i]
		if s == 0 {
			return nil
		}
		if p := n.props[s-1]; p.hash == h && p.name == string(name) {
			return p
		}
	}
}

// add appends p to n's props and its table, whose size is a power of two
// and which it keeps at most half full.
func (n *node) add(p *prop) {
	n.props = append(n.props, p)
	if 2*len(n.props) <= len(n.slots) {
		n.insert(len(n.props) - 1)
		return
	}
	size := 16
	for size < 4*len(n.props) {
		size *= 2
	}
	n.slots = make([]uint16, size)
	for i := range n.props {
		n.insert(i)
	}
}

// insert puts n.props[i] in the table.
func (n *node) insert(i int) {
	m := uint64(len(n.slots) - 1)
	for j := n.props[i].hash & m; ; j = (j + 1) & m {
		if n.slots[j] == 0 {
			n.slots[j] = uint16(i + 1)
			return
		}
	}
}
