package reference

import (
	"bytes"
	"errors"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// Options are the masking options of SPEC sections 2 and 3.
type Options struct {
	Arrays         bool // B4
	DropMismatched bool // A6
	NDJSON         bool // S3
	MaxDepth       int  // V2; 0 for tokenizer.DefaultMaxDepth
	Wildcards      bool // T2: the mask's key "*" is the wildcard
}

// Reference masks doc with mask, the simple way. mask must be a mask that
// compiles; an invalid document gives an error.
func Reference(mask, doc []byte, opt Options) ([]byte, error) {
	mask = bytes.TrimPrefix(mask, []byte(jsonwire.BOM)) // SPEC M8
	mtree, err := decode(mask, 0)
	if err != nil {
		return nil, err
	}
	rm, err := toMask(mtree, opt.Wildcards)
	if err != nil {
		return nil, err
	}
	if !opt.NDJSON {
		return referenceDoc(rm, doc, opt)
	}
	var out []byte
	lines := bytes.Split(doc, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the newline ends the last line; no empty line follows it
	}
	for _, line := range lines {
		o, err := referenceDoc(rm, line, opt)
		if err != nil {
			return nil, err
		}
		out = append(append(out, o...), '\n')
	}
	return out, nil
}

// referenceDoc masks one document.
func referenceDoc(rm *refMask, doc []byte, opt Options) ([]byte, error) {
	body := jsonwire.TrimLead(doc)
	if len(body) == 0 || body[0] != '{' && !(body[0] == '[' && opt.Arrays) {
		return append([]byte{}, doc...), nil // SPEC B3: as it is
	}
	tree, err := decode(body, opt.MaxDepth)
	if err != nil {
		return nil, err
	}
	out := []byte{}
	if kept, ok := apply(rm, tree, opt); ok {
		out = encode(out, kept)
	}
	return out, nil
}

// refMask is a mask as a tree of maps keyed by unescaped keys.
type refMask struct {
	keep  bool                // the member's value is kept whole
	sub   map[string]*refMask // for a nested mask
	other *refMask            // for a nested mask: its wildcard's entry, or nil
}

// entry returns what rm says of key: its own entry, else the wildcard's
// (SPEC T2), else nil.
func (rm *refMask) entry(key string) *refMask {
	if e, ok := rm.sub[key]; ok {
		return e
	}
	return rm.other
}

func toMask(n *node, wildcards bool) (*refMask, error) {
	if n.kind != tokenizer.ObjectStart {
		return nil, errors.New("mask is not an object")
	}
	rm := &refMask{sub: map[string]*refMask{}}
	for _, m := range n.members {
		key := unescape(m.key)
		var e *refMask
		switch v := m.value; v.kind {
		case tokenizer.True:
			e = &refMask{keep: true}
		case tokenizer.ObjectStart:
			child, err := toMask(v, wildcards)
			if err != nil {
				return nil, err
			}
			e = child
		default:
			return nil, errors.New("mask member is neither true nor an object")
		}
		if wildcards && key == "*" {
			if rm.other != nil {
				return nil, errors.New("duplicate wildcard")
			}
			rm.other = e
			continue
		}
		if _, dup := rm.sub[key]; dup {
			return nil, errors.New("duplicate mask key")
		}
		rm.sub[key] = e
	}
	return rm, nil
}

// apply returns what is left of n under the nested mask rm, and false when
// nothing is (a scalar dropped by SPEC A6).
func apply(rm *refMask, n *node, opt Options) (*node, bool) {
	switch n.kind {
	case tokenizer.ObjectStart: // A1, A2, A5
		out := &node{kind: n.kind}
		for _, m := range n.members {
			entry := rm.entry(unescape(m.key))
			if entry == nil {
				continue
			}
			if !entry.keep {
				var ok bool
				if m.value, ok = apply(entry, m.value, opt); !ok {
					continue
				}
			}
			out.members = append(out.members, m)
		}
		return out, true
	case tokenizer.ArrayStart: // A3
		out := &node{kind: n.kind}
		for _, e := range n.elements {
			if e, ok := apply(rm, e, opt); ok {
				out.elements = append(out.elements, e)
			}
		}
		return out, true
	}
	return n, !opt.DropMismatched // A4, A6
}
