package tokenizer

import (
	"slices"
	"strings"
	"testing"
)

// TestHeadNames: a MemberSpan.Head names one key for the life of the
// process, whichever Scanner gave it (the machine caches Lookup's answers by
// it), through Reset and across documents laid out alike with other keys.
func TestHeadNames(t *testing.T) {
	keyOf := map[uint64]string{}
	docs := []string{`"id":1,"xx":2`, `"xx":1,"id":2`, `"ab":1,"cd":2`, `"id":1,"xx":2`}
	for _, name := range []string{"first", "second"} {
		var s Scanner
		if name == "second" {
			slices.Reverse(docs) // which learns "xx" first
		}
		for _, members := range docs {
			s.Reset(0)
			doc := []byte(`[` + strings.TrimSuffix(strings.Repeat(`{`+members+`},`, 8), ",") + `]` + strings.Repeat(" ", 64))
			i := 0
			var spans [32]MemberSpan
			for {
				tok, j, err := s.Next(doc, i)
				if err != nil {
					t.Fatal(err)
				}
				if i = j; tok.Kind == None || s.state == stDone {
					break
				}
				if tok.Kind != ObjectStart {
					continue
				}
				n, at, closed := s.Members(doc, i, spans[:], false, ^uint64(0))
				if !closed {
					t.Fatalf("%s: Members did not read %s whole", name, doc[i:])
				}
				for _, sp := range spans[:n] {
					key := string(doc[sp.KeyStart:sp.KeyEnd])
					if sp.Head == 0 {
						continue
					}
					if k, ok := keyOf[sp.Head]; ok && k != key {
						t.Fatalf("%s scanner: head %d names %s, and %s before", name, sp.Head, key, k)
					}
					keyOf[sp.Head] = key
				}
				i = at
			}
		}
	}
	if len(keyOf) < 4 {
		t.Fatalf("only %d heads named: the test learns too little", len(keyOf))
	}
}

// TestWalkMembers checks the walk that BenchmarkMembers measures, Members,
// Element and Scalar as the machine drives them, against the oracle on
// JSONTestSuite's objects and arrays: it must accept exactly the valid ones.
func TestWalkMembers(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		for name, doc := range suiteFiles(t) {
			k := None
			if i := skipSpace(doc, 0); i < len(doc) {
				k = ValueKind(doc[i])
			}
			if k != ObjectStart && k != ArrayStart {
				continue
			}
			var s Scanner
			s.Reset(0)
			if err := walkMembers(&s, doc); (err == nil) != oracle(doc) {
				t.Errorf("%s: walk err %v, valid %v", name, err, oracle(doc))
			}
		}
	})
}

// TestOpenFast: OpenFast opens what Open would, leaving the scanner as Open
// does, or declines and leaves it as it was, so that Open gives the same
// error at the limit and grows the depth bits past a word of them.
func TestOpenFast(t *testing.T) {
	for _, limit := range []int{1, 3, 63, 64, 65, 130, 0} {
		for _, obj := range []bool{false, true} {
			c := byte('[')
			if obj {
				c = '{'
			}
			doc := []byte(strings.Repeat(string(c), 200))
			var fast, slow Scanner
			fast.Reset(limit)
			slow.Reset(limit)
			fast.state, slow.state = stValue, stValue
			for i := range doc {
				before := fast.doc
				var ferr error
				if !fast.OpenFast(obj) {
					if fast.doc != before {
						t.Fatalf("limit %d, obj %v, at %d: OpenFast declined and changed the scanner", limit, obj, i)
					}
					_, ferr = fast.Open(doc, i)
				}
				_, serr := slow.Open(doc, i)
				if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
					t.Fatalf("limit %d, obj %v, at %d: error %v, Open alone %v", limit, obj, i, ferr, serr)
				}
				if want := i == limit && limit > 0; (ferr != nil) != want { // limit 0: 10000
					t.Fatalf("limit %d, obj %v: opening container %d gave %v", limit, obj, i+1, ferr)
				}
				if serr != nil {
					break
				}
				if fast.doc != slow.doc || fast.inObject() != obj {
					t.Fatalf("limit %d, obj %v, at %d: scanner %+v, Open alone %+v", limit, obj, i, fast.doc, slow.doc)
				}
				fast.state, slow.state = stValue, stValue
			}
		}
	}
}
