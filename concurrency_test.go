package jsonmask_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestConcurrentUse: one Mask serves many goroutines at once, through every
// entry point, each getting its own right answer (SPEC M7). Run with -race.
func TestConcurrentUse(t *testing.T) {
	m := jsonmask.MustCompile(`{"id":true,"user":{"name":true}}`, jsonmask.WithBufferSize(7))
	g := newGen(99)
	type job struct{ in, want []byte }
	var jobs []job
	for range 64 {
		in := g.doc()
		want, err := m.Append(nil, in)
		if err != nil {
			continue
		}
		jobs = append(jobs, job{in, want})
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k, j := range jobs {
				var got []byte
				var err error
				switch (w + k) % 5 {
				case 0:
					got, err = m.Append(nil, j.in)
				case 1:
					var b bytes.Buffer
					_, err = m.Copy(&b, &chunkReader{data: j.in, size: 3})
					got = b.Bytes()
				case 2:
					got, err = io.ReadAll(m.NewReader(bytes.NewReader(j.in)))
				case 3:
					var b bytes.Buffer
					wr := m.NewWriter(&b)
					if _, err = wr.Write(j.in); err == nil {
						err = wr.Close()
					}
					got = b.Bytes()
				default:
					got, err = m.AppendValue(nil, map[string]any{"id": k, "user": map[string]string{"name": "x", "ssn": "y"}})
					j.want = []byte(`{"id":` + itoa(k) + `,"user":{"name":"x"}}`)
				}
				if err != nil || !bytes.Equal(got, j.want) {
					t.Errorf("worker %d job %d: %q, %v; want %q", w, k, got, err, j.want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
