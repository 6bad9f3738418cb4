package mcpproxy

import (
	"fmt"
	"strings"
	"testing"
)

// benchDoc is a JSON object of about n bytes: items with an id, a status and
// a note (as bench/cmd/mcplatency's server sends).
func benchDoc(n int) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	i := 0
	for ; b.Len() < n-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"i%07d","status":"%s","note":"item %d of a generated list, with some words to count"}`, i, []string{"open", "done", "late"}[i%3], i)
	}
	fmt.Fprintf(&b, `],"count":%d}`, i)
	return b.String()
}

// BenchmarkServerResult is the proxy's work on one tools/call result, sent
// as structuredContent and as text (as the go-sdk's typed tools send it):
// read, masked, fitted to the budget, written. Tools (harnessConfig): d
// masked with the default budget of 7000 tokens, m masked with 100000, u
// unmasked with 100000.
func BenchmarkServerResult(b *testing.B) {
	for _, size := range []int{10 << 10, 5 << 20} {
		for _, tool := range []string{"d", "m", "u"} {
			b.Run(fmt.Sprintf("size=%d/tool=%s", size, tool), func(b *testing.B) {
				h := newHarness(b)
				doc := benchDoc(size)
				line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + jstr(doc) + `}],"structuredContent":` + doc + `}}` + "\n")
				b.SetBytes(int64(len(line)))
				b.ReportAllocs()
				for b.Loop() {
					h.call("1", tool)
					h.s.serverLine(&h.ps, line)
					h.s.wait()
					h.out.drain()
				}
			})
		}
	}
}
