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

// markerWriter counts what is written and remembers whether the marker ever
// appeared, across writes too, without keeping the output.
type markerWriter struct {
	countingWriter
	marker []byte
	carry  []byte
	seen   bool
}

func (w *markerWriter) Write(p []byte) (int, error) {
	if len(w.marker) > 0 {
		w.carry = append(w.carry[:0], w.carry...)
		joined := append(w.carry, p[:min(len(p), len(w.marker))]...)
		if bytes.Contains(joined, w.marker) || bytes.Contains(p, w.marker) {
			w.seen = true
		}
		w.carry = append(w.carry[:0], p[max(0, len(p)-len(w.marker)):]...)
	}
	return w.countingWriter.Write(p)
}

// TestHostileLarge streams the large hostile inputs of issue 5 through Copy
// with a 4 KiB window: the right outcome (SPEC), a heap that stays flat, and
// no dropped byte (marked SECRET) in the output. Time is linear, which
// BenchmarkHostile shows; this test checks outcomes and memory only.
func TestHostileLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("streams hundreds of megabytes")
	}
	const mib = 1 << 20
	m := jsonmask.MustCompile(`{"keep":true,"k":{"x":true}}`, jsonmask.WithBufferSize(4096))
	for _, c := range []struct {
		name     string
		r        io.Reader
		wantN    int64  // bytes written, -1: do not check
		wantTail string // suffix of the output
		wantErr  string // substring of the error, "" for none
	}{
		{"Whitespace200MiB", newPatternReader("", strings.Repeat(" ", 4096), "", 200*mib/4096), 200 * mib, "    ", ""},
		{"PrettyWhitespace200MiB", newPatternReader("", "\n"+strings.Repeat(" ", 4095), "", 200*mib/4096), 200 * mib, "    ", ""},
		{"WhitespaceThenObject", newPatternReader("", strings.Repeat(" ", 4096), `{"keep":1,"SECRET":2}`, 200*mib/4096), 10, `{"keep":1}`, ""},
		{"DroppedString200MiB", newPatternReader(`{"SECRET":"`, strings.Repeat("SECRET ", 512), `","keep":true}`, 200*mib/(7*512)), 13, `{"keep":true}`, ""},
		{"KeptNumber64MiB", newPatternReader(`{"keep":1`, strings.Repeat("0", 4096), `}`, 64*mib/4096), 8 + 1 + 64*mib + 1, `000}`, ""},
		{"DroppedNumber64MiB", newPatternReader(`{"SECRET":-1`, strings.Repeat("7", 4096), `e5,"keep":0}`, 64*mib/4096), 10, `{"keep":0}`, ""},
		{"MillionKeys", newPatternReader(`{"keep":[],`, `"SECRET_k":"SECRET_v",`, `"k":{"x":1}}`, 1_000_000), 23, `{"keep":[],"k":{"x":1}}`, ""},
		{"MillionDuplicateKeys", newPatternReader(`{`, `"keep":1,`, `"keep":2}`, 1_000_000), 9*1_000_000 + 10, `"keep":1,"keep":2}`, ""},
		{"UnterminatedString200MiB", newPatternReader(`{"keep":1,"SECRET":"`, strings.Repeat("SECRET ", 512), ``, 200*mib/(7*512)), -1, ``, "unexpected end of JSON input"},
		{"UnterminatedKeptString", newPatternReader(`{"keep":"`, strings.Repeat("x", 4096), ``, 50*mib/4096), -1, ``, "unexpected end of JSON input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			w := &markerWriter{marker: []byte("SECRET")}
			n, err := m.Copy(w, c.r)
			runtime.ReadMemStats(&after)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatal(err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("err = %v, want %q", err, c.wantErr)
			}
			var se *jsonmask.SyntaxError
			if err != nil && !errors.As(err, &se) {
				t.Errorf("err is a %T", err)
			}
			if c.wantN >= 0 && n != c.wantN {
				t.Errorf("wrote %d bytes, want %d", n, c.wantN)
			}
			if !strings.HasSuffix(string(w.tail), c.wantTail) {
				t.Errorf("output ends %q, want %q", w.tail, c.wantTail)
			}
			if w.seen {
				t.Errorf("a dropped byte reached the output")
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("allocated %d bytes while streaming", grew)
			}
		})
	}
}

// BenchmarkHostile measures the large hostile inputs at growing sizes:
// ns/op over bytes should stay flat (time linear in the input).
func BenchmarkHostile(b *testing.B) {
	m := jsonmask.MustCompile(`{"keep":true}`)
	for _, c := range []struct {
		name                 string
		prefix, unit, suffix string
	}{
		{"Whitespace", "", " \n\t ", `{"keep":1}`},
		{"DroppedString", `{"x":"`, "abcdefgh", `","keep":1}`},
		{"DroppedNumber", `{"x":1`, "00000000", `,"keep":1}`},
		{"Keys", `{`, `"k0":1,`, `"keep":1}`},
		{"DuplicateKeys", `{`, `"keep":1,`, `"keep":1}`},
		{"NestedDropped", `{"x":[`, `[[[[[[[[[[{"a":[{}]}]]]]]]]]]],`, `0],"keep":1}`},
	} {
		for _, units := range []int{1 << 14, 1 << 16, 1 << 18} {
			doc := []byte(c.prefix + strings.Repeat(c.unit, units) + c.suffix)
			dst := make([]byte, 0, len(doc))
			b.Run(c.name+"/bytes="+itoa(len(doc)), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = m.Append(dst[:0], doc)
				}
			})
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
