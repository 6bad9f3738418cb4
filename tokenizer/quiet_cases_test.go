package tokenizer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// quietBlocksBytes is quietBlocksGeneric a byte at a time, with none of its
// masks: the reference that both the twin and the kernels are checked
// against. A backslash escapes the byte after it, inside strings or not (as
// in the masks); an unescaped quote opens or closes a string, the opening
// quote counting as inside it and the closing one not; brackets outside
// strings count, the block not scanned where one closes the value or opens
// at room or deeper; whitespace and control bytes outside strings are
// dropped.
func quietBlocksBytes(src, out []byte, cp bool, st *quietState) (n, w int) {
	limit := len(src)
	if cp {
		limit = min(limit, len(out))
	}
	for n+64 <= limit {
		inStr, esc := st.inStr != 0, st.escaped
		depth, stop := st.depth, uint64(0)
		var kept []byte
		for k, c := range src[n : n+64] {
			escaped := esc
			esc = c == '\\' && !escaped
			if c == '"' && !escaped {
				inStr = !inStr
			}
			switch {
			case inStr:
				kept = append(kept, c)
			case c == '{' || c == '[':
				if stop == 0 && depth >= st.room {
					stop = 1 << k
				}
				depth++
				kept = append(kept, c)
			case c == '}' || c == ']':
				if depth--; stop == 0 && depth == 0 {
					stop = 1 << k
				}
				kept = append(kept, c)
			case c > ' ':
				kept = append(kept, c)
			}
		}
		if stop != 0 {
			st.stop = stop
			break
		}
		st.depth = depth
		st.inStr, st.escaped = 0, esc
		if inStr {
			st.inStr = ^uint64(0)
		}
		if cp {
			w += copy(out[w:], kept)
		}
		n += 64
	}
	return n, w
}

// quietCase is a named input of the block scan: its bytes and the state it
// starts from.
type quietCase struct {
	name string
	src  string
	st   quietState
}

// quietCases are the edges of the block scan: strings that cross blocks,
// backslash runs of every length 1 to 70 ending on either side of a block's
// edge, quotes escaped and not, the depth at room-1, room and room+1, the
// value ending in each block, and blocks of whitespace and control bytes.
func quietCases() []quietCase {
	var cs []quietCase
	add := func(name, src string, depth, room int) {
		cs = append(cs, quietCase{name, src, quietState{depth: depth, room: room}})
	}
	fill := func(s string, n int) string { // s, padded with ", 1" items to n bytes
		for len(s) < n {
			s += ", 1"
		}
		return s[:n]
	}
	for at := 40; at <= 70; at += 3 {
		add(fmt.Sprintf("StringCrossesBlocks/at=%d", at),
			fill(strings.Repeat(" ", at)+`"`+strings.Repeat("x { ] \t", 12)+`"`, 256), 1, 100)
	}
	for n := 1; n <= 70; n++ {
		for _, end := range []int{62, 63, 64, 65, 66, 127, 128} {
			// A string whose content ends with a run of n backslashes, the
			// run's last byte at end-1, then a quote (escaped when n is odd),
			// then brackets that count only outside strings.
			start := max(end-n-1, 0)
			s := strings.Repeat("a", start) + `"` + strings.Repeat(`\`, n) + `"]]] "x"`
			add(fmt.Sprintf("BackslashRun/len=%d/end=%d", n, end), fill(s, 256), 2, 100)
		}
	}
	for _, q := range []struct{ name, s string }{
		{"Plain", `"a"]]`},
		{"Escaped", `"a\"]]`},
		{"EscapedBackslash", `"a\\"]]`},
		{"OutsideEscaped", `\"]]`},
		{"AtBlockEnd", strings.Repeat(" ", 62) + `\"]]"`},
	} {
		add("Quote/"+q.name, fill(q.s, 192), 2, 100)
	}
	for _, d := range []struct {
		name string
		room int
	}{{"room-1", 5}, {"room", 4}, {"room+1", 3}} {
		// The second block opens three: depth 1 reaches 4, which is the
		// room less one, the room, or (its last bracket refused) one past.
		add("Depth/"+d.name, fill(`"a", `, 64)+fill(`[[[`, 128), 1, d.room)
	}
	for at := 0; at < 192; at += 17 {
		add(fmt.Sprintf("EndsInBlock/at=%d", at), fill(strings.Repeat(" ", at)+"]", 256), 1, 100)
	}
	var ws []byte
	for c := range 33 {
		ws = append(ws, byte(c), ' ', '\n')
	}
	ws = append(ws, bytes.Repeat([]byte(" \t\r\n"), 40)...)
	add("Whitespace", string(ws[:192]), 1, 100)
	add("WhitespaceInString", `"`+string(ws[:191]), 1, 100)
	return cs
}

// TestQuietBlocksCases runs the cases of quietCases, from each start state
// (inside a string or not, escaped or not), scanning and copying with room
// for all, for less than all and for one block.
func TestQuietBlocksCases(t *testing.T) {
	for _, c := range quietCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, inStr := range []uint64{0, ^uint64(0)} {
				for _, esc := range []bool{false, true} {
					st := c.st
					st.inStr, st.escaped = inStr, esc
					checkQuietBlocks(t, []byte(c.src), 0, false, st)
					for _, room := range []int{len(c.src), len(c.src) - 1, 64, 63} {
						checkQuietBlocks(t, []byte(c.src), room, true, st)
					}
				}
			}
		})
	}
}

// TestQuietBlocksDepth pins the stop at the depth limit: a block that takes
// the depth to room is scanned (trustedScan refuses a bracket opened at
// room), one that would take it past room is not.
func TestQuietBlocksDepth(t *testing.T) {
	for _, c := range quietCases() {
		if !strings.HasPrefix(c.name, "Depth/") {
			continue
		}
		want := map[string]int{"Depth/room-1": 192, "Depth/room": 192, "Depth/room+1": 64}[c.name]
		t.Run(c.name, func(t *testing.T) {
			eachKernelSet(t, func(t *testing.T) {
				st := c.st
				if n, _ := quietBlocks([]byte(c.src), nil, false, &st); n != want {
					t.Errorf("scanned %d, want %d", n, want)
				}
			})
		})
	}
}

// FuzzQuietBlocks checks that the kernels (AVX2, and AVX-512 where the CPU
// has it), the Go twin and the byte-at-a-time reference scan, write and carry
// the same for any bytes, start state, room and copy flag
// (checkQuietBlocks). Seeded from quietCases and the corpus.
func FuzzQuietBlocks(f *testing.F) {
	for _, c := range quietCases() {
		f.Add([]byte(c.src), false, false, uint8(c.st.depth), uint8(c.st.room), true, uint16(len(c.src)))
	}
	for _, name := range []string{"twitter", "citm_catalog", "canada", "twitterescaped", "mesh.pretty"} {
		doc := corpus.File(f, name+".json")
		for _, at := range []int{1, len(doc) / 3, len(doc) / 2} {
			f.Add(doc[at:min(at+1024, len(doc))], false, false, uint8(8), uint8(60), true, uint16(700))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, inStr, escaped bool, depth, room uint8, copy bool, outCap uint16) {
		st := quietState{escaped: escaped, depth: 1 + int(depth), room: 1 + int(room)}
		if inStr {
			st.inStr = ^uint64(0)
		}
		checkQuietBlocks(t, src, int(outCap), copy, st)
	})
}
