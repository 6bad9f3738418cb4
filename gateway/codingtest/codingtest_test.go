package codingtest

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

const canary = "CANARY-c0d1"

// TestRoundTrip: every coding decodes what it coded, whole and, flushed
// piece by piece, as far as it was flushed; a body cut short decodes to a
// prefix and says so; Holds finds a canary in the coded bytes of every
// coding, whole or cut short.
func TestRoundTrip(t *testing.T) {
	doc := []byte(`{"id":1,"x":"` + canary + `","pad":"` + strings.Repeat("ab", 200) + `"}`)
	for _, coding := range append(Codings, "GZIP", "") {
		t.Run(coding, func(t *testing.T) {
			coded := Encode(t, coding, doc)
			if got := Decode(t, coding, coded); !bytes.Equal(got, doc) {
				t.Fatalf("decoded %q", got)
			}
			if !Holds(coding, coded, canary) {
				t.Error("Holds: no canary in the whole body")
			}

			var buf bytes.Buffer
			w, err := NewWriter(coding, &buf)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(doc[:20])
			w.Flush()
			got, err := DecodePrefix(coding, buf.Bytes())
			if !bytes.Equal(got, doc[:20]) {
				t.Errorf("flushed prefix %q, want %q", got, doc[:20])
			}
			if coding != "identity" && coding != "" && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("a stream not ended: %v, want io.ErrUnexpectedEOF", err)
			}
			w.Write(doc[20:])
			w.Close()
			if got := Decode(t, coding, buf.Bytes()); !bytes.Equal(got, doc) {
				t.Errorf("streamed %q", got)
			}
			if cut := coded[:len(coded)*3/4]; !Holds(coding, cut, canary) {
				t.Error("Holds: no canary in a body cut short")
			}
		})
	}
	if Holds("gzip", Encode(t, "gzip", []byte(`{"id":1}`)), canary) {
		t.Error("Holds: a canary in a body without one")
	}
	if _, err := NewWriter("br", io.Discard); err == nil {
		t.Error("NewWriter: br")
	}
	if got, err := DecodePrefix("compress", []byte("x")); err == nil || got != nil {
		t.Errorf("DecodePrefix: compress: %q %v", got, err)
	}
}
