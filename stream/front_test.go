package stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

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
			if rd.s != nil || rd.buf != nil || rd.pend != nil {
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
