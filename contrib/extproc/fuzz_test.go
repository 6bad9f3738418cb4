package extproc

import (
	"bytes"
	"testing"
)

// FuzzProcess: for any body, chunking, body mode and framing of the
// response header, what the client gets through the server is Append's
// output, whole, when Append accepts the body, and a refusal (a 502 or a
// reset, never a complete response) when it does not: the server adds,
// loses and lets through nothing of its own, at any split (SPEC S1, G5).
func FuzzProcess(f *testing.F) {
	for _, c := range bodyCases {
		if !c.big && c.contentType == "application/json" {
			f.Add(c.body, uint16(5), false, c.contentLength)
		}
	}
	f.Add([]byte(`{"id":1,"x":"`+canary+`",}`), uint16(1), true, true)
	f.Add([]byte(`{"id":1,"x":"`+canary), uint16(3), false, false)
	f.Add([]byte(" \ufeff{}"), uint16(2), true, false)
	f.Add([]byte(""), uint16(0), true, true)
	h := newHarness(f, testRoutes(f))
	f.Fuzz(func(t *testing.T, body []byte, chunk uint16, duplex, contentLength bool) {
		mode := streamed
		if duplex {
			mode = duplexed
		}
		bc := bodyCase{contentType: "application/json", contentLength: contentLength}
		out := h.run(t, exchange{mode: mode, path: "/v1/items", header: bc.responseHeader("identity", body), body: body, chunk: int(chunk%4096) + 1})
		want, err := itemsMask.Append(nil, body)
		if err != nil {
			if out.complete || out.passedRest || !(out.local || out.reset) {
				t.Fatalf("Append refuses the body (%v), the server did not: %+v", err, out)
			}
			return
		}
		if !out.complete || !bytes.Equal(out.body, want) {
			t.Fatalf("got %q (complete %v), want %q", out.body, out.complete, want)
		}
	})
}
