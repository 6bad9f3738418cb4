package fallback

import (
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// The plans of containers under a nested mask: a struct's holds only the
// fields the node names; a map's looks each key up (map[string]any without
// reflect); slices and arrays hand each element to the element type's plan
// under the same node (SPEC A3).

// keptField is a struct field that a mask node names.
type keptField struct {
	structField
	enc  encoderFunc // the mask keeps it whole
	plan planFunc    // or applies a nested node to it
}

func (e *ValueEncoder) newStructPlan(t reflect.Type, node int32) planFunc {
	var fields []keptField
	for _, f := range typeFields(t) {
		en := e.prog.Lookup(node, []byte(f.name)) // f.name is valid UTF-8: the key as Append would see it
		if en == compile.NoEntry {
			continue
		}
		k := keptField{structField: f}
		if sub := e.prog.Entry(en).Node; sub == compile.Keep {
			k.enc = encoderOf(f.typ)
		} else {
			k.plan = e.plan(f.typ, sub)
		}
		fields = append(fields, k)
	}
	return func(s *encState, v reflect.Value, _ bool) (bool, error) {
		if err := s.open('{'); err != nil {
			return false, err
		}
		wrote := false
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldOf(v, f.index)
			if !ok || f.omitted(fv) {
				continue
			}
			mark := len(s.b)
			if wrote {
				s.b = append(s.b, ',')
			}
			s.b = append(s.b, f.key...)
			if f.enc != nil {
				if err := f.enc(s, fv, f.quoted); err != nil {
					return false, atMember(err, f.name)
				}
			} else if kept, err := f.plan(s, fv, f.quoted); err != nil {
				return false, atMember(err, f.name)
			} else if !kept {
				s.b = s.b[:mark] // SPEC A6: the member goes, key and all
				continue
			}
			wrote = true
		}
		s.close('}')
		return true, nil
	}
}

// lookup returns node's entry for a Go string key. encoding/json writes a
// byte that is not UTF-8 as \ufffd, so a key with one is looked up as
// Append would see it.
func (s *encState) lookup(nk *nodeKeys, node int32, key string) int32 {
	// Lookup reads key and keeps nothing of it: no copy of every key.
	en := s.prog.Lookup(node, unsafe.Slice(unsafe.StringData(key), len(key)))
	if en == compile.NoEntry && !nk.fffd || utf8.ValidString(key) {
		return en // as it is written; or nothing, which only a key with U+FFFD could change
	}
	return s.prog.Lookup(node, []byte(keyOf(key)))
}

// nodeKeys is what the plans of maps need to know of a mask node's keys.
type nodeKeys struct {
	node     int32
	keys     []string // the keys that a Go string can be written as, in order
	prefixes []string // each as a member's start: `"key":`, escaped
	subs     []int32  // their entries' nodes
	// direct: a key of the map that is not one of keys has no entry (no key
	// holds U+FFFD, and the node matches nothing else, as a wildcard would),
	// so the node's keys can be looked up in the map instead.
	direct bool
	// fffd: a key holds U+FFFD, which a Go key that is not UTF-8 is
	// written with: such a key must be looked up as Append would see it.
	fffd bool
}

// keysOf returns node's nodeKeys, made once.
func (e *ValueEncoder) keysOf(node int32) *nodeKeys {
	if nk, ok := e.nodes.Load(node); ok {
		return nk.(*nodeKeys)
	}
	nk := &nodeKeys{node: node}
	for _, en := range e.prog.Keys(node) {
		k := e.prog.Entry(en)
		if strings.ContainsRune(k.Key, utf8.RuneError) {
			nk.fffd = true
		}
		if utf8.ValidString(k.Key) { // encoding/json writes no other: "\ud800" in a mask matches no Go key
			nk.keys, nk.subs = append(nk.keys, k.Key), append(nk.subs, k.Node)
			nk.prefixes = append(nk.prefixes, string(jsonwire.AppendMarshalString(nil, k.Key))+":")
		}
	}
	nk.direct = !nk.fffd && e.prog.Lookup(node, []byte{0xFF}) == compile.NoEntry // 0xFF is in no JSON key
	got, _ := e.nodes.LoadOrStore(node, nk)
	return got.(*nodeKeys)
}

// keeps reports whether node keeps the member of key k whose value is a
// string: it names it, and keeps it whole or keeps scalars (SPEC A4, A6).
func (nk *nodeKeys) keeps(s *encState, k string) bool {
	en := s.lookup(nk, nk.node, k)
	return en != compile.NoEntry && (!s.opt.DropMismatched || s.prog.Entry(en).Node == compile.Keep)
}

// maskMapAny appends m, masked by node: the members the node names, sorted
// by key as encoding/json sorts them. Only those are read: where m has more
// members than node has keys, the keys are looked up in m, in order.
func (s *encState) maskMapAny(m map[string]any, node int32) (bool, error) {
	if m == nil {
		return s.null()
	}
	self := func() reflect.Value { return reflect.ValueOf(m) }
	if err := s.begin(self, '{'); err != nil {
		return false, err
	}
	wrote := false
	if nk := s.enc.keysOf(node); nk.direct && len(m) > len(nk.keys) {
		for i, k := range nk.keys {
			if x, ok := m[k]; ok {
				var err error
				if wrote, err = s.anyMember(k, nk.prefixes[i], x, nk.subs[i], wrote); err != nil {
					return false, err
				}
			}
		}
	} else {
		base := len(s.anyEntries)
		for k, x := range m {
			if en := s.lookup(nk, node, k); en != compile.NoEntry {
				s.anyEntries = append(s.anyEntries, anyEntry{k, x, s.prog.Entry(en).Node})
			}
		}
		end := len(s.anyEntries)
		if end-base > 1 {
			slices.SortFunc(s.anyEntries[base:end], compareAny)
		}
		for i := base; i < end; i++ {
			e := s.anyEntries[i]
			var err error
			if wrote, err = s.anyMember(e.name, "", e.v, e.node, wrote); err != nil {
				return false, err
			}
		}
		clear(s.anyEntries[base:end])
		s.anyEntries = s.anyEntries[:base]
	}
	s.end(self, '}')
	return true, nil
}

// anyMember writes member name of a map[string]any (prefix: its start,
// `"name":`, if known), its value x under node sub, after a comma if a
// member was written before; it reports whether one has been written now.
func (s *encState) anyMember(name, prefix string, x any, sub int32, wrote bool) (bool, error) {
	mark := len(s.b)
	if wrote {
		s.b = append(s.b, ',')
	}
	if prefix != "" {
		s.b = append(s.b, prefix...)
	} else {
		s.b = append(jsonwire.AppendMarshalString(s.b, name), ':')
	}
	if sub == compile.Keep {
		return true, atMember(s.appendAny(x), name)
	}
	kept, err := s.maskAny(x, sub)
	if err != nil {
		return false, atMember(err, name)
	}
	if !kept {
		s.b = s.b[:mark] // SPEC A6: the member goes, key and all
		return wrote, nil
	}
	return true, nil
}

func (s *encState) maskSliceAny(a []any, node int32) (bool, error) {
	if a == nil {
		return s.null()
	}
	self := func() reflect.Value { return reflect.ValueOf(a) }
	if err := s.begin(self, '['); err != nil {
		return false, err
	}
	wrote := false
	for i, x := range a {
		mark := len(s.b)
		if wrote {
			s.b = append(s.b, ',')
		}
		if kept, err := s.maskAny(x, node); err != nil {
			return false, atIndex(err, i)
		} else if !kept {
			s.b = s.b[:mark]
			continue
		}
		wrote = true
	}
	s.end(self, ']')
	return true, nil
}

func (e *ValueEncoder) newMapPlan(t reflect.Type, node int32) planFunc {
	keyName, ok := mapKeyFunc(t.Key())
	if !ok {
		enc := unsupported(t)
		return func(s *encState, v reflect.Value, q bool) (bool, error) { return false, enc(s, v, q) }
	}
	switch t { // without reflect, the common ones
	case mapStringAnyType:
		return func(s *encState, v reflect.Value, _ bool) (bool, error) {
			return s.maskMapAny(v.Interface().(map[string]any), node)
		}
	case mapStringStringType:
		return func(s *encState, v reflect.Value, _ bool) (bool, error) {
			if v.IsNil() {
				return s.null()
			}
			return true, s.appendMapString(v.Interface().(map[string]string), s.enc.keysOf(node))
		}
	}
	keep := encoderOf(t.Elem())
	values := valuesOf(t.Elem())
	return func(s *encState, v reflect.Value, _ bool) (bool, error) {
		if v.IsNil() {
			return s.null()
		}
		self := func() reflect.Value { return v }
		if err := s.begin(self, '{'); err != nil {
			return false, err
		}
		base := len(s.entries)
		nk := s.enc.keysOf(node)
		err := s.members(v, keyName, values, func(name string) (int32, bool) {
			en := s.lookup(nk, node, name)
			if en == compile.NoEntry {
				return 0, false
			}
			return s.prog.Entry(en).Node, true
		})
		if err != nil {
			return false, err
		}
		end := len(s.entries)
		if end-base > 1 {
			slices.SortFunc(s.entries[base:end], compareEntries)
		}
		wrote := false
		for i := base; i < end; i++ {
			me := s.entries[i]
			mark := len(s.b)
			if wrote {
				s.b = append(s.b, ',')
			}
			s.b = append(jsonwire.AppendMarshalString(s.b, me.name), ':')
			if me.node == compile.Keep {
				if err := keep(s, me.v, false); err != nil {
					return false, atMember(err, me.name)
				}
			} else if kept, err := e.plan(t.Elem(), me.node)(s, me.v, false); err != nil {
				return false, atMember(err, me.name)
			} else if !kept {
				s.b = s.b[:mark]
				continue
			}
			wrote = true
		}
		clear(s.entries[base:end])
		s.entries = s.entries[:base]
		s.end(self, '}')
		return true, nil
	}
}

func (e *ValueEncoder) newSlicePlan(t reflect.Type, node int32) planFunc {
	array := e.newArrayPlan(t, node)
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if v.IsNil() {
			return s.null()
		}
		self := func() reflect.Value { return v }
		if err := s.enter(self); err != nil {
			return false, err
		}
		if _, err := array(s, v, q); err != nil {
			return false, err
		}
		s.leave(self)
		return true, nil
	}
}

// newArrayPlan is the plan of slices and arrays: each element under the same
// node (SPEC A3), those that A6 drops left out.
func (e *ValueEncoder) newArrayPlan(t reflect.Type, node int32) planFunc {
	elem := e.plan(t.Elem(), node)
	return func(s *encState, v reflect.Value, q bool) (bool, error) {
		if err := s.open('['); err != nil {
			return false, err
		}
		wrote := false
		for i := range v.Len() {
			mark := len(s.b)
			if wrote {
				s.b = append(s.b, ',')
			}
			if kept, err := elem(s, v.Index(i), q); err != nil {
				return false, atIndex(err, i)
			} else if !kept {
				s.b = s.b[:mark]
				continue
			}
			wrote = true
		}
		s.close(']')
		return true, nil
	}
}
