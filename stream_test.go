package jsonmask_test

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// failingReader yields data, then fails with err.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p[:min(len(p), 3)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// recordingWriter records writes, and fails them once failAfter bytes went through.
type recordingWriter struct {
	buf       bytes.Buffer
	writes    int
	failAfter int
}

var errWrite = errors.New("disk full")

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.failAfter > 0 && w.buf.Len()+len(p) > w.failAfter {
		return 0, errWrite
	}
	return w.buf.Write(p)
}

// TestIOErrors: errors of the reader and the writer come back as they are, and
// nothing is written after them.
func TestIOErrors(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`)
	errRead := errors.New("connection reset")
	in := []byte(`{"a":"kept","b":"dropped","a":2,"c":[1,2,3]}`)
	for cut := 0; cut <= len(in); cut++ {
		var w recordingWriter
		_, err := m.Copy(&w, &failingReader{data: in[:cut], err: errRead})
		if err != errRead {
			t.Fatalf("cut %d: Copy err = %v, want the reader's error unwrapped", cut, err)
		}
		full, _ := m.Append(nil, in)
		if !bytes.HasPrefix(full, w.buf.Bytes()) {
			t.Fatalf("cut %d: wrote %q, not a prefix of %q", cut, w.buf.Bytes(), full)
		}
		r := m.NewReader(&failingReader{data: in[:cut], err: errRead})
		got, err := io.ReadAll(r)
		if err != errRead || !bytes.HasPrefix(full, got) {
			t.Fatalf("cut %d: NewReader: %q, %v", cut, got, err)
		}
		if _, err := r.Read(make([]byte, 10)); err != errRead {
			t.Fatalf("cut %d: Read after the error: %v", cut, err)
		}
	}
	full, _ := m.Append(nil, in)
	for failAfter := 1; failAfter < len(full); failAfter++ {
		w := recordingWriter{failAfter: failAfter}
		if _, err := m.Copy(&w, &chunkReader{data: in, size: 2}); err != errWrite {
			t.Fatalf("Copy into a failing writer: %v, want its error unwrapped", err)
		}
		w = recordingWriter{failAfter: failAfter}
		mw := m.NewWriter(&w)
		mw.Write(in)
		if err := mw.Close(); err != errWrite {
			t.Fatalf("NewWriter into a failing writer: Close = %v", err)
		}
		if _, err := mw.Write([]byte(" ")); err != errWrite {
			t.Fatalf("Write after a failed write = %v", err)
		}
	}
	// A closed writer refuses more input.
	mw := m.NewWriter(io.Discard)
	io.WriteString(mw, `{"a":1}`)
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := mw.Write([]byte(" ")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
}

// TestCanary: dropped keys and values carry a marker; no output holds it, in
// any mode, on success or on error (SPEC V5). Damage that moves a member from a
// dropped place to a kept one (a lost '}') changes what is dropped, so the
// damaged documents are cut short or broken inside a dropped value instead.
func TestCanary(t *testing.T) {
	const marker = "CANARY"
	g := newGen(42)
	n := 600
	if testing.Short() {
		n = 100
	}
	withMarker := 0
	defer func() {
		if withMarker < n/4 {
			t.Errorf("only %d of %d documents carried the marker", withMarker, n)
		}
	}()
	for iter := range n {
		maskJSON := g.mask(2)
		doc := g.canaryDoc(maskJSON, marker)
		if bytes.Contains(doc, []byte(marker)) {
			withMarker++
		}
		if iter%2 == 1 {
			doc = g.damageCanary(doc, marker)
		}
		opts := []jsonmask.Option{jsonmask.WithDropMismatched(iter%3 == 0), jsonmask.WithTrustedInput(iter%5 == 0)}
		m, err := jsonmask.Compile(maskJSON, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if firstByte(doc) != '{' {
			continue // damaged into a body that is not masked: it passes through (SPEC B3)
		}
		for _, mode := range maskModes {
			out, err := mode.mask(m, doc)
			out = out[:cap(out)] // what lies past the output's end must not hold a dropped byte either
			if bytes.Contains(out, []byte(marker)) || bytes.Contains(out, []byte(`\u0043ANARY`)) {
				t.Fatalf("%s: mask %s doc %s\noutput %s (err %v) holds a dropped byte", mode.name, maskJSON, doc, out, err)
			}
		}
	}
}

// TestLeadReplay: a body that is not masked goes out with its leading
// whitespace, however long, and the output buffer does not grow with it.
func TestLeadReplay(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithBufferSize(1024))
	lead := strings.Repeat(" ", 300_000) + strings.Repeat(" \n\t\r", 1000)
	for _, body := range []string{lead + `[1]`, lead, lead + `{"a":1,"b":2}`, "\xEF\xBB" + lead, "\xEF\xBB\xBF" + lead + "x"} {
		want, err := m.Append(nil, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range hostileModes {
			got, err := mode.mask(m, []byte(body))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %d bytes, %v; want %d bytes", mode.name, len(got), err, len(want))
			}
		}
		var w recordingWriter
		if _, err := m.Copy(&w, &chunkReader{data: []byte(body), size: 1000}); err != nil {
			t.Fatal(err)
		}
		if w.writes < len(want)/(64<<10) {
			t.Errorf("the replay went out in %d writes: not in bounded pieces", w.writes)
		}
	}
}

// patternReader yields prefix, then pattern repeated n times, then suffix,
// without holding the document in memory.
type patternReader struct {
	parts [][]byte
	reps  int64 // repetitions of parts[1] left
	pos   int
	part  int
}

func newPatternReader(prefix, pattern, suffix string, n int64) *patternReader {
	return &patternReader{parts: [][]byte{[]byte(prefix), []byte(pattern), []byte(suffix)}, reps: n}
}

func (r *patternReader) Read(p []byte) (int, error) {
	total := 0
	for len(p) > 0 && r.part < 3 {
		cur := r.parts[r.part]
		n := copy(p, cur[r.pos:])
		p, r.pos, total = p[n:], r.pos+n, total+n
		if r.pos == len(cur) {
			r.pos = 0
			if r.part == 1 && r.reps > 1 {
				r.reps--
				continue
			}
			r.part++
		}
	}
	if total == 0 {
		return 0, io.EOF
	}
	return total, nil
}

// countingWriter counts bytes and keeps the first and last few, without
// allocating as it goes.
type countingWriter struct {
	n          int64
	head, tail []byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n := len(p)
	w.n += int64(n)
	if w.head == nil {
		w.head, w.tail = make([]byte, 0, 64), make([]byte, 0, 128)
	}
	if len(w.head) < 64 {
		w.head = append(w.head, p[:min(len(p), 64-len(w.head))]...)
	}
	p = p[max(0, len(p)-64):]
	if len(w.tail)+len(p) > cap(w.tail) {
		keep := max(0, 64-len(p))
		w.tail = w.tail[:copy(w.tail, w.tail[len(w.tail)-min(keep, len(w.tail)):])]
	}
	w.tail = append(w.tail, p...)
	return n, nil
}

// TestStreamMemory streams very large documents through Copy with a small
// window and checks that the heap stays flat (SPEC S2): a test of bounds, not
// of time.
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams gigabytes")
	}
	const gib = 1 << 30
	m := jsonmask.MustCompile(`{"keep":true,"k":{"x":true}}`, jsonmask.WithBufferSize(4096))
	chunk := strings.Repeat("abcdefgh", 512) // 4 KiB
	for _, c := range []struct {
		name                   string
		r                      io.Reader
		wantN                  int64
		wantHead, wantTailSufx string
	}{
		{"KeptString1GiB", newPatternReader(`{"drop":1,"keep":"`, chunk, `"}`, gib/4096), gib + 11, `{"keep":"abcdefgh`, `abcdefgh"}`},
		{"DroppedArray1GiB", newPatternReader(`{"drop":[`, `"xxxxxxxxxxxxxxxxxxxxxxxxx",1.5e3,{"a":[true,null]},`, `0],"keep":1}`, gib/50), 10, `{"keep":1}`, `{"keep":1}`},
		{"Key64MiB", newPatternReader(`{"`, chunk, `":{"x":1},"keep":[]}`, 64<<20/4096), 11, `{"keep":[]}`, `{"keep":[]}`},
		{"MaskedArray256MiB", newPatternReader(`{"k":[`, `{"x":"abcdefghijklmnopqrstuvwxyz","y":[1,2,3,4,5,6,7,8]},`, `{}]}`, 256<<20/60), 0, `{"k":[{"x":"abcdefghijklmnopqrstuvwxyz"},`, `{"x":"abcdefghijklmnopqrstuvwxyz"},{}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var w countingWriter
			n, err := m.Copy(&w, c.r)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if c.wantN > 0 && n != c.wantN || n != w.n {
				t.Errorf("wrote %d bytes (counted %d), want %d", n, w.n, c.wantN)
			}
			if !strings.HasPrefix(string(w.head), c.wantHead) || !strings.HasSuffix(string(w.tail), c.wantTailSufx) {
				t.Errorf("output %q ... %q", w.head, w.tail)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("allocated %d bytes while streaming", grew)
			}
		})
	}
}
