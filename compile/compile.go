package compile

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// Error is a mask that does not compile (SPEC M2 to M4).
type Error struct {
	Offset  int64  // offset in the mask of the byte at fault
	Pointer string // JSON Pointer (RFC 6901) of the member at fault, "" for the mask as a whole
	Msg     string // the whole message, without the "jsonmask: " prefix
	Err     error  // the underlying *tokenizer.Error for a mask that is not valid JSON
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Options say how a mask is read.
type Options struct {
	MaxDepth  int  // bounds the mask's nesting like a document's (0: the default)
	Wildcards bool // SPEC T2: a key "*" is the wildcard, not a key; text masks always read it so
}

// member is a key of a mask object as read, before the tries are built.
type member struct {
	key    string
	node   int32 // Keep or a child node
	offset int64 // offset of the key in the mask
	wild   bool  // the wildcard: every key without an entry of its own (SPEC T2)
	pos    int32 // build: its place among its object's members, in mask order
}

// Compile reads mask, a JSON object (SPEC M1) after an optional UTF-8
// byte-order mark (M8), and builds its Program. Offsets in errors count the
// byte-order mark.
func Compile(mask []byte, o Options) (*Program, error) {
	var sc tokenizer.Scanner
	sc.Reset(o.MaxDepth)
	start := 0
	if strings.HasPrefix(string(mask), jsonwire.BOM) {
		start = len(jsonwire.BOM) // SPEC M8
	}
	tok, i, err := sc.Next(mask, start)
	switch {
	case err != nil:
		return nil, syntaxError(err)
	case tok.Kind == tokenizer.None:
		return nil, syntaxError(sc.End(len(mask)))
	case tok.Kind != tokenizer.ObjectStart:
		return nil, &Error{Offset: int64(tok.Start), Msg: "invalid mask: a mask must be a JSON object, got " + describe(tok.Kind) + " at offset " + strconv.Itoa(tok.Start)}
	}

	var (
		members [][]member // per node, its members in mask order
		paths   []string   // per node, its JSON Pointer
		open    []int32    // the nodes whose objects are open, innermost last
		scratch []byte
	)
	members, paths, open = append(members, nil), append(paths, ""), append(open, 0)
	for len(open) > 0 {
		if tok, i, err = sc.Next(mask, i); err != nil {
			return nil, syntaxError(err)
		}
		cur := open[len(open)-1]
		switch {
		case tok.More:
			return nil, syntaxError(sc.End(len(mask))) // the mask ends inside a key
		case tok.Kind == tokenizer.None:
			return nil, syntaxError(sc.End(len(mask)))
		case tok.Kind == tokenizer.ObjectEnd:
			open = open[:len(open)-1]
			continue
		}
		// A key (the scanner allows nothing else here), then its value.
		raw := mask[tok.Start+1 : tok.End-1]
		key := string(raw)
		if tok.Escaped {
			scratch = tokenizer.AppendUnescaped(scratch[:0], raw)
			key = string(scratch)
		}
		m := member{key: key, node: Keep, offset: int64(tok.Start), wild: o.Wildcards && key == "*"}
		ptr := paths[cur] + "/" + jsonwire.EscapePointerToken(key)
		val, j, err := sc.Next(mask, i)
		if err != nil {
			return nil, syntaxError(err)
		}
		i = j
		if val.More {
			return nil, syntaxError(sc.End(len(mask))) // the mask ends inside the value
		}
		switch val.Kind {
		case tokenizer.True:
		case tokenizer.ObjectStart:
			m.node = int32(len(members))
			members, paths, open = append(members, nil), append(paths, ptr), append(open, m.node)
		case tokenizer.None:
			return nil, syntaxError(sc.End(len(mask)))
		default:
			got := describe(val.Kind)
			if val.Kind == tokenizer.False || val.Kind == tokenizer.Null {
				got = string(mask[val.Start:val.End])
			}
			return nil, &Error{Offset: int64(val.Start), Pointer: ptr,
				Msg: "mask member " + jsonwire.QuotePointer(ptr) + " must be true or an object, got " + got}
		}
		members[cur] = append(members[cur], m)
	}
	if _, _, err = sc.Peek(mask, i); err != nil { // only whitespace may follow
		return nil, syntaxError(err)
	}
	return build(members, paths)
}

// syntaxError is the Error for the tokenizer's err, a mask that is not
// valid JSON; it wraps err.
func syntaxError(err error) error {
	var te *tokenizer.Error
	if !errors.As(err, &te) {
		return &Error{Msg: "invalid mask: " + err.Error(), Err: err}
	}
	return &Error{Offset: te.Offset, Msg: "invalid mask: " + te.Error(), Err: err}
}

func describe(k tokenizer.Kind) string {
	switch k {
	case tokenizer.ArrayStart:
		return "an array"
	case tokenizer.String:
		return "a string"
	case tokenizer.Number:
		return "a number"
	case tokenizer.True:
		return "true"
	case tokenizer.False:
		return "false"
	}
	return "null"
}

// programs counts the Programs built: each one's ID.
var programs atomic.Uint64

// build sorts each node's keys, rejects duplicates (SPEC M4) and builds one
// radix trie per node, iteratively: no recursion on the mask's shape.
func build(members [][]member, paths []string) (*Program, error) {
	p := &Program{roots: make([]int32, len(members)), tables: make([]table, len(members)),
		orders: make([]int32, 0, len(members)+1), id: programs.Add(1)}
	type group struct {
		lo, hi, pos int
		state       int32
	}
	var stack []group
	for n, ms := range members {
		// The node's keys, sorted, then its wildcard; each remembers where
		// the mask wrote it, for Members.
		sorted := make([]member, 0, len(ms))
		wild, wildAt := member{}, -1
		for j, m := range ms {
			if m.wild {
				if wildAt >= 0 {
					return nil, dupError(paths[n], m)
				}
				wild, wildAt = m, j
				continue
			}
			m.pos = int32(j)
			sorted = append(sorted, m)
		}
		slices.SortStableFunc(sorted, func(a, b member) int { return strings.Compare(a.key, b.key) })
		for j := 1; j < len(sorted); j++ {
			if sorted[j].key == sorted[j-1].key {
				dup := sorted[j]
				if sorted[j-1].offset > dup.offset {
					dup = sorted[j-1]
				}
				return nil, dupError(paths[n], dup)
			}
		}
		base := int32(len(p.entries))
		at := make([]int32, len(ms)) // entry of the node's j-th member in mask order
		for j, m := range sorted {
			at[m.pos] = base + int32(j)
			p.entries = append(p.entries, Entry{Key: m.key, Node: m.node})
			p.maxKey = max(p.maxKey, len(m.key))
		}
		p.tables[n] = p.newTable(sorted, base)
		if wildAt >= 0 {
			t := &p.tables[n]
			t.other, p.wild = int32(len(p.entries)), true
			at[wildAt] = t.other
			p.entries = append(p.entries, Entry{Key: wild.key, Node: wild.node, Wildcard: true})
			t.lens = ^Lengths(0) // every key may match
			if t.empty == NoEntry {
				t.empty = t.other
			}
		}
		p.orders = append(p.orders, int32(len(p.order)))
		p.order = append(p.order, at...)
		p.roots[n] = p.newState()
		if len(sorted) == 0 {
			continue
		}
		stack = append(stack[:0], group{0, len(sorted), 0, p.roots[n]})
		for len(stack) > 0 {
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			first, last := sorted[g.lo].key, sorted[g.hi-1].key
			l := g.pos
			for l < len(first) && l < len(last) && first[l] == last[l] {
				l++
			}
			st := &p.states[g.state]
			st.label = first[g.pos:l]
			lo := g.lo
			if len(first) == l {
				st.accept = base + int32(lo)
				lo++
			}
			st.lo = int32(len(p.edges))
			for j := lo; j < g.hi; {
				b := sorted[j].key[l]
				k := j + 1
				for k < g.hi && sorted[k].key[l] == b {
					k++
				}
				child := p.newState()
				p.edges, p.targets = append(p.edges, b), append(p.targets, child)
				stack = append(stack, group{j, k, l + 1, child})
				j = k
			}
			p.states[g.state].hi = int32(len(p.edges))
		}
	}
	p.orders = append(p.orders, int32(len(p.order)))
	return p, nil
}

// dupError is the error for a member that a mask object holds twice (SPEC
// M4), in the object whose pointer is parent.
func dupError(parent string, dup member) error {
	ptr := parent + "/" + jsonwire.EscapePointerToken(dup.key)
	return &Error{Offset: dup.offset, Pointer: ptr,
		Msg: "mask member " + jsonwire.QuotePointer(ptr) + " appears twice (SPEC M4) at offset " + strconv.FormatInt(dup.offset, 10)}
}

func (p *Program) newState() int32 {
	p.states = append(p.states, state{accept: NoEntry})
	return int32(len(p.states) - 1)
}

// newTable builds the hash table of a node whose keys, sorted, have entries
// from base on: as many slots as the next power of two from 4 per key, and the
// first multiplier that leaves no slot to two keys, else the one that leaves
// the fewest.
func (p *Program) newTable(sorted []member, base int32) table {
	t := table{off: int32(len(p.slots)), empty: NoEntry, other: NoEntry}
	if len(sorted) > 0 && sorted[0].key == "" {
		t.empty = base
	}
	for _, m := range sorted {
		t.lens.add(len(m.key))
	}
	bits := uint8(4)
	for 1<<bits < 4*len(sorted) {
		bits++
	}
	t.shift = 32 - bits
	bestMul, bestShared := muls[0], len(sorted)+1
	for _, mul := range muls {
		t.mul = mul
		shared := p.fill(t, sorted, base)
		if shared == 0 {
			return t
		}
		if shared < bestShared {
			bestMul, bestShared = mul, shared
		}
	}
	t.mul = bestMul
	p.fill(t, sorted, base)
	return t
}

// fill sets t's slots, at the end of p.slots, for the node's sorted keys and
// returns how many slots two keys share.
func (p *Program) fill(t table, sorted []member, base int32) (shared int) {
	p.slots = p.slots[:t.off]
	for range 1 << (32 - t.shift) {
		p.slots = append(p.slots, NoEntry)
	}
	for j, m := range sorted {
		if m.key == "" {
			continue
		}
		switch s := &p.slots[t.off+int32(hash(m.key, t.mul, t.shift))]; *s {
		case NoEntry:
			*s = base + int32(j)
		case viaTrie:
		default:
			*s = viaTrie
			shared++
		}
	}
	return shared
}
