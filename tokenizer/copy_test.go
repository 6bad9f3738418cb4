package tokenizer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// checkCopy checks AppendValue, and copyWhole (the kernel where it runs),
// against value with copy on one call, for three dsts: empty (grown), with
// a prefix and room for exactly len(src)-i bytes (so that the kernel's
// 16-byte spill may not fit), and with room to spare. The end, verdict,
// error and the grammar state after are value's; so is the output when
// there is no error; and where the value is done, the 16 bytes after the
// output are zeros and nothing past them was written. What the kernel
// takes, skipWhole takes with the same end, and where it runs and has room
// it takes what skipWhole takes.
func checkCopy(t *testing.T, a skipArgs) {
	t.Helper()
	const canary = '#'
	v := a.scanner()
	v.out = []byte("PFX")
	vEnd, vDone, vErr := v.value(a.src, a.i, true)
	want := v.out
	room := a.maxDepth - a.depth
	sEnd, sOK, sCk := skipWhole(a.src, a.i, room, a.maxToken, skipFrom{})
	for _, extra := range []int{-1, 0, 64} {
		var dst []byte
		if extra >= 0 {
			dst = bytes.Repeat([]byte{canary}, 3+len(a.src)-a.i+extra)
			copy(dst, "PFX")
			dst = dst[:3]
		} else {
			dst = append(make([]byte, 0, 3), "PFX"...)
		}
		k := bytes.Clone(dst[:3:3])
		if extra >= 0 {
			k = append(make([]byte, 0, cap(dst)), k...)
		}
		kOut, kEnd, kOK, kCk := copyWhole(k, a.src, a.i, room, a.maxToken, skipFrom{})
		if kOK && (!sOK || kEnd != sEnd || !bytes.Equal(kOut, want)) ||
			!kOK && (kCk.depth == 0 && len(kOut) != 3 || kCk.depth > 0 && vErr == nil && !bytes.HasPrefix(want, kOut)) {
			t.Fatalf("%v extra %d: copyWhole %q %d %v %+v; skipWhole %d %v, value %q", a, extra, kOut, kEnd, kOK, kCk, sEnd, sOK, want)
		}
		if skipKernelRuns(a.maxToken) && extra == 64 && (kOK != sOK || !kOK && kCk != sCk) {
			t.Fatalf("%v: copyWhole %v %+v, skipWhole %v %+v", a, kOK, kCk, sOK, sCk)
		}
		if !kOK {
			for j, c := range kOut[len(kOut):cap(kOut)] {
				if c != 0 {
					t.Fatalf("%v extra %d: copyWhole left %q at %d past its output %q", a, extra, c, j, kOut)
				}
			}
		}
		s := a.scanner()
		out, end, done, err := s.AppendValue(dst, a.src, a.i)
		if end != vEnd || done != vDone || fmt.Sprint(err) != fmt.Sprint(vErr) {
			t.Fatalf("%v extra %d: AppendValue %d %v %v, value %d %v %v", a, extra, end, done, err, vEnd, vDone, vErr)
		}
		if err != nil {
			continue
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("%v extra %d: AppendValue wrote %q, value %q", a, extra, out, want)
		}
		if s.depth != v.depth || s.state != v.state || s.inValue != v.inValue || s.base != v.base {
			t.Fatalf("%v extra %d: after AppendValue depth %d state %d inValue %v base %d; after value %d %d %v %d",
				a, extra, s.depth, s.state, s.inValue, s.base, v.depth, v.state, v.inValue, v.base)
		}
		if !done {
			continue
		}
		past := out[len(out):cap(out)]
		for j, c := range past {
			if j < 16 && c != 0 || c != 0 && (extra < 0 || c != canary) {
				t.Fatalf("%v extra %d: byte %q at %d past the output %q", a, extra, c, j, out)
			}
		}
	}
}

// checkCopyWindows checks that AppendValue copies the value at src[i] in
// windows cut by splits as value alone does: the same end, error, output
// and grammar state after.
func checkCopyWindows(t *testing.T, a skipArgs, splits []byte) {
	t.Helper()
	doc := a.src[a.i:]
	s, v := a.scanner(), a.scanner()
	sEnd, sOut, sErr := scanRun(s, doc, splits, 0, func(out, w []byte) ([]byte, int, bool, error) {
		return s.AppendValue(out, w, 0)
	})
	vEnd, vOut, vErr := scanRun(v, doc, splits, 0, func(out, w []byte) ([]byte, int, bool, error) {
		v.out = out
		i, done, err := v.value(w, 0, true)
		return v.out, i, done, err
	})
	if sEnd != vEnd || fmt.Sprint(sErr) != fmt.Sprint(vErr) || vErr == nil && !bytes.Equal(sOut, vOut) {
		t.Fatalf("%v splits %v: AppendValue end %d err %v out %q, value end %d err %v out %q", a, splits, sEnd, sErr, sOut, vEnd, vErr, vOut)
	}
	if vErr == nil && (s.depth != v.depth || s.state != v.state || s.inValue != v.inValue || s.base != v.base) {
		t.Fatalf("%v splits %v: after AppendValue depth %d state %d inValue %v base %d; after value %d %d %v %d",
			a, splits, s.depth, s.state, s.inValue, s.base, v.depth, v.state, v.inValue, v.base)
	}
}

// copySpaces are the whitespace runs TestCopyWholeSpace puts in every
// place: one byte of each kind, a pretty-printer's indent, and runs longer
// than the kernel's 16- and 32-byte moves.
var copySpaces = []string{" ", "\t", "\n", "\r", "\n    ", "\r\n\t \t", strings.Repeat(" ", 17), strings.Repeat(" ", 33), strings.Repeat("\n ", 40)}

// TestCopyWholeSpace checks AppendValue and copyWhole against value
// (checkCopy) on every value of TestSkipWhole's tables with a run of
// whitespace put at every index, valid or not (inside a token it is
// content or an error), and with 0 to 40 bytes after the value.
func TestCopyWholeSpace(t *testing.T) {
	type skipCase = struct {
		name  string
		json  string
		valid bool
	}
	var docs []skipCase
	docs = append(docs, skipContainers...)
	for _, c := range skipScalars {
		docs = append(docs, skipCase{c.name + "/element", "[" + c.json + "]", c.valid}, skipCase{c.name + "/member", `{"key": ` + c.json + `}`, c.valid})
	}
	for _, c := range docs {
		t.Run(c.name, func(t *testing.T) {
			eachKernelSet(t, func(t *testing.T) {
				for _, sp := range copySpaces {
					for p := 1; p <= len(c.json); p++ {
						doc := c.json[:p] + sp + c.json[p:]
						for n := 0; n <= 40; n += 8 {
							a := skipArgs{src: []byte(doc + strings.Repeat(" ]", n)[:n]), maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
							checkCopy(t, a)
						}
					}
				}
			})
		})
	}
}
