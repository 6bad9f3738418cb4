package stream

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// testBOM is the UTF-8 byte-order mark, written out here, not taken from
// the code under test.
const testBOM = "\xEF\xBB\xBF"

// leadPatterns are whitespace leads of n bytes, in the patterns that cost
// the encoding most and least.
func leadPatterns(n int) map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	fill := func(unit string) []byte { return []byte(strings.Repeat(unit, n/len(unit)+1)[:n]) }
	random := make([]byte, n)
	for i := range random {
		random[i] = " \t\n\r"[rng.IntN(4)]
	}
	return map[string][]byte{
		"Spaces":          fill(" "),
		"Alternating":     fill(" \t"),
		"Indented":        fill("\n" + strings.Repeat(" ", 40)),
		"CRLFIndented":    fill("\r\n" + strings.Repeat(" ", 6)),
		"RunAndOne":       fill("        \t"),
		"RunAndTwo":       fill("        \t\n"),
		"RunsAlternating": fill("        \t\t\t\t\t\t\t\t"),
		"ShortRuns":       fill("       \t\t\t\t\t\t\t"),
		"Random":          random,
	}
}

// recordLead records ws, a lead, in windows of size bytes, after an optional
// byte-order mark, as doc does with a window that holds nothing else.
func recordLead(ws []byte, size int, withBOM bool) *lead {
	l := &lead{}
	l.reset()
	if withBOM {
		ws = append([]byte(testBOM), ws...)
	}
	for off := 0; off < len(ws); off += size {
		w := ws[off:min(off+size, len(ws))]
		if i, _ := l.scan(w, false); i != len(w) {
			panic("not all lead")
		}
		l.record(w)
	}
	return l
}

// replayAll replays l whole, checking that no call appends more than
// replayChunk bytes.
func replayAll(t *testing.T, l *lead) []byte {
	var out []byte
	for {
		before := len(out)
		var more bool
		out, more = l.replay(out)
		if len(out)-before > replayChunk+len(testBOM) {
			t.Fatalf("one replay appended %d bytes", len(out)-before)
		}
		if !more {
			return out
		}
	}
}

// TestLeadReplay: what lead records is replayed byte for byte, whatever the
// pattern and the windows (SPEC B3).
func TestLeadReplay(t *testing.T) {
	for name, p := range leadPatterns(100_000) {
		for _, size := range []int{1, 3, 8, 4096, 1 << 20} {
			for _, withBOM := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/window=%d/bom=%v", name, size, withBOM), func(t *testing.T) {
					want := p
					if withBOM {
						want = append([]byte(testBOM), p...)
					}
					if got := replayAll(t, recordLead(p, size, withBOM)); !bytes.Equal(got, want) {
						t.Fatalf("replayed %d bytes, differing from the %d recorded", len(got), len(want))
					}
				})
			}
		}
	}
}

// TestLeadMemory: the recorded lead takes at most half a byte per byte (and
// 3) whatever its pattern, and so at most one with a slice's slack (SPEC
// B1); a run of one character a few bytes, even fed a byte at a time.
func TestLeadMemory(t *testing.T) {
	const n = 1 << 16
	for name, p := range leadPatterns(n) {
		for _, size := range []int{1, 5, 4096} {
			t.Run(fmt.Sprintf("%s/window=%d", name, size), func(t *testing.T) {
				l := recordLead(p, size, false)
				if len(l.runs) > n/2+3 || cap(l.runs) > n {
					t.Errorf("%d bytes of lead took %d bytes (capacity %d)", n, len(l.runs), cap(l.runs))
				}
				if name == "Spaces" && len(l.runs) > 4 {
					t.Errorf("a run of %d spaces took %d bytes", n, len(l.runs))
				}
			})
		}
	}
}
