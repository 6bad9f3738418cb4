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
