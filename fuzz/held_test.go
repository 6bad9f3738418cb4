package fuzz

import (
	"bytes"
	"io"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// fullReader fills every buffer it is given while it has data, as a socket
// with bytes waiting does: Copy and NewReader then mask each window up to
// its last comma (or a newline after it) and hold the rest for the next
// Read (stream.cut). It has no WriteTo, so that nothing bypasses its Read.
type fullReader struct{ data []byte }

func (r *fullReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// FuzzHeld checks SPEC S1 where the stream chooses its windows' ends:
// windows of 1 to 64 bytes filled by every Read (Copy, NewReader), and a
// Writer given the whole body in one Write, against Append.
func FuzzHeld(f *testing.F) {
	masks, inputs := conformanceSeeds(f)
	for i, in := range inputs {
		f.Add(in, masks[i%len(masks)], uint8(i), uint8(i))
	}
	for i, in := range []string{
		`{"keep": [1, 22, 333, "a,b", {"x": 1}], "drop": {"c": "x,y", "v": [1, 2.5e3]}, "k": {"a": 1, "b": 2}}`,
		"{\n  \"keep\" : [ 1, 2 ],\n  \"drop\" : { \"a\" : \"b,c\" },\n  \"k\" : { \"a\" : 1, \"z\" : 2 }\n}\n",
		`{"keep": 1, "drop": [1, 2,, 3]}`,
		`{"keep": [1, 2, 3], "drop": {"a": 1}, "keep": tru}`,
	} {
		f.Add([]byte(in), []byte(`{"keep":true,"k":{"a":true}}`), uint8(7*i+5), uint8(3*i))
	}
	for i, in := range ndjsonSeeds {
		f.Add([]byte(in), []byte(`{"keep":true,"obj":{"a":true}}`), uint8(3*i+1), uint8(optNDJSON|i%2*optTrusted))
	}
	f.Fuzz(func(t *testing.T, doc, mask []byte, window, flags uint8) {
		opts, _ := options(flags)
		m, err := jsonmask.Compile(mask, append(opts, jsonmask.WithBufferSize(1+int(window%64)))...)
		if err != nil {
			return
		}
		out, err := m.Append(nil, doc)
		var cout bytes.Buffer
		_, cerr := m.Copy(&cout, &fullReader{data: doc})
		rout, rerr := io.ReadAll(m.NewReader(&fullReader{data: doc}))
		var wout bytes.Buffer
		w := m.NewWriter(&wout)
		_, werr := w.Write(doc)
		if werr == nil {
			werr = w.Close()
		}
		for _, s := range []struct {
			how string
			out []byte
			err error
		}{{"Copy", cout.Bytes(), cerr}, {"NewReader", rout, rerr}, {"NewWriter", wout.Bytes(), werr}} {
			if (s.err != nil) != (err != nil) || err == nil && !bytes.Equal(s.out, out) ||
				err != nil && s.err.Error() != err.Error() {
				t.Fatalf("%s, window %d: %q, %v\nAppend: %q, %v", s.how, 1+window%64, s.out, s.err, out, err)
			}
		}
	})
}
