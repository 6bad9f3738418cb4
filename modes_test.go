package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"testing/iotest"

	"github.com/jsonmask/jsonmask"
)

// maskMode is one way of running a Mask over a whole input.
type maskMode struct {
	name string
	mask func(m *jsonmask.Mask, in []byte) ([]byte, error)
}

// maskModes are all the ways a test runs an input: every one must give the
// same bytes and fail on the same inputs (SPEC S1).
var maskModes = func() []maskMode {
	modes := []maskMode{
		{"Append", func(m *jsonmask.Mask, in []byte) ([]byte, error) { return m.Append(nil, in) }},
		{"Append/dst", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			out, err := m.Append([]byte("prefix"), in)
			if !bytes.HasPrefix(out, []byte("prefix")) {
				return out, fmt.Errorf("Append lost dst's prefix")
			}
			return out[len("prefix"):], err
		}},
		{"Reader/OneByte", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			return io.ReadAll(m.NewReader(iotest.OneByteReader(bytes.NewReader(in))))
		}},
		{"Reader/DataErr", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			return io.ReadAll(m.NewReader(iotest.DataErrReader(bytes.NewReader(in))))
		}},
		{"Reader/Half", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			return io.ReadAll(m.NewReader(iotest.HalfReader(bytes.NewReader(in))))
		}},
		{"Reader/OneByteOut", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			return io.ReadAll(iotest.OneByteReader(m.NewReader(bytes.NewReader(in))))
		}},
		{"Reader/WriteTo", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			var out bytes.Buffer
			_, err := io.Copy(&out, m.NewReader(iotest.HalfReader(bytes.NewReader(in))))
			return out.Bytes(), err
		}},
		{"Writer/Random", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			var out bytes.Buffer
			w := m.NewWriter(&out)
			rng := rand.New(rand.NewPCG(uint64(len(in)), 7))
			for p := in; len(p) > 0; {
				n := min(len(p), 1+rng.IntN(9))
				if _, err := w.Write(p[:n]); err != nil {
					return out.Bytes(), err
				}
				p = p[n:]
			}
			err := w.Close()
			return out.Bytes(), err
		}},
		{"Copy/RandomSplits", func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			var out bytes.Buffer
			_, err := m.Copy(&out, &randomReader{data: in, rng: rand.New(rand.NewPCG(uint64(len(in)), 11))})
			return out.Bytes(), err
		}},
	}
	for size := 1; size <= 17; size++ {
		modes = append(modes, maskMode{fmt.Sprintf("Copy/chunk=%d", size), func(m *jsonmask.Mask, in []byte) ([]byte, error) {
			var out bytes.Buffer
			_, err := m.Copy(&out, &chunkReader{data: in, size: size})
			return out.Bytes(), err
		}})
	}
	return modes
}()

// chunkReader yields data size bytes per Read.
type chunkReader struct {
	data []byte
	size int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.size)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// randomReader yields data in reads of random sizes, some empty.
type randomReader struct {
	data []byte
	rng  *rand.Rand
}

func (r *randomReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.rng.IntN(12))], r.data)
	r.data = r.data[n:]
	return n, nil
}

// resettableReader is a bytes.Reader that a benchmark or allocation test can
// rewind without allocating, and that reads at most size bytes at a time.
type resettableReader struct {
	data []byte
	pos  int
	size int
}

func (r *resettableReader) Read(p []byte) (int, error) {
	if r.pos == len(r.data) {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.size)], r.data[r.pos:])
	r.pos += n
	return n, nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
