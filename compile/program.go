// Package compile turns a response_mask (SPEC section 1), or a mask in the
// text syntax (section 11, CompileFields), into a Program: one node per mask
// object, each with a trie over its keys' unescaped bytes whose accepting
// states say "keep the value whole" or "recurse into node N", a hash table in
// front of the trie that finds most keys' entries in one probe, and, for a
// node with a wildcard, the entry of every other key.
//
// A Program is immutable once built and safe for concurrent use (SPEC M7).
// The mask is read with the tokenizer package, the project's one JSON reader,
// after an optional UTF-8 byte-order mark (M8). A mask that does not compile
// is an [*Error], whose message has no "jsonmask: " prefix (the front door
// adds it); [QuotePointer] is how every error message of the project prints
// a JSON Pointer (SPEC V3).
package compile

// Keep is the Node of an [Entry] whose mask value is true: keep the value whole.
const Keep int32 = -1

// NoEntry is what [Program.Lookup] returns for a key the mask does not name.
const NoEntry int32 = -1

// Entry is what a mask object says of one of its keys, or of every other key.
type Entry struct {
	Key      string // the key, unescaped (SPEC M5); "*" for the wildcard
	Node     int32  // Keep, or the node of the nested mask to apply
	Wildcard bool   // the entry of every key that has none of its own (SPEC T2)
}

// Program is a compiled mask. Node 0 is the mask's root object.
type Program struct {
	roots   []int32 // per node, its trie's first state
	tables  []table // per node, its hash of keys
	slots   []int32 // the tables' slots
	states  []state
	edges   []byte  // per edge, the byte that takes it
	targets []int32 // per edge, the state it leads to
	entries []Entry
	order   []int32 // per node, its entries in the order the mask wrote them
	orders  []int32 // node n's entries are order[orders[n]:orders[n+1]]
	maxKey  int
	wild    bool // a node has a wildcard
	id      uint64
}

// ID returns a number that no other Program of the process has, never 0: a
// cache of Lookup's answers can tell its programs apart by it without
// holding them.
func (p *Program) ID() uint64 { return p.id }

// table finds a node's entry in one probe: its slots hash the keys by length,
// first byte and last byte, which is what tells apart the keys of most masks.
// A slot holds the one entry whose key hashes there, NoEntry when none does,
// or viaTrie when two do; then the trie decides. A response key is compared
// with at most one mask key.
type table struct {
	off   int32  // the node's first slot in Program.slots
	mul   uint32 // the hash's multiplier, chosen to leave no slot shared
	shift uint8  // 32 - log2 of the number of slots
	empty int32  // the entry of the empty key, or other
	other int32  // the wildcard's entry, or NoEntry: the answer for keys without one
	lens  Lengths
}

// viaTrie marks a slot that two of a node's keys hash to.
const viaTrie int32 = -2

// muls are the multipliers build tries, in order, until no slot is shared.
var muls = [...]uint32{0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F, 0x165667B1, 0xD3A2646C | 1, 0xFD7046C5, 0xB55A4F09}

// hash mixes a non-empty key's length, first byte and last byte. A table has
// 16 slots or more, so shift is at most 28: "& 31" changes nothing but spares
// the compiler's code for shifts of 32 and more.
func hash[K string | []byte](key K, mul uint32, shift uint8) uint32 {
	x := uint32(len(key)) ^ uint32(key[0])<<8 ^ uint32(key[len(key)-1])<<16
	return (x * mul) >> (shift & 31)
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

// Lengths is a set of key lengths, a bit each: bit n for n bytes, n below
// 63, and bit 63 for 63 bytes or more.
type Lengths uint64

// Has reports whether a key of n bytes may be in the set.
func (l Lengths) Has(n int) bool { return l>>min(n, 63)&1 != 0 }

func (l *Lengths) add(n int) { *l |= 1 << min(n, 63) }

// KeyLengths returns the lengths of node's keys, unescaped. A key whose length
// is not in it has no entry: a caller with many keys to look up tests this
// first, in its own loop, and calls Lookup for the few that pass. A node with
// a wildcard has every length.
func (p *Program) KeyLengths(node int32) Lengths { return p.tables[node].lens }

// Lookup returns the entry of the mask member of node that key, unescaped,
// names; else node's wildcard entry, or NoEntry when it has none (SPEC T2: a
// key's own entry wins). It does not allocate.
func (p *Program) Lookup(node int32, key []byte) int32 {
	t := &p.tables[node]
	if len(key) == 0 {
		return t.empty
	}
	if !t.lens.Has(len(key)) {
		return NoEntry // most keys of a response are not the mask's, nor as long as one
	}
	switch e := p.slots[t.off+int32(hash(key, t.mul, t.shift))]; {
	case e >= 0:
		if string(key) == p.entries[e].Key {
			return e
		}
	case e == viaTrie:
		if e = p.walk(node, key); e != NoEntry {
			return e
		}
	}
	return t.other
}

// Wildcards reports whether a node of p has a wildcard.
func (p *Program) Wildcards() bool { return p.wild }

// Other returns node's wildcard entry, the answer of Lookup for every key
// that has no entry of its own, or NoEntry when the node has no wildcard.
func (p *Program) Other(node int32) int32 { return p.tables[node].other }

// walk finds key in node's trie.
func (p *Program) walk(node int32, key []byte) int32 {
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
