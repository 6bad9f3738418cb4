package gateway

import (
	"bytes"
	"testing"
)

// FuzzBody: for any body and framing, with a mask that is strict or not,
// no panic, and pushing it whole or a byte at a time gives the same output
// and the same verdict (SPEC S1 for the gateway's framers). Seeded from
// the SSE and body tables.
func FuzzBody(f *testing.F) {
	for _, c := range sseCases {
		f.Add([]byte(c.in), uint8(0))
		f.Add([]byte(c.in), uint8(4))
	}
	for _, c := range bodyCases {
		f.Add([]byte(c.in), uint8(1))
		f.Add([]byte(c.in), uint8(2))
	}
	types := []string{"text/event-stream", "application/json", "application/x-ndjson"}
	f.Fuzz(func(t *testing.T, in []byte, kind uint8) {
		if len(in) > 4096 {
			return // a byte at a time, with a flush each, is slow on long inputs
		}
		h := header("identity", types[int(kind&3)%len(types)])
		m := sseMask
		if kind&4 != 0 {
			m = sseStrictMask
		}
		lim := Limits{MaxTokenBytes: 1 << 16}
		whole, errWhole := pushBody(m, h, lim, in, 0, false)
		bytewise, errBytes := pushBody(m, h, lim, in, 1, true)
		if (errWhole == nil) != (errBytes == nil) {
			t.Fatalf("whole: %v; a byte at a time: %v", errWhole, errBytes)
		}
		if errWhole == nil && !bytes.Equal(whole, bytewise) {
			t.Fatalf("whole %q\nbytes %q", whole, bytewise)
		}
	})
}
