package tokenizer

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// checkQuietBlocks runs quietBlocks with each kernel (AVX2, and AVX-512 where
// the CPU has it) and with its Go twin on the same input and state, and fails
// unless they scan, write and carry the same. Every out is poisoned past
// what it writes: a kernel that writes more than it reports is caught by
// comparing the whole buffer. The twin is checked against quietBlocksBytes,
// a byte at a time, up to what it writes.
func checkQuietBlocks(t *testing.T, src []byte, room int, copy bool, st quietState) {
	t.Helper()
	// out is room bytes of a buffer 64 bytes longer, so that a write past
	// room shows in the guard. Past w, within room, a kernel may leave what
	// it likes: the twin moves 16 bytes at a time where it has room
	// (compactBlock), the AVX-512 kernel writes only what it keeps.
	run := func(k kernelSet) (n, w int, out []byte, s quietState) {
		buf, s := bytes.Repeat([]byte{'#'}, room+64), st
		withKernels(k, func() { n, w = quietBlocks(src, buf[:room:room], copy, &s) })
		if guard := buf[room:]; !bytes.Equal(guard, bytes.Repeat([]byte{'#'}, 64)) {
			t.Fatalf("%s: src %q room %d: wrote past room: %q", k.name, src, room, guard)
		}
		return n, w, buf[:w], s
	}
	wn, ww, wout, wst := run(kernelsTwins)
	for _, k := range []kernelSet{kernelsAVX2, kernelsAVX512} {
		if !k.available() {
			continue
		}
		gn, gw, gout, gst := run(k)
		if gn != wn || gw != ww || !bytes.Equal(gout, wout) || gst != wst {
			t.Fatalf("%s: src %q room %d copy %v state %+v\nkernel: n %d w %d state %+v out %q\ntwin:   n %d w %d state %+v out %q",
				k.name, src, room, copy, st, gn, gw, gst, gout, wn, ww, wst, wout)
		}
		if !copy && len(src) >= 64 { // skipBlocks' way to the same kernel
			var sn int
			sst := st
			withKernels(k, func() { sn = quietSkip(src, &sst) })
			if sn != wn || sst != wst {
				t.Fatalf("%s: src %q state %+v\nquietSkip: n %d state %+v\ntwin:      n %d state %+v", k.name, src, st, sn, sst, wn, wst)
			}
		}
	}
	rout, rst := make([]byte, room), st
	rn, rw := quietBlocksBytes(src, rout, copy, &rst)
	if rn != wn || rw != ww || !bytes.Equal(rout[:rw], wout[:ww]) || rst != wst {
		t.Fatalf("src %q room %d copy %v state %+v\ntwin:      n %d w %d state %+v out %q\nreference: n %d w %d state %+v out %q",
			src, room, copy, st, wn, ww, wst, wout[:ww], rn, rw, rst, rout[:rw])
	}
	if wn%64 != 0 || wn > len(src) || copy && ww > room || !copy && ww != 0 {
		t.Fatalf("src %q: scanned %d, wrote %d of room %d", src, wn, ww, room)
	}
}

// TestQuietBlocks compares the AVX-512 kernel (where the CPU has it) with its
// Go twin on random documents rich in the bytes that matter, from random
// states, with and without room to copy.
func TestQuietBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 20000 {
		src := quietRandom(rng)
		st := quietState{depth: 1 + rng.IntN(40), room: 1 + rng.IntN(60)}
		if rng.IntN(2) == 0 {
			st.inStr = ^uint64(0)
		}
		if rng.IntN(4) == 0 {
			st.escaped = true
		}
		checkQuietBlocks(t, src, rng.IntN(800), rng.IntN(3) != 0, st)
	}
	t.Logf("AVX-512 kernel: %v", hasAVX512)
}

// TestQuietBlocksStops pins where the scan stops: before the block in which
// the value ends, before the one that opens a bracket at the depth limit,
// and before a block the output has no room for; not before a block whose
// brackets close more than the depth but never close the value.
func TestQuietBlocksStops(t *testing.T) {
	pad := func(s string) string { return s + string(bytes.Repeat([]byte{' '}, 64-len(s))) }
	quiet := pad(`"a": 1, "b":"]]]]", "c" : "x"`) // 24 bytes without the spaces
	for _, tc := range []struct {
		name   string
		src    string
		depth  int
		room   int
		copy   bool
		outCap int
		n, w   int
		depthN int
	}{
		{"AllQuiet", quiet + quiet, 1, 100, true, 128, 128, 48, 1},
		{"EndsInSecond", quiet + pad(`}`), 1, 100, true, 128, 64, 24, 1},
		{"ClosesTwoAtDepthThree", quiet + pad(`]]}`), 3, 100, false, 0, 64, 0, 3},
		{"ClosesTwoAtDepthTwo", quiet + pad(`]}`), 2, 100, false, 0, 64, 0, 2},
		{"LimitInSecond", quiet + pad(`[[[`), 1, 3, false, 0, 64, 0, 1},
		{"ReachesLimit", quiet + pad(`[[[`), 1, 4, false, 0, 128, 0, 4},
		{"UpAndDown", quiet + pad(`[[]], {}, {"a": [{}]}, [[]]`), 1, 4, false, 0, 128, 0, 1},
		{"UpAndDownToZero", quiet + pad(`[[]], {}]`), 1, 3, false, 0, 64, 0, 1},
		{"BelowLimit", quiet + pad(`[[`), 1, 4, false, 0, 128, 0, 3},
		{"NoRoom", quiet + quiet, 1, 100, true, 127, 64, 24, 1},
		{"BackslashOutsideStringsEscapesQuote", pad(`\"{`) + quiet, 1, 100, false, 0, 128, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachKernelSet(t, func(t *testing.T) {
				st := quietState{depth: tc.depth, room: tc.room}
				n, w := quietBlocks([]byte(tc.src), make([]byte, tc.outCap), tc.copy, &st)
				if n != tc.n || w != tc.w || st.depth != tc.depthN {
					t.Errorf("n %d w %d depth %d, want %d %d %d", n, w, st.depth, tc.n, tc.w, tc.depthN)
				}
			})
			checkQuietBlocks(t, []byte(tc.src), tc.outCap, tc.copy, quietState{depth: tc.depth, room: tc.room})
		})
	}
}

// TestQuietBlocksLong runs values longer than one call to the kernel takes,
// whole and with the value ending or the output running out past it.
func TestQuietBlocksLong(t *testing.T) {
	body := bytes.Repeat([]byte(`"k": [1, "v \" ]"], `), 10000) // 200 KB
	for _, tc := range []struct {
		name string
		src  []byte
		room int
	}{
		{"Quiet", body, len(body)},
		{"Ends", append(bytes.Clone(body[:100000]), "]]]]]]]]]]"...), len(body)},
		{"RoomRunsOut", body, 70000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, copy := range []bool{false, true} {
				checkQuietBlocks(t, tc.src, tc.room, copy, quietState{depth: 10, room: 100})
			}
			st := quietState{depth: 10, room: 100}
			n, _ := quietBlocks(tc.src, make([]byte, tc.room), true, &st)
			if want := min(len(tc.src), tc.room, 100000) &^ 63; tc.name != "Quiet" && n != want || tc.name == "Quiet" && n != len(body)&^63 {
				t.Errorf("scanned %d", n)
			}
		})
	}
}

// checkQuotedEnd compares quotedEnd under every kernel set with
// quotedEndBytes.
func checkQuotedEnd(t testing.TB, b []byte, start int) {
	t.Helper()
	want := quotedEndBytes(b, start)
	for _, k := range kernelSets {
		if !k.available() {
			continue
		}
		var got int
		withKernels(k, func() { got = quotedEnd(b, start) })
		if got != want {
			t.Fatalf("%s: quotedEnd(%s, %d) = %d, want %d", k.name, clip(b), start, got, want)
		}
	}
}

// quotedEndBytes is quotedEnd a byte at a time: the reference.
func quotedEndBytes(src []byte, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return 0
}

// TestEscapedQuote compares quotedEnd, with the AVX-512 kernel (where the CPU
// has it), its Go twin and without AVX2, with a byte-at-a-time reference, on random
// string contents dense in backslashes, among them long runs of escapes that
// cross blocks and kernel calls.
func TestEscapedQuote(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	pieces := []string{`\\`, `\"`, `\u00e9`, `a`, `\`, `"`, `xyz `, `\\\"`}
	for k := range 30000 {
		var b []byte
		n := rng.IntN(300)
		if k%100 == 0 {
			n = 70000 // longer than one kernel call takes
		}
		for len(b) < n {
			if k%100 == 0 {
				b = append(b, pieces[rng.IntN(3)]...) // no quote till the end
				if len(b) >= n {
					b = append(b, `\\"`...)
				}
				continue
			}
			if rng.IntN(20) == 0 {
				b = append(b, pieces[rng.IntN(len(pieces))]...)
			} else {
				b = append(b, pieces[rng.IntN(3)]...)
			}
		}
		start := rng.IntN(len(b) + 1)
		if k%100 == 0 {
			start = rng.IntN(3)
		}
		checkQuotedEnd(t, b, start)
	}
	t.Logf("AVX-512 kernel: %v", hasAVX512)
}

// quietRandom is a random document of up to 699 bytes, rich in the bytes that
// matter to the block kernels (quotes, escapes, brackets, whitespace, control
// and non-ASCII bytes), for the kernel tests that compare them with their twins.
func quietRandom(rng *rand.Rand) []byte {
	const alphabet = "\"\\{}[] \t\n\r\x00\x1f!aZ\x7f\x80\xff:,0"
	src := make([]byte, rng.IntN(700))
	for i := range src {
		switch rng.IntN(4) {
		case 0:
			src[i] = byte(rng.IntN(256))
		case 1:
			src[i] = 'x'
		default:
			src[i] = alphabet[rng.IntN(len(alphabet))]
		}
	}
	return src
}
