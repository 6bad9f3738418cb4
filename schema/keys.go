package schema

import (
	"hash/maphash"
	"strconv"
)

// A key not where the last object had it (infer.go's member) is found in
// its place's own table, open-addressed on a hash of the key: no map, and
// no string per key.

// keySeed seeds the hash of keys; the order of a place's keys is the order
// they were first seen, whatever their hashes.
var keySeed = maphash.MakeSeed()

// prop returns the prop of n called text, adding it when it is new, or nil
// when n has just been cut for having too many keys.
func (in *Inferrer) prop(n *node, text []byte) *prop {
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
