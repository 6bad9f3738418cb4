package studio

import "fmt"

// The actions a click asks for at a path.
const (
	actKeep = "keep" // keep the path's values whole
	actMask = "mask" // recurse into them: keep the members chosen below
	actDrop = "drop" // drop them
)

// edit changes root as action asks at the mask entry keys (a document's path
// with its array levels taken out), and returns the new root. kids lists the
// keys found below a mask path in the samples: an entry kept whole that must
// be opened (to recurse into it, or to drop or keep something below it)
// becomes an object that keeps each of them whole, so that the output does
// not change until the next click.
func edit(root *maskNode, keys []string, action string, kids func(keys []string) []string) (*maskNode, error) {
	switch action {
	case actKeep, actMask, actDrop:
	default:
		return nil, fmt.Errorf("unknown action %q: want keep, mask or drop", action)
	}
	if len(keys) == 0 { // the root: every member kept, or none
		switch action {
		case actKeep:
			return keepAll(kids(nil)), nil
		case actDrop:
			return &maskNode{}, nil
		}
		return root, nil
	}
	node := root
	for i, k := range keys[:len(keys)-1] {
		node.unwild(k, kids(keys[:i]))
		j := node.index(k)
		switch {
		case j < 0 && action == actDrop:
			return root, nil // nothing below it is kept
		case j < 0:
			sub := &maskNode{}
			node.set(k, sub)
			node = sub
		case node.subs[j] == nil:
			node.subs[j] = keepAll(kids(keys[:i+1]))
			node = node.subs[j]
		default:
			node = node.subs[j]
		}
	}
	last := keys[len(keys)-1]
	node.unwild(last, kids(keys[:len(keys)-1]))
	switch action {
	case actKeep:
		node.set(last, nil)
	case actDrop:
		node.remove(last)
	case actMask:
		j := node.index(last)
		switch {
		case j < 0:
			node.set(last, &maskNode{})
		case node.subs[j] == nil:
			node.subs[j] = keepAll(kids(keys))
		}
	}
	return root, nil
}

// keepAll is a mask object that keeps each of keys whole.
func keepAll(keys []string) *maskNode {
	n := &maskNode{}
	for _, k := range keys {
		n.set(k, nil)
	}
	return n
}

// unwild makes n's wildcard (SPEC T2) explicit when it is what applies to
// key: each of keys without an entry of its own gets a copy of the
// wildcard's, and the wildcard goes, so that key can be edited alone. A
// mask has no way to drop one key that a wildcard keeps.
func (n *maskNode) unwild(key string, keys []string) {
	w := n.index("*")
	if w < 0 || key == "*" || n.index(key) >= 0 {
		return
	}
	sub := n.subs[w]
	n.remove("*")
	for _, k := range keys {
		if n.index(k) < 0 {
			n.set(k, sub.clone())
		}
	}
}

// clone is a deep copy of n; nil (kept whole) stays nil.
func (n *maskNode) clone() *maskNode {
	if n == nil {
		return nil
	}
	c := &maskNode{keys: append([]string(nil), n.keys...)}
	for _, s := range n.subs {
		c.subs = append(c.subs, s.clone())
	}
	return c
}
