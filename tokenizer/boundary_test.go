package tokenizer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// boundaryScanner returns a Scanner where SkipValue would read a value
// base containers deep, under a maxDepth limit: the open containers a mix
// of objects and arrays, so that a scan that wrote the wrong levels of kinds
// would turn one into the other; past base, kinds holds objects, as an
// earlier value deeper than this one would have left it.
func boundaryScanner(base, maxDepth int) *Scanner {
	var s Scanner
	s.Reset(0)
	for l := range base + 130 {
		if err := s.push(l >= base || l%3 != 1, 0); err != nil {
			panic(err)
		}
	}
	s.depth, s.maxDepth = base, maxDepth
	s.state = stValue
	return &s
}

// sameScan reports how s and v differ after the same window: the grammar
// state, and the kind of every open container (kinds up to depth).
func sameScan(s, v *Scanner) string {
	if s.depth != v.depth || s.state != v.state || s.inValue != v.inValue || s.base != v.base {
		return fmt.Sprintf("depth %d state %d inValue %v base %d; value %d %d %v %d",
			s.depth, s.state, s.inValue, s.base, v.depth, v.state, v.inValue, v.base)
	}
	for l := range s.depth {
		if a, b := s.kinds[l>>6]>>(l&63)&1, v.kinds[l>>6]>>(l&63)&1; a != b {
			return fmt.Sprintf("level %d of %d: kind %d, value's %d", l, s.depth, a, b)
		}
	}
	return ""
}

// TestBoundaryDepths cuts a dropped or kept container in two windows at
// every byte and checks SkipValue and AppendValue against value alone,
// window by window: end, error, output, grammar state and the kind of each
// open container. The container starts at depths around the words of kinds
// (0, 1, 63, 64, 65, 127) and nests 1 to 64 deep (the kernel's stack, whose
// checkpoint reopen writes into kinds and inside reads back), up to the
// nesting limit and one past it.
func TestBoundaryDepths(t *testing.T) {
	nest := func(n int) string {
		var b strings.Builder
		for k := range n {
			if k%2 == 0 {
				b.WriteString("[ 1,\n ")
			} else {
				b.WriteString(`{"k": 2, "v":`)
			}
		}
		b.WriteString(`"x"`)
		for k := n - 1; k >= 0; k-- {
			if k%2 == 0 {
				b.WriteString(" ]")
			} else {
				b.WriteString("}")
			}
		}
		return b.String()
	}
	for _, base := range []int{0, 1, 2, 62, 63, 64, 65, 127} {
		for _, n := range []int{1, 2, 3, 33, 63, 64} {
			for _, limit := range []string{"default", "exact", "over"} {
				maxDepth := DefaultMaxDepth
				switch limit {
				case "exact":
					maxDepth = base + n
				case "over":
					maxDepth = base + n - 1
					if maxDepth <= base {
						continue
					}
				}
				doc := []byte(nest(n))
				t.Run(fmt.Sprintf("base=%d/n=%d/limit=%s", base, n, limit), func(t *testing.T) {
					eachKernelSet(t, func(t *testing.T) {
						for cut := 0; cut <= len(doc); cut++ {
							checkBoundary(t, doc, cut, base, maxDepth, false)
							checkBoundary(t, doc, cut, base, maxDepth, true)
						}
					})
				})
			}
		}
	}
}

// checkBoundary reads doc in two windows cut at cut, by SkipValue (or
// AppendValue, copy) and by value, and compares them after each window.
func checkBoundary(t *testing.T, doc []byte, cut, base, maxDepth int, copy bool) {
	t.Helper()
	s, v := boundaryScanner(base, maxDepth), boundaryScanner(base, maxDepth)
	var sOut, vOut []byte
	for off, w := range [][]byte{doc[:cut], doc[cut:]} {
		off *= cut
		s.SetBase(int64(off))
		v.SetBase(int64(off))
		var (
			si, vi       int
			sDone, vDone bool
			sErr, vErr   error
		)
		if copy {
			sOut, si, sDone, sErr = s.AppendValue(sOut, w, 0)
			v.out = vOut
			vi, vDone, vErr = v.value(w, 0, true)
			vOut, v.out = v.out, nil
		} else {
			si, sDone, sErr = s.SkipValue(w, 0)
			vi, vDone, vErr = v.value(w, 0, false)
		}
		if si != vi || sDone != vDone || fmt.Sprint(sErr) != fmt.Sprint(vErr) {
			t.Fatalf("copy %v cut %d window %d: %d %v %v, value %d %v %v", copy, cut, off, si, sDone, sErr, vi, vDone, vErr)
		}
		if vErr != nil {
			return
		}
		if d := sameScan(s, v); d != "" {
			t.Fatalf("copy %v cut %d window %d: %s", copy, cut, off, d)
		}
		if copy && !bytes.Equal(sOut, vOut) {
			t.Fatalf("copy cut %d window %d: %q, value %q", cut, off, sOut, vOut)
		}
		if vDone {
			if off+vi != len(doc) {
				t.Fatalf("copy %v cut %d: done at %d of %d", copy, cut, off+vi, len(doc))
			}
			return
		}
	}
	t.Fatalf("copy %v cut %d: not done", copy, cut)
}
