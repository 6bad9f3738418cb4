package tokenizer

import (
	"bytes"
	"strings"
	"testing"
)

// eachWindow calls f with the windows that splits cut doc into (sizes 1 to
// 256, cycling; none: one window) and their offsets in doc, until f returns
// true or the windows end.
func eachWindow(doc, splits []byte, f func(off int, w []byte) (stop bool)) {
	for off, k := 0, 0; off < len(doc); {
		size := len(doc)
		if len(splits) > 0 {
			size = int(splits[k%len(splits)]) + 1
			k++
		}
		w := doc[off:min(off+size, len(doc))]
		if f(off, w) {
			return
		}
		off += len(w)
	}
}

// scanRun reads doc as one value with step, a method of s, in windows cut
// by splits as eachWindow does, copying to a buffer of outCap bytes, and
// returns where the value ended (-1: the windows ended first), the copy and
// the error.
func scanRun(s *Scanner, doc, splits []byte, outCap int, step func(out, w []byte) ([]byte, int, bool, error)) (end int, out []byte, err error) {
	end, out = -1, make([]byte, 0, outCap)
	eachWindow(doc, splits, func(off int, w []byte) bool {
		s.SetBase(int64(off))
		var i int
		var done bool
		if out, i, done, err = step(out, w); err != nil || done {
			end = off + i
			return true
		}
		return false
	})
	return end, out, err
}

// trustedRun scans doc as one value with SkipTrusted or AppendTrusted, in
// windows cut by splits, under kernel set k (kernelsNone: the byte loops),
// and returns where it stopped, the copy and the error. The copy starts in a
// buffer of outCap bytes, so that a small one makes the block scan take
// blocks a bracket at a time for want of room.
func trustedRun(doc, splits []byte, copy bool, k kernelSet, outCap int) (end int, out []byte, err error) {
	withKernels(k, func() {
		var s Scanner
		s.Reset(0)
		end, out, err = scanRun(&s, doc, splits, outCap, func(out, w []byte) ([]byte, int, bool, error) {
			if copy {
				return s.AppendTrusted(out, w, 0)
			}
			i, done, err := s.SkipTrusted(w, 0)
			return out, i, done, err
		})
	})
	return end, out, err
}

// FuzzKernels checks the kernels and the block scan built on them against
// their pure-Go twins: the same masks for any block; quietBlocks the same
// with the AVX-512 kernel and without; quotedEnd and stringRun the same with
// either and a byte at a time; SkipValue and AppendValue the same end, copy and error with
// stringRun and without; and for any document and any split,
// the same end, copy and error from the block scan (kernel or twin) as from
// the byte loops.
func FuzzKernels(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,{"b":"c\"d"}],"e":"\\"}` + "  , rest",
		`[[[[["\\\\\"]]]]"]]]]]` + "]",
		"{\"k\" :\n\t[ 1 , \"x y\" , {\"z\" : \"{[}]\"} ] }   after",
		`{"long":"` + string(bytes.Repeat([]byte(`ab\"cd\\`), 40)) + `"}` + "tail",
		`["` + strings.Repeat(`\u65e5\u672c `, 12) + `\u12G4", "` + strings.Repeat(`\n\/é`, 20) + `"]`,
		// UTF-8 cut by the value kernels' blocks (utf8Chain): a 3-byte
		// sequence across the first 32 bytes' end, a 4-byte one across
		// the next 64's, a lead cut by a quote, a surrogate.
		`{"k":"` + strings.Repeat("x", 30) + "日本語" + strings.Repeat("テキスト", 6) + `","n":"` + strings.Repeat("y", 60) + "😀😀" + `"}`,
		`{"k":"` + strings.Repeat("日本", 10) + "\xe6\x97" + `","n":"` + "\xed\xa0\x80" + strings.Repeat("語", 30) + `"}`,
	} {
		f.Add([]byte(seed), []byte{63, 0, 130}, false, uint16(0))
		f.Add([]byte(seed), []byte{}, true, uint16(1000))
	}
	f.Fuzz(func(t *testing.T, doc, splits []byte, copy bool, outCap uint16) {
		if len(doc) >= 64 {
			var got blockMasks
			withKernels(kernelsAVX512, func() { classify((*[64]byte)(doc[:64]), &got) })
			if want := classifyGeneric((*[64]byte)(doc[:64])); got != want {
				t.Fatalf("classify(%q) = %+v, want %+v", doc[:64], got, want)
			}
			st := quietState{depth: 1 + int(outCap%7), room: 1 + int(outCap%31)}
			if outCap&0x100 != 0 {
				st.inStr = ^uint64(0)
			}
			st.escaped = outCap&0x200 != 0
			checkQuietBlocks(t, doc, int(outCap), copy, st)
		}
		checkStringRun(t, doc)
		checkValueRuns(t, doc, splits)
		checkQuotedEnd(t, doc, 0)
		if len(doc) == 0 || doc[0] != '{' && doc[0] != '[' {
			return
		}
		wi, wout, werr := trustedRun(doc, nil, copy, kernelsNone, 0)
		for _, k := range kernelSets[1:] {
			if !k.available() {
				continue
			}
			gi, gout, gerr := trustedRun(doc, splits, copy, k, int(outCap))
			if gi != wi || !bytes.Equal(gout, wout) || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("doc %q splits %v copy %v %s out cap %d\nblocks: end %d out %q err %v\nbytes:  end %d out %q err %v", doc, splits, copy, k.name, outCap, gi, gout, gerr, wi, wout, werr)
			}
		}
	})
}

// FuzzStringRun checks stringRun, with the AVX2 kernel, the AVX-512 one
// where the CPU has it, and the Go twin, against str's byte loop
// (stringRunBytes) on any bytes: checkStringRun, with the input's mutations
// aimed at the string kernels alone. A document shorter than a block is
// repeated until it fills a few, so that runs cross blocks.
func FuzzStringRun(f *testing.F) {
	for _, seed := range []string{
		`abc\"def\\` + "é日本" + `\u00e9\uD83D\uDE00"`,
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \\n\\t\\u12G4\x01",
		"\xed\xa0\x80\xc0\xaf\xf4\x90\x80\x80\xf0\x9f\x98\x80",
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(63))
	}
	f.Fuzz(func(t *testing.T, doc []byte, skip uint8) {
		if len(doc) == 0 {
			return
		}
		for len(doc) < 200 {
			doc = append(doc, doc...)
		}
		checkStringRun(t, doc[int(skip)%len(doc):])
	})
}

// FuzzCompactBlock checks the trusted copy's compaction against
// compactBlockCopy: compactBlock's 16-byte moves of runs (kernels=none, when
// out has room for 80 bytes), the shuffle compaction's twin and its AVX2
// kernel (compactBlock where AVX2 runs) all keep the same bytes, in order,
// and write past them nothing but the block's own bytes, zeros or what out
// held.
func FuzzCompactBlock(f *testing.F) {
	f.Add(bytes.Repeat([]byte("{\"a\": [1, 2],\n  \"b\": \"x y\"}"), 3), uint64(0x0f0f00ff00f0f0f1), uint8(16))
	f.Add(bytes.Repeat([]byte{' '}, 64), ^uint64(0), uint8(0))
	f.Add(bytes.Repeat([]byte{'x'}, 64), uint64(1<<63), uint8(40))
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/"), uint64(0xAAAAAAAAAAAAAAAA), uint8(3))
	f.Fuzz(func(t *testing.T, src []byte, drop uint64, extra uint8) {
		if len(src) < 64 {
			return
		}
		b := (*[64]byte)(src[:64])
		want := make([]byte, 64)
		n := compactBlockCopy(want, b, drop)
		const held = 0xEE
		check := func(name string, compact func(out []byte) int) {
			out := bytes.Repeat([]byte{held}, 64+int(extra)%40)
			got := compact(out)
			if got != n || !bytes.Equal(out[:got], want[:n]) {
				t.Fatalf("%s(%q, %#x) = %d %q, want %d %q", name, b[:], drop, got, out[:got], n, want[:n])
			}
			for i, c := range out[got:] {
				if c != held && c != 0 && bytes.IndexByte(b[:], c) < 0 {
					t.Fatalf("%s wrote %#x at %d, past its %d bytes: not the block's", name, c, got+i, got)
				}
			}
		}
		withKernels(kernelsNone, func() {
			check("compactBlock (16-byte moves)", func(out []byte) int { return compactBlock(out, b, drop) })
		})
		check("compactShuffleGeneric", func(out []byte) int { return compactShuffleGeneric(out, b, ^drop) })
		if cpuAVX2 {
			withKernels(kernelsAVX2, func() {
				check("compactBlock (AVX2 shuffle)", func(out []byte) int { return compactBlock(out, b, drop) })
			})
		}
	})
}
