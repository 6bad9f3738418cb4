package stream

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// TestKeptValueRoomMembers checks that members, the loop over a batch of
// members of an object that Scanner.Members did not open itself, leaves no
// byte of a dropped member in the output buffer, past its end included,
// however much room it has: each element of an array is an object whose kept
// string of 17 to 64 bytes, which members moves 16 bytes at a time, comes
// right before a dropped member that carries a marker. Its key and value sit
// side by side or apart (" : "), and the same document split at every byte
// gives the same output.
func TestKeptValueRoomMembers(t *testing.T) {
	const marker = "CANARY"
	prog, err := compile.Compile([]byte(`{"items":{"name":true}}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, colon := range []string{":", " : "} {
		for n := 15; n <= 68; n++ {
			var sb strings.Builder
			sb.WriteString(`{"items":[`)
			for i := range 8 {
				if i > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `{"name"%s"%s","x":"%s"}`, colon, strings.Repeat("v", n-2), strings.Repeat(marker, 13))
			}
			sb.WriteString(`]}`)
			doc := []byte(sb.String())
			want := `{"items":[` + strings.Repeat(`{"name":"`+strings.Repeat("v", n-2)+`"},`, 7) + `{"name":"` + strings.Repeat("v", n-2) + `"}]}`
			var m Machine
			for _, room := range []int{0, 100, 10000} {
				m.Reset(prog, Config{})
				dst := bytes.Repeat([]byte{'#'}, room)[:0]
				out, err := m.Append(dst, doc)
				if err != nil || string(out) != want {
					t.Fatalf("%q, n %d, room %d: %q, %v; want %q", colon, n, room, out, err, want)
				}
				if k := bytes.Index(out[:cap(out)], []byte("CA")); k >= 0 {
					t.Fatalf("%q, n %d, room %d: a dropped byte lies in the output buffer at %d: %q", colon, n, room, k, out[:cap(out)])
				}
			}
			for cut := 0; cut <= len(doc); cut++ {
				m.Reset(prog, Config{})
				if out, err := writeAll(&m, doc[:cut], doc[cut:]); err != nil || string(out) != want {
					t.Fatalf("%q, n %d, split at %d: %q, %v", colon, n, cut, out, err)
				}
			}
		}
	}
}
