// Command instructions masks one workload three times, to be run under
// callgrind: the instruction count it gives is the same from run to run,
// which the wall clock of a shared machine is not, so small changes can be
// compared. See ../../instructions.sh.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/bench"
)

// reader yields data whole, once.
type reader struct {
	data []byte
	pos  int
}

func (r *reader) Read(p []byte) (int, error) {
	if r.pos == len(r.data) {
		return 0, io.EOF
	}
	n := copy(p, r.data[r.pos:])
	r.pos += n
	return n, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: instructions WORKLOAD-SUBSTRING default|trusted|stream")
		os.Exit(2)
	}
	ws, err := bench.LoadWorkloads("testdata")
	if err != nil {
		panic(err)
	}
	mode := os.Args[2]
	for _, w := range ws {
		if !strings.Contains(w.Name, os.Args[1]) {
			continue
		}
		doc, err := w.Input("testdata")
		if err != nil {
			panic(err)
		}
		m, err := jsonmask.Compile(w.Mask, jsonmask.WithArrays(w.Options.Arrays),
			jsonmask.WithNDJSON(w.Options.NDJSON), jsonmask.WithTrustedInput(mode == "trusted"))
		if err != nil {
			panic(err)
		}
		dst := make([]byte, 0, len(doc))
		// A first pass, not counted, grows the goroutine's stack: callgrind
		// loses track of a toggled function whose stack is moved, and then
		// counted an iteration too few.
		if mode == "stream" {
			_, err = m.Copy(io.Discard, &reader{data: doc})
		} else {
			dst, err = m.Append(dst[:0], doc)
		}
		if err != nil {
			panic(err)
		}
		for range 3 {
			if mode == "stream" {
				err = copyOnce(m, doc)
			} else {
				dst, err = appendOnce(m, dst[:0], doc)
			}
			if err != nil {
				panic(err)
			}
		}
		fmt.Fprintln(os.Stderr, w.Name, len(doc))
	}
}

// appendOnce and copyOnce are what callgrind counts (--toggle-collect).
//
//go:noinline
func appendOnce(m *jsonmask.Mask, dst, doc []byte) ([]byte, error) { return m.Append(dst, doc) }

//go:noinline
func copyOnce(m *jsonmask.Mask, doc []byte) error {
	_, err := m.Copy(io.Discard, &reader{data: doc})
	return err
}
