package corpus

import (
	"bytes"
	"fmt"
	"strings"
)

// ItemsMask keeps about a third of the bytes of an ItemsBody: the id, and
// each item's id and name.
const ItemsMask = `{"id":true,"items":{"id":true,"name":true}}`

// ItemsBody is the synthetic body of the gateway's cost benchmarks (the
// CLI's BenchmarkServeCost and bench/cmd/gatewaywrk), an object of about
// size bytes: {"id":1,"items":[{"id":N,"name":"nN","email":...,
// "payload":...,"tags":[...]}, ...]}. Unlike the corpus it needs no
// files, so a program may call it too.
func ItemsBody(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":1,"items":[`)
	for i := 0; b.Len() < size-120; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"n%d","email":"user%d@example.com","payload":"%s","tags":["a","b"]}`, i, i, i, strings.Repeat("x", 40))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}
