package tokenizer

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// compactCheckedBytes is compactCheckedGeneric a byte at a time, with none
// of its masks: the reference that the twin and the kernel are checked
// against. A backslash escapes the byte after it, inside strings or not (as
// in the masks); an unescaped quote opens or closes a string, both quotes
// kept; bytes <= ' ' outside strings are dropped.
func compactCheckedBytes(src, out []byte, st *quietState) (w int) {
	inStr, esc := st.inStr != 0, st.escaped
	for n := 0; n+64 <= len(src) && n+64 <= len(out); n += 64 {
		for _, c := range src[n : n+64] {
			escaped := esc
			esc = c == '\\' && !escaped
			if c == '"' && !escaped {
				inStr = !inStr
				out[w] = c
				w++
				continue
			}
			if inStr || c > ' ' {
				out[w] = c
				w++
			}
		}
	}
	st.inStr, st.escaped = 0, esc
	if inStr {
		st.inStr = ^uint64(0)
	}
	return w
}

// checkCompactChecked runs compactChecked with the AVX-512 kernel (where the
// CPU has it) and with its twin on the same input and state, and fails
// unless they write and carry the same, and the twin as compactCheckedBytes.
// out is room bytes of a buffer poisoned 64 bytes further: a kernel that
// writes past room shows in the guard, and past what it keeps, within room,
// it may leave only zeros or the input's own bytes.
func checkCompactChecked(t *testing.T, src []byte, room int, st quietState) {
	t.Helper()
	const poison = 0xEE
	run := func(k kernelSet) (w int, out []byte, s quietState) {
		buf, s := bytes.Repeat([]byte{poison}, room+64), st
		withKernels(k, func() { w = compactChecked(src, buf[:room:room], &s) })
		if guard := buf[room:]; !bytes.Equal(guard, bytes.Repeat([]byte{poison}, 64)) {
			t.Fatalf("%s: src %q room %d: wrote past room: %q", k.name, src, room, guard)
		}
		for i, c := range buf[w:room] {
			if c != poison && c != 0 && bytes.IndexByte(src, c) < 0 {
				t.Fatalf("%s: src %q room %d: wrote %#x at %d, past its %d bytes: not the input's", k.name, src, room, c, w+i, w)
			}
		}
		return w, buf[:w], s
	}
	ww, wout, wst := run(kernelsTwins)
	if kernelsAVX512.available() {
		gw, gout, gst := run(kernelsAVX512)
		if gw != ww || !bytes.Equal(gout, wout) || gst != wst {
			t.Fatalf("avx512: src %q room %d state %+v\nkernel: w %d state %+v out %q\ntwin:   w %d state %+v out %q",
				src, room, st, gw, gst, gout, ww, wst, wout)
		}
	}
	rout, rst := make([]byte, room), st
	rw := compactCheckedBytes(src, rout, &rst)
	if rw != ww || !bytes.Equal(rout[:rw], wout) || rst != wst {
		t.Fatalf("src %q room %d state %+v\ntwin:      w %d state %+v out %q\nreference: w %d state %+v out %q",
			src, room, st, ww, wst, wout, rw, rst, rout[:rw])
	}
}

// TestCompactChecked compares the AVX-512 kernel (where the CPU has it) with
// its twin and the byte reference on random input rich in the bytes that
// matter, from random states, with room for all the blocks or some.
func TestCompactChecked(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for range 20000 {
		src := quietRandom(rng)
		var st quietState
		if rng.IntN(2) == 0 {
			st.inStr = ^uint64(0)
		}
		st.escaped = rng.IntN(4) == 0
		checkCompactChecked(t, src, rng.IntN(800), st)
	}
	t.Logf("AVX-512 kernel: %v", hasAVX512)
}

// checkAppendChecked copies the value doc, which SkipValue takes whole, with
// AppendChecked in the parts that ends cut (the last ends the value), under
// every set of kernels, into a dst of capacity dstCap poisoned past it, and
// fails unless the copy is AppendValue's and what lies past it in its
// capacity is zeros or the value's own bytes.
func checkAppendChecked(t *testing.T, doc []byte, ends []int, dstCap int) {
	t.Helper()
	var ref Scanner
	ref.Reset(0)
	want, end, done, err := ref.AppendValue(nil, doc, 0)
	if !done || err != nil || end != len(doc) {
		t.Fatalf("%q: not one whole value", doc)
	}
	const poison = 0xEE
	for _, k := range kernelSets {
		if !k.available() {
			continue
		}
		withKernels(k, func() {
			var s Scanner
			s.Reset(0)
			dst := bytes.Repeat([]byte{poison}, dstCap)[:0]
			i := 0
			for _, j := range ends {
				dst = s.AppendChecked(dst, doc, i, j)
				i = j
			}
			if !bytes.Equal(dst, want) {
				t.Fatalf("%s: %q cut at %v, cap %d:\ngot  %q\nwant %q", k.name, doc, ends, dstCap, dst, want)
			}
			if s.trusted != tsStart || s.esc != escNone {
				t.Fatalf("%s: %q cut at %v: state %d %d after the value", k.name, doc, ends, s.trusted, s.esc)
			}
			for n, c := range dst[len(dst):cap(dst)] {
				if c != poison && c != 0 && bytes.IndexByte(doc, c) < 0 {
					t.Fatalf("%s: %q: wrote %#x at %d past the copy's %d bytes", k.name, doc, c, len(dst)+n, len(dst))
				}
			}
		})
	}
}

// TestAppendChecked copies the corpus' documents and hand-written values in
// parts, as opCheckCopy does (64-byte multiples) and at random, into a dst
// with room and one without.
func TestAppendChecked(t *testing.T) {
	docs := [][]byte{
		[]byte(`{"a":[1,{"b":"c\"d"}],"e":"\\"}`),
		[]byte("{\"k\" :\n\t[ 1 , \"x y\" , {\"z\" : \"{[}]\"} ] }"),
		[]byte(`{"long":"` + string(bytes.Repeat([]byte(`ab\"cd\\ `), 40)) + `",  "n" : [ 1, 2 ,3 ]}`),
		[]byte("[\n" + string(bytes.Repeat([]byte("  {\"x\": \"  \\\\\\\"  \", \"y\": [ true , null ]},\n"), 30)) + "  0\n]"),
	}
	for _, name := range []string{"twitter.json", "citm_catalog.json", "canada.json", "twitterescaped.json"} {
		docs = append(docs, corpus.File(t, name))
	}
	rng := rand.New(rand.NewPCG(13, 64))
	for _, doc := range docs {
		doc = bytes.TrimSpace(doc)
		n := len(doc)
		cuts := [][]int{{n}}
		for _, step := range []int{64, 128, 16 << 10} {
			var ends []int
			for j := step; j < n; j += step {
				ends = append(ends, j)
			}
			cuts = append(cuts, append(ends, n))
		}
		for range 20 {
			var ends []int
			for j := rng.IntN(200); j < n; j += 1 + rng.IntN(min(n, 300)) {
				ends = append(ends, j)
			}
			cuts = append(cuts, append(ends, n))
		}
		if n > 100000 {
			cuts = cuts[:6] // the corpus: fewer cuts, each long
		}
		for _, ends := range cuts {
			checkAppendChecked(t, doc, ends, 0)
			checkAppendChecked(t, doc, ends, n+64)
		}
	}
}

// FuzzCompactChecked checks the AVX-512 kernel of AppendChecked's copy
// against its twin and the byte reference, from any state and with any
// room; and, for input that is one whole value, AppendChecked in parts
// against AppendValue.
func FuzzCompactChecked(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c\"d"}],"e":"\\"}`+"  , rest  "+`{"k" : "v w", "x" : [1 ,2]}`), []byte{63, 0, 130}, uint16(300))
	f.Add(bytes.Repeat([]byte(`"a\\\" b"`+" \t\n "), 20), []byte{1}, uint16(0x300))
	f.Add(bytes.Repeat([]byte{'\\'}, 130), []byte{64, 64}, uint16(0x1ff))
	f.Fuzz(func(t *testing.T, src, splits []byte, flags uint16) {
		st := quietState{escaped: flags&0x200 != 0}
		if flags&0x100 != 0 {
			st.inStr = ^uint64(0)
		}
		checkCompactChecked(t, src, int(flags&0xff)*4, st)
		var s Scanner
		s.Reset(0)
		if end, done, err := s.SkipValue(src, 0); !done || err != nil || end != len(src) || len(src) == 0 || src[0] != '{' && src[0] != '[' {
			return
		}
		var ends []int
		j := 0
		for _, c := range splits {
			if j += int(c); j >= len(src) {
				break
			}
			ends = append(ends, j)
		}
		checkAppendChecked(t, src, append(ends, len(src)), int(flags>>10)*16)
	})
}
