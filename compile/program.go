// Package compile turns a response_mask (SPEC section 1) into a Program: one
// node per mask object, each with a trie over its keys' unescaped bytes whose
// accepting states say "keep the value whole" or "recurse into node N".
//
// A Program is immutable once built and safe for concurrent use (SPEC M7).
// The mask is read with the tokenizer package, the project's one JSON reader.
package compile

// Keep is the Node of an [Entry] whose mask value is true: keep the value whole.
const Keep int32 = -1

// NoEntry is what [Program.Lookup] returns for a key the mask does not name.
const NoEntry int32 = -1

// Entry is what a mask object says of one of its keys.
type Entry struct {
	Key  string // the key, unescaped (SPEC M5)
	Node int32  // Keep, or the node of the nested mask to apply
}

// Program is a compiled mask. Node 0 is the mask's root object.
type Program struct {
	roots   []int32  // per node, its trie's first state
	filters []filter // per node, a quick test that most keys it does not name fail
	states  []state
	edges   []byte  // per edge, the byte that takes it
	targets []int32 // per edge, the state it leads to
	entries []Entry
	maxKey  int
}

// filter holds the lengths and the first bytes of a node's keys: a key whose
// length or first byte is not among them cannot match, which is what most keys
// of a response are. Lengths from 63 up share the last bit.
type filter struct {
	lengths uint64
	first   [4]uint64
}

func (f *filter) add(key string) {
	f.lengths |= 1 << min(len(key), 63)
	if len(key) > 0 {
		f.first[key[0]>>6] |= 1 << (key[0] & 63)
	}
}

func (f *filter) admits(key []byte) bool {
	if f.lengths&(1<<min(len(key), 63)) == 0 {
		return false
	}
	return len(key) == 0 || f.first[key[0]>>6]&(1<<(key[0]&63)) != 0
}

// state is a node of a radix trie: on entering it the key must go on with
// label; where the label ends the key may end (accept) or go on through one
// of the edges edges[lo:hi].
type state struct {
	label  string
	accept int32 // entry index, or NoEntry
	lo, hi int32
}

// Entry returns entry e, as returned by Lookup.
func (p *Program) Entry(e int32) Entry { return p.entries[e] }

// MaxKeyLen returns the length in bytes of the mask's longest unescaped key. A
// response key can only match if its unescaped form is no longer, and so if
// its raw form is at most 6*MaxKeyLen bytes ("\u0041" is six bytes for one).
func (p *Program) MaxKeyLen() int { return p.maxKey }

// Lookup walks node's trie with the unescaped bytes of a key and returns the
// entry of the mask member it names, or NoEntry. It does not allocate.
func (p *Program) Lookup(node int32, key []byte) int32 {
	if !p.filters[node].admits(key) {
		return NoEntry
	}
	s := &p.states[p.roots[node]]
	for {
		n := len(s.label)
		if len(key) < n || string(key[:n]) != s.label {
			return NoEntry
		}
		if len(key) == n {
			return s.accept
		}
		c := key[n]
		next := int32(-1)
		for e := s.lo; e < s.hi; e++ {
			if p.edges[e] == c {
				next = p.targets[e]
				break
			}
		}
		if next < 0 {
			return NoEntry
		}
		s = &p.states[next]
		key = key[n+1:]
	}
}
