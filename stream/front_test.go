package stream

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/compile"
)

// TestHandBack: a Reader and a Writer take their Stream over and, once
// they are done (the end, an error, Stop, Close), hold none of it: what
// they say afterwards comes from their own state.
func TestHandBack(t *testing.T) {
	prog, err := compile.Compile([]byte(`{"a":true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	errStop := errors.New("stopped")
	for _, c := range []struct {
		name, in string
		stop     bool
		want     string
		wantErr  bool
	}{
		{"End", `{"a":1,"b":2}`, false, `{"a":1}`, false},
		{"Invalid", `{"a":1,"b":}`, false, `{"a":1`, true},
		{"Stop", `{"a":1,"b":2}`, true, ``, true},
	} {
		t.Run("Reader/"+c.name, func(t *testing.T) {
			rd := NewReader(Get(prog, Config{}, 4), strings.NewReader(c.in))
			if c.stop {
				rd.Stop(errStop)
			}
			out, err := io.ReadAll(rd)
			if string(out) != c.want || (err != nil) != c.wantErr {
				t.Fatalf("read %q, %v; want %q", out, err, c.want)
			}
			if rd.s != nil || rd.buf != nil || rd.pend != nil || rd.tail != nil {
				t.Errorf("the Reader still holds its Stream's memory")
			}
			if _, again := rd.Read(make([]byte, 8)); again != err && !(err == nil && again == io.EOF) {
				t.Errorf("Read after the end: %v, want %v", again, err)
			}
		})
		t.Run("Writer/"+c.name, func(t *testing.T) {
			var out bytes.Buffer
			wr := NewWriter(Get(prog, Config{}, 4), &out)
			_, err := wr.Write([]byte(c.in))
			if err == nil {
				err = wr.Close()
			}
			if (err != nil) != (c.wantErr && !c.stop) { // a Writer has no Stop: it is closed
				t.Fatalf("write: %v", err)
			}
			if wr.s != nil {
				t.Errorf("the Writer still holds its Stream")
			}
			if err := wr.Flush(); err == nil {
				t.Errorf("Flush after the end: nil, want an error")
			}
		})
	}
}

// TestTinyWindow: a Stream Reset with a window of -1, 0 or 1 byte masks every
// front door's input to the end. A window of 0 bytes used to spin: Copy
// read into an empty buffer (0 bytes, no error) for ever, and Reader and
// Writer handed the Machine empty windows for ever, at 100 % CPU; -1
// panicked in Reset.
func TestTinyWindow(t *testing.T) {
	prog, err := compile.Compile([]byte(`{"a":true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const in, want = `{"a":1,"b":"canary"}`, `{"a":1}`
	doors := []struct {
		name string
		run  func(s *Stream) (string, error)
	}{
		{"Copy", func(s *Stream) (string, error) {
			var out bytes.Buffer
			_, err := s.Copy(&out, strings.NewReader(in))
			return out.String(), err
		}},
		{"Reader", func(s *Stream) (string, error) {
			out, err := io.ReadAll(NewReader(s, strings.NewReader(in)))
			return string(out), err
		}},
		{"WriterTo", func(s *Stream) (string, error) {
			var out bytes.Buffer
			_, err := NewReader(s, strings.NewReader(in)).WriteTo(&out)
			return out.String(), err
		}},
		{"Writer", func(s *Stream) (string, error) {
			var out bytes.Buffer
			w := NewWriter(s, &out)
			if _, err := w.Write([]byte(in)); err != nil {
				return out.String(), err
			}
			return out.String(), w.Close()
		}},
	}
	for _, size := range []int{-1, 0, 1} {
		for _, d := range doors {
			t.Run(d.name+"/"+strconv.Itoa(size), func(t *testing.T) {
				type result struct {
					out string
					err error
				}
				done := make(chan result, 1)
				go func() {
					var s Stream
					s.Reset(prog, Config{}, size)
					out, err := d.run(&s)
					done <- result{out, err}
				}()
				select {
				case r := <-done:
					if r.out != want || r.err != nil {
						t.Fatalf("got %q, %v; want %q", r.out, r.err, want)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("the stream spun on a window of this size")
				}
			})
		}
	}
}

// nothingReader gives 0 bytes and no error, for ever: what io.Reader's
// contract discourages and bufio.Reader gives up on.
type nothingReader struct{}

func (nothingReader) Read([]byte) (int, error) { return 0, nil }

// TestNoProgress: a source that gives nothing, and no error, for ever ends
// each pull front door with io.ErrNoProgress, after the 100 tries that
// bufio.Reader allows, instead of asking it again for ever at 100 % CPU.
func TestNoProgress(t *testing.T) {
	prog, err := compile.Compile([]byte(`{"a":true}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := func() io.Reader { return io.MultiReader(strings.NewReader(`{"a":1,`), nothingReader{}) }
	for _, d := range []struct {
		name string
		run  func(s *Stream) error
	}{
		{"Copy", func(s *Stream) error { _, err := s.Copy(io.Discard, src()); return err }},
		{"Reader", func(s *Stream) error { _, err := io.ReadAll(NewReader(s, src())); return err }},
		{"WriterTo", func(s *Stream) error { _, err := NewReader(s, src()).WriteTo(io.Discard); return err }},
	} {
		t.Run(d.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- d.run(Get(prog, Config{}, 16)) }()
			select {
			case err := <-done:
				if !errors.Is(err, io.ErrNoProgress) {
					t.Fatalf("got %v, want io.ErrNoProgress", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still asking a source that gives nothing")
			}
		})
	}
}
