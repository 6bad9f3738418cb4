package bench

import (
	"encoding/json"
	"fmt"
)

// tree is a mask as the peer implementations use it. A member's value is nil
// for true (keep the value as it is) and a non-nil tree, possibly empty, for a
// nested mask. Keys are unescaped (SPEC M5), so a response key is looked up
// after unescaping it too.
type tree map[string]tree

// parseTree builds a tree from a mask's JSON text. It checks only what it
// needs to: jsonmask.Compile, which every workload also goes through,
// validates the mask in full.
func parseTree(mask []byte) (tree, error) {
	var v any
	if err := json.Unmarshal(mask, &v); err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("mask is not a JSON object")
	}
	return treeOf(obj)
}

func treeOf(obj map[string]any) (tree, error) {
	t := make(tree, len(obj)) // non-nil even when empty: {} is a nested mask
	for k, v := range obj {
		switch v := v.(type) {
		case bool:
			if !v {
				return nil, fmt.Errorf("mask member %q is false", k)
			}
			t[k] = nil
		case map[string]any:
			sub, err := treeOf(v)
			if err != nil {
				return nil, err
			}
			t[k] = sub
		default:
			return nil, fmt.Errorf("mask member %q must be true or an object", k)
		}
	}
	return t, nil
}

// applyAny applies t to v, a value decoded into any (by encoding/json or
// sonic), the way a user of those libraries would: objects are filtered in
// place, arrays are transparent (SPEC A3), scalars are kept (SPEC A4).
func (t tree) applyAny(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, val := range v {
			sub, ok := t[k]
			switch {
			case !ok:
				delete(v, k) // deleting during range is allowed
			case sub != nil:
				v[k] = sub.applyAny(val)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = t.applyAny(e)
		}
	}
	return v
}
