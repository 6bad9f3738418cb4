package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// fullReader fills every buffer it is given while it has data, as a
// socket with bytes waiting does, and so makes Copy and a Reader hold back
// what follows a full window's last comma (cut). With zeros, it gives 0
// bytes and no error before every other Read. At the end it returns end:
// with the last bytes when dataErr is set, on a Read of its own otherwise.
type fullReader struct {
	data    []byte
	zeros   bool
	zero    bool
	dataErr bool
	end     error
}

func (r *fullReader) Read(p []byte) (int, error) {
	if r.zeros {
		if r.zero = !r.zero; r.zero {
			return 0, nil
		}
	}
	if len(r.data) == 0 {
		return 0, r.end
	}
	n := copy(p, r.data)
	if r.data = r.data[n:]; len(r.data) == 0 && r.dataErr {
		return n, r.end
	}
	return n, nil
}

var (
	errHoldRead  = errors.New("read failed")
	errHoldWrite = errors.New("write failed")
)

// failWriter takes whole writes until it has taken ok of them, then fails.
type failWriter struct {
	out bytes.Buffer
	ok  int
}

func (w *failWriter) Write(p []byte) (int, error) {
	if w.ok == 0 {
		return 0, errHoldWrite
	}
	w.ok--
	return w.out.Write(p)
}

// heldDrop is a dropped value of heldCases, full of commas and canaries.
const heldDrop = `{"c": "` + boundaryCanary + `", "v": [1, 2.5e3, "` + boundaryCanary + `,,"], "w": {"x": null}}`

// heldCase is a document, the mask and Config it is masked by, and whether
// it fails.
type heldCase struct {
	name, mask string
	cfg        Config
	doc        string
	fails      bool
}

// heldCases are documents full of commas, which windows ending after their
// last comma cut everywhere: valid, and failing after a comma, in the tail
// that a window holds back, at the end, and at a MaxInput limit.
var heldCases = []heldCase{
	{"members", `{"keep":true,"k":{"a":true}}`, Config{}, `{"drop": ` + heldDrop + `, "keep": [1, 22, 333, "a,b", {"x": 1}], "k": {"a": 1, "b": ` + heldDrop + `, "a2": 2}, "z": 0}`, false},
	{"elements", `{"rows":{"id":true}}`, Config{}, `{"rows": [{"id": 1, "d": ` + heldDrop + `}, {"d": ` + heldDrop + `, "id": "2,3"}, {"id": [4, 5]}]}`, false},
	{"commas-in-keys", `{"a,b":true}`, Config{}, `{"a,b": "x,y", "c,d": "` + boundaryCanary + `", "a,": 1}`, false},
	{"error-after-comma", `{"keep":true}`, Config{}, `{"keep": 1, "drop": ` + heldDrop + `,, "keep": 2}`, true},
	{"error-in-tail", `{"keep":true}`, Config{}, `{"keep": [1, 2, 3], "drop": ` + heldDrop + `, "keep": tru}`, true},
	{"cut-short", `{"keep":true}`, Config{}, `{"keep": [1, 2, 3], "drop": ` + heldDrop + `,`, true},
	{"ndjson", `{"keep":true}`, Config{NDJSON: true}, `{"keep": 1, "drop": ` + heldDrop + "}\n{\"drop\": " + heldDrop + ", \"keep\": [2, 3]}\n\n", false},
	{"max-input", `{"keep":true}`, Config{MaxInput: 70}, `{"keep": 1, "drop": ` + heldDrop + `}`, true},
	{"pass-through", `{"keep":true}`, Config{}, `                                        [1, 2, 3, 4, 5, 6, 7, 8, 9]`, false},
}

// TestHeldTail masks documents full of commas, which a window's end cuts
// everywhere, through Copy, a Reader and a Reader's WriteTo, with windows of
// 1 to 40 bytes and larger, from a source that fills every window (so that
// each window holds back what follows its last comma) with and without
// empty reads between, that ends with io.EOF or with an error. Each way
// must give in-memory's output and error (SPEC S1): the held bytes are
// masked before the source's error is reported, and a syntax error in them
// comes first, also when the source gives its error with its last bytes.
// A writer that fails must get its own error back, after a
// prefix of the output. The canary of a dropped value never comes out.
func TestHeldTail(t *testing.T) {
	for _, c := range heldCases {
		t.Run(c.name, func(t *testing.T) {
			for _, trusted := range []bool{false, true} {
				prog, cfg, want := heldWant(t, c, trusted)
				var m Machine
				if fails := strings.HasPrefix(want, "error: "); !trusted && fails != c.fails {
					t.Fatalf("in memory: %s, want an error %v", want, c.fails)
				}
				// With a read error instead of io.EOF: the whole input
				// masked, then the read error, unless the input failed first.
				m.Reset(prog, cfg)
				out, _, werr := m.Write(nil, []byte(c.doc))
				wantRead := dropResult(out, werr)
				if werr == nil {
					wantRead = string(out) + "|" + errHoldRead.Error()
				}
				for _, r := range []string{want, wantRead} {
					if strings.Contains(r, boundaryCanary) {
						t.Fatalf("trusted %v: in memory, the canary leaked: %s", trusted, r)
					}
				}
				for _, size := range windowSizes() {
					for _, how := range []struct{ zeros, dataErr bool }{{false, false}, {true, false}, {false, true}} {
						for _, d := range holdDoors {
							name := fmt.Sprintf("%s/window=%d/%+v/trusted=%v", d.name, size, how, trusted)
							src := func(end error) io.Reader {
								return &fullReader{data: []byte(c.doc), zeros: how.zeros, dataErr: how.dataErr, end: end}
							}
							if got := holdResult(d.run(Get(prog, cfg, size), src(io.EOF))); got != want {
								t.Fatalf("%s: got\n%s\nwant\n%s", name, got, want)
							}
							if got := holdResult(d.run(Get(prog, cfg, size), src(errHoldRead))); got != wantRead {
								t.Fatalf("%s, read error: got\n%s\nwant\n%s", name, got, wantRead)
							}
						}
					}
				}
			}
		})
	}
}

// TestHeldTailWriteError: a writer that fails on its first, second, ...
// write gets its error back from Copy and from a Reader's WriteTo, after a
// prefix of the output, whatever the window.
func TestHeldTailWriteError(t *testing.T) {
	prog, err := compile.Compile([]byte(`{"keep":true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"keep": [1, 22, 333, "a,b"], "drop": {"c": "` + boundaryCanary + `", "d": [1, 2]}, "keep": {"x": [3, 4], "y": "z,"}}`
	var m Machine
	m.Reset(prog, Config{})
	want, err := m.Append(nil, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range windowSizes() {
		for ok := 0; ok < 200; ok++ {
			for _, d := range holdDoors[:2] {
				w := &failWriter{ok: ok}
				err := d.write(Get(prog, Config{}, size), w, &fullReader{data: []byte(doc), end: io.EOF})
				got := w.out.Bytes()
				if !bytes.HasPrefix(want, got) {
					t.Fatalf("%s/window=%d, fails after %d writes: wrote %q, not a prefix of %q", d.name, size, ok, got, want)
				}
				if err == nil && !bytes.Equal(got, want) || err != nil && err != errHoldWrite {
					t.Fatalf("%s/window=%d, fails after %d writes: %q, %v", d.name, size, ok, got, err)
				}
			}
		}
	}
}

// windowSizes are the windows the hold tests run: every size up to 40
// bytes (cut holds at most a quarter of the window), then larger ones.
func windowSizes() []int {
	var sizes []int
	for size := 1; size <= 40; size++ {
		sizes = append(sizes, size)
	}
	return append(sizes, 64, 100, 1000, 4096)
}

// holdDoors are the front doors that read from an io.Reader: each masks
// what r gives through s into w and returns the error that stopped it,
// nil at a clean end.
var holdDoors = []struct {
	name  string
	write func(s *Stream, w io.Writer, r io.Reader) error
	run   func(s *Stream, r io.Reader) ([]byte, error)
}{
	{"Copy",
		func(s *Stream, w io.Writer, r io.Reader) error { _, err := s.Copy(w, r); Put(s); return err },
		func(s *Stream, r io.Reader) ([]byte, error) {
			var out bytes.Buffer
			_, err := s.Copy(&out, r)
			Put(s)
			return out.Bytes(), err
		}},
	{"WriteTo",
		func(s *Stream, w io.Writer, r io.Reader) error { _, err := NewReader(s, r).WriteTo(w); return err },
		func(s *Stream, r io.Reader) ([]byte, error) {
			var out bytes.Buffer
			_, err := NewReader(s, r).WriteTo(&out)
			return out.Bytes(), err
		}},
	{"Reader", nil, func(s *Stream, r io.Reader) ([]byte, error) { return io.ReadAll(NewReader(s, r)) }},
}

// holdResult is dropResult, with a read error after the output.
func holdResult(out []byte, err error) string {
	if errors.Is(err, errHoldRead) {
		return string(out) + "|" + err.Error()
	}
	return dropResult(out, err)
}

// TestWriterCuts writes heldCases to a Writer whole, and in writes longer
// than the window, which it masks a window at a time ending after a comma
// where it can (Stream.window): in-memory's output and error each way, no
// canary.
func TestWriterCuts(t *testing.T) {
	for _, c := range heldCases {
		t.Run(c.name, func(t *testing.T) {
			for _, trusted := range []bool{false, true} {
				prog, cfg, want := heldWant(t, c, trusted)
				if strings.Contains(want, boundaryCanary) {
					t.Fatalf("trusted %v: in memory, the canary leaked: %s", trusted, want)
				}
				for _, size := range windowSizes() {
					for _, piece := range []int{len(c.doc), 2*size + 3} {
						var out bytes.Buffer
						w := NewWriter(Get(prog, cfg, size), &out)
						var err error
						for p := []byte(c.doc); len(p) > 0 && err == nil; {
							var n int
							n, err = w.Write(p[:min(len(p), piece)])
							p = p[n:]
						}
						if err == nil {
							err = w.Close()
						}
						if got := dropResult(out.Bytes(), err); got != want {
							t.Fatalf("window=%d/writes of %d/trusted=%v: got\n%s\nwant\n%s", size, piece, trusted, got, want)
						}
					}
				}
			}
		})
	}
}

// heldWant compiles c's mask and returns it, c's Config in trusted mode or
// not, and in-memory's result for c's document (dropResult).
func heldWant(t *testing.T, c heldCase, trusted bool) (*compile.Program, Config, string) {
	t.Helper()
	prog, err := compile.Compile([]byte(c.mask), compile.Options{Wildcards: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.cfg
	cfg.Trusted = trusted
	var m Machine
	m.Reset(prog, cfg)
	return prog, cfg, dropResult(m.Append(nil, []byte(c.doc)))
}

// pausedReader gives first bytes of data on its first Read, then says so on
// paused and waits for resume before it gives the rest: a live NDJSON source
// that filled the window with whole lines and then had nothing more for a
// while.
type pausedReader struct {
	data           []byte
	first, reads   int
	paused, resume chan struct{}
}

func (r *pausedReader) Read(p []byte) (int, error) {
	r.reads++
	switch {
	case r.reads == 1:
		n := copy(p, r.data[:r.first])
		r.data = r.data[n:]
		return n, nil
	case r.reads == 2:
		r.paused <- struct{}{}
		<-r.resume
	}
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestHeldLinesNotDelayed: where a Read fills the window with whole NDJSON
// lines, the last of which has a comma near its end, and the source then
// pauses, every line read is masked and written before Copy's next Read
// returns (what cut holds never holds a line's end). Fails when cut holds
// what follows the last comma only.
func TestHeldLinesNotDelayed(t *testing.T) {
	prog, err := compile.Compile([]byte(`{"k":true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	line := `{"drop":"` + boundaryCanary + `","k":1,"z":0}` + "\n"
	for _, lines := range []int{2, 3, 8} {
		size := lines * len(line)
		r := &pausedReader{data: []byte(strings.Repeat(line, lines+1)), first: size,
			paused: make(chan struct{}), resume: make(chan struct{})}
		var out bytes.Buffer // read after paused and after done: no race
		done := make(chan error)
		s := Get(prog, Config{NDJSON: true}, size)
		go func() {
			_, err := s.Copy(&out, r)
			done <- err
		}()
		<-r.paused
		got := out.String()
		close(r.resume)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		Put(s)
		if want := strings.Repeat(`{"k":1}`+"\n", lines); got != want {
			t.Fatalf("%d lines in the window: before the next Read returned, Copy wrote %q, want %q", lines, got, want)
		}
		if want := strings.Repeat(`{"k":1}`+"\n", lines+1); out.String() != want {
			t.Fatalf("%d lines in the window: Copy wrote %q, want %q", lines, out.String(), want)
		}
	}
}
