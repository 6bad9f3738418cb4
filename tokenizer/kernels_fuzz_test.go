package tokenizer

import (
	"bytes"
	"testing"
)

// trustedRun scans doc as one value with SkipTrusted or CopyTrusted, in
// windows cut by splits (sizes 1 to 256, cycling), with or without the
// kernel, and returns where it stopped, the copy and the error.
func trustedRun(doc, splits []byte, copy, kernel bool) (int, []byte, error) {
	var s Scanner
	s.noKernel = !kernel
	s.Reset(0)
	var out []byte
	off, k := 0, 0
	for off < len(doc) {
		size := len(doc)
		if len(splits) > 0 {
			size = int(splits[k%len(splits)]) + 1
			k++
		}
		w := doc[off:min(off+size, len(doc))]
		s.Base = int64(off)
		s.Out = out
		var i int
		var done bool
		var err error
		if copy {
			i, done, err = s.CopyTrusted(w, 0)
		} else {
			i, done, err = s.SkipTrusted(w, 0)
		}
		out = s.Out
		if err != nil || done {
			return off + i, out, err
		}
		off += len(w)
	}
	return -1, out, nil
}

// FuzzKernels checks the AVX2 kernel and the block scan built on it against
// their pure-Go twins: the same masks for any block, and for any document and
// any split, the same end, copy and error.
func FuzzKernels(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,{"b":"c\"d"}],"e":"\\"}` + "  , rest",
		`[[[[["\\\\\"]]]]"]]]]]` + "]",
		"{\"k\" :\n\t[ 1 , \"x y\" , {\"z\" : \"{[}]\"} ] }   after",
		`{"long":"` + string(bytes.Repeat([]byte(`ab\"cd\\`), 40)) + `"}` + "tail",
	} {
		f.Add([]byte(seed), []byte{63, 0, 130}, false)
		f.Add([]byte(seed), []byte{}, true)
	}
	f.Fuzz(func(t *testing.T, doc, splits []byte, copy bool) {
		if len(doc) >= 64 {
			var got blockMasks
			classify((*[64]byte)(doc[:64]), &got)
			if want := classifyGeneric((*[64]byte)(doc[:64])); got != want {
				t.Fatalf("classify(%q) = %+v, want %+v", doc[:64], got, want)
			}
		}
		if len(doc) == 0 || doc[0] != '{' && doc[0] != '[' {
			return
		}
		gi, gout, gerr := trustedRun(doc, splits, copy, true)
		wi, wout, werr := trustedRun(doc, nil, copy, false)
		if gi != wi || !bytes.Equal(gout, wout) || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("doc %q splits %v copy %v\nkernel: end %d out %q err %v\ntwin:   end %d out %q err %v", doc, splits, copy, gi, gout, gerr, wi, wout, werr)
		}
	})
}
