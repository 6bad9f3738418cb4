package mcpproxy

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/internal/s3test"
	_ "github.com/jsonmask/jsonmask/toolresult/blobstore" // s3://
)

// TestOwnToolCancelled: read_variable and query_variable over a store that
// never answers (an S3 endpoint that takes connections and is silent) stop
// when the client cancels the call (notifications/cancelled), and send
// nothing for it; the session's slot goes back. They used to run under the
// session's context, which only the session's end ended.
func TestOwnToolCancelled(t *testing.T) {
	url := s3test.Silent(t)
	for _, tc := range []struct{ tool, args string }{
		{readVariable, `{"name":"var_0123456789abcdef"}`},
		{queryVariable, `{"name":"var_0123456789abcdef","program":"length"}`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(harnessConfig))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Store = url
			p, err := New(cfg, WithLog(io.Discard))
			if err != nil {
				t.Fatal(err)
			}
			out := &lockedBuffer{}
			s := newSession(p, out, io.Discard)
			var ps parser
			s.clientLine(&ps, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+tc.tool+`","arguments":`+tc.args+`}}`+"\n"))
			time.Sleep(200 * time.Millisecond) // the call waits on the store
			s.clientLine(&ps, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`+"\n"))
			done := make(chan struct{})
			go func() { s.wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the call still waits on the store 20 s after the client cancelled it")
			}
			if got := out.drain(); strings.Contains(got, `"id":7`) {
				t.Fatalf("an answer to a cancelled call: %s", got)
			}
		})
	}
}
