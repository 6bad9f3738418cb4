package stream

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// TestFullBatches checks members and descended where Scanner.Members fills
// m.spans (64 spans) once or more: a flat object of kept and dropped members,
// and an array of objects whose children descended opens and closes, with
// batches that end on every kind of span. Each document is masked whole
// (into buffers with room: no byte of a dropped member may lie past the
// output), split in two at every byte and a byte at a time (checkSplits), in
// default and trusted mode.
func TestFullBatches(t *testing.T) {
	const marker = "CANARY"
	for _, trusted := range []bool{false, true} {
		cfg := Config{Trusted: trusted}
		for _, n := range []int{31, 32, 33, 63, 64, 65, 66, 127, 128, 129, 190} {
			// Flat: k0 ... k(n-1); the mask keeps the even keys, the odd
			// ones carry the marker.
			var doc, want, mask strings.Builder
			doc.WriteByte('{')
			want.WriteByte('{')
			mask.WriteByte('{')
			for i := range n {
				if i > 0 {
					doc.WriteByte(',')
				}
				if i%2 == 1 {
					fmt.Fprintf(&doc, `"k%d":"%s"`, i, marker)
					continue
				}
				if i > 0 {
					want.WriteByte(',')
					mask.WriteByte(',')
				}
				fmt.Fprintf(&doc, `"k%d":%d`, i, i)
				fmt.Fprintf(&want, `"k%d":%d`, i, i)
				fmt.Fprintf(&mask, `"k%d":true`, i)
			}
			doc.WriteByte('}')
			want.WriteByte('}')
			mask.WriteByte('}')
			name := fmt.Sprintf("flat %d trusted %v", n, trusted)
			checkBatch(t, name, mask.String(), cfg, doc.String(), want.String())
			t.Run(name, func(t *testing.T) { checkSplits(t, mask.String(), cfg, doc.String(), want.String()) })

			// Nested: n/4 elements of 5 spans each (the sibling, "a",
			// "c" opened, "t", the close), "b" and "u" dropped.
			k := n / 4
			doc.Reset()
			want.Reset()
			doc.WriteString(`{"items":[`)
			want.WriteString(`{"items":[`)
			for i := range k {
				if i > 0 {
					doc.WriteByte(',')
					want.WriteByte(',')
				}
				fmt.Fprintf(&doc, `{"a":%d,"b":"%s","c":{"t":"x%d","u":"%s"}}`, i, marker, i, marker)
				fmt.Fprintf(&want, `{"a":%d,"c":{"t":"x%d"}}`, i, i)
			}
			doc.WriteString(`]}`)
			want.WriteString(`]}`)
			const nested = `{"items":{"a":true,"c":{"t":true}}}`
			name = fmt.Sprintf("nested %d trusted %v", k, trusted)
			checkBatch(t, name, nested, cfg, doc.String(), want.String())
			t.Run(name, func(t *testing.T) { checkSplits(t, nested, cfg, doc.String(), want.String()) })
		}
	}
}

// checkBatch masks doc by mask with cfg into buffers with and without room,
// twice each with one Machine (the second time its found cache and Descents
// answer), and wants want, with no byte of the marker "CANARY" anywhere in the
// buffer up to its capacity.
func checkBatch(t *testing.T, name, mask string, cfg Config, doc, want string) {
	t.Helper()
	prog, err := compile.Compile([]byte(mask), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var m Machine
	for _, room := range []int{0, 100, 1 << 16} {
		for range 2 {
			m.Reset(prog, cfg)
			out, err := m.Append(bytes.Repeat([]byte{'#'}, room)[:0], []byte(doc))
			if err != nil || string(out) != want {
				t.Fatalf("%s, room %d: %q, %v; want %q", name, room, out, err, want)
			}
			if k := bytes.Index(out[:cap(out)], []byte("CA")); k >= 0 {
				t.Fatalf("%s, room %d: a dropped byte lies in the output buffer at %d", name, room, k)
			}
		}
	}
}
