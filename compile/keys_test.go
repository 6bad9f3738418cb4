package compile

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestKeys: for random masks, Keys(node) lists, in key order, exactly the
// entries that Lookup finds under node by their own keys, and every entry is
// listed under one node.
func TestKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"", "a", "b", "ab", "é", "\x00", "😋", strings.Repeat("L", 40)}
	var mask func(depth int) map[string]any
	mask = func(depth int) map[string]any {
		m := map[string]any{}
		for range rng.IntN(8) {
			k := alphabet[rng.IntN(len(alphabet))] + alphabet[rng.IntN(len(alphabet))]
			if depth > 0 && rng.IntN(3) == 0 {
				m[k] = mask(depth - 1)
			} else {
				m[k] = true
			}
		}
		return m
	}
	for range 500 {
		text, err := json.Marshal(mask(3))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Compile(text, Options{})
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for node := range int32(len(p.roots)) {
			keys := p.Keys(node)
			listed += len(keys)
			if !slices.IsSortedFunc(keys, func(a, b int32) int { return strings.Compare(p.Entry(a).Key, p.Entry(b).Key) }) {
				t.Errorf("mask %s node %d: keys out of order: %v", text, node, keys)
			}
			for _, e := range keys {
				if got := p.Lookup(node, []byte(p.Entry(e).Key)); got != e {
					t.Errorf("mask %s node %d: Keys lists %d (%q), Lookup finds %d", text, node, e, p.Entry(e).Key, got)
				}
			}
		}
		if listed != len(p.entries) {
			t.Errorf("mask %s: Keys lists %d entries of %d", text, listed, len(p.entries))
		}
	}
}
