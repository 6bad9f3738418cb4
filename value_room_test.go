package jsonmask_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestKeptValueRoom checks, in the default mode, that no byte of a dropped
// member lands anywhere in the output buffer, past its end included, however
// much room it has: kept values copied with whitespace to drop (short runs
// are moved 16 bytes at a time) sit right before dropped members that carry
// a marker.
func TestKeptValueRoom(t *testing.T) {
	const marker = "CANARY"
	var sb strings.Builder
	sb.WriteString("{\n")
	for i := range 30 {
		fmt.Fprintf(&sb, "  \"keep%d\": {\"a\": %d, \"b\": [1, 2]},\"d%d\":\"%s\",\n", i, i, i, marker)
		fmt.Fprintf(&sb, "  \"list%d\": [ %s1 ],\"e%d\": [\"%s\"],\n", i, strings.Repeat("2 , ", i%4), i, marker)
	}
	sb.WriteString("  \"last\": 0\n}")
	doc := []byte(sb.String())
	var keep []string
	for i := range 30 {
		keep = append(keep, fmt.Sprintf(`"keep%d":true,"list%d":true`, i, i))
	}
	m := jsonmask.MustCompile("{" + strings.Join(keep, ",") + "}")
	want, err := m.Append(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(want, []byte(marker)) {
		t.Fatalf("the marker is kept: %s", want)
	}
	for _, room := range []int{0, 10, 100, 1000, 10000} {
		dst := bytes.Repeat([]byte{'#'}, room)[:0]
		out, err := m.Append(dst, doc)
		if err != nil || !bytes.Equal(out, want) {
			t.Fatalf("room %d: %q, %v; want %q", room, out, err, want)
		}
		if k := bytes.Index(out[:cap(out)], []byte("CA")); k >= 0 {
			t.Fatalf("room %d: a dropped byte lies in the output buffer at %d: %q", room, k, out[:cap(out)])
		}
	}
}

// TestKeptValueRoomDescended is TestKeptValueRoom for the members of objects
// that the member loop opened itself (the mask's second level in the
// elements of an array, their keys found in the cache): a kept string of 17
// to 64 bytes, which the machine moves 16 bytes at a time, is the output's
// last kept value, right before a dropped member that carries the marker.
func TestKeptValueRoomDescended(t *testing.T) {
	const marker = "CANARY"
	m := jsonmask.MustCompile(`{"items":{"o":{"v":true}}}`)
	for n := 17; n <= 64; n++ {
		var sb strings.Builder
		sb.WriteString(`{"items":[`)
		for i := range 8 {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"o":{"v":"%s","x":"%s%s"}}`, strings.Repeat("v", n-2), marker, strings.Repeat(marker, 12))
		}
		sb.WriteString(`]}`)
		doc := []byte(sb.String())
		want, err := m.Append(nil, doc)
		if err != nil || bytes.Contains(want, []byte(marker)) {
			t.Fatalf("n %d: %s, %v", n, want, err)
		}
		for _, room := range []int{0, 100, 10000} {
			dst := bytes.Repeat([]byte{'#'}, room)[:0]
			out, err := m.Append(dst, doc)
			if err != nil || !bytes.Equal(out, want) {
				t.Fatalf("n %d, room %d: %q, %v; want %q", n, room, out, err, want)
			}
			if k := bytes.Index(out[:cap(out)], []byte("CA")); k >= 0 {
				t.Fatalf("n %d, room %d: a dropped byte lies in the output buffer at %d: %q", n, room, k, out[:cap(out)])
			}
		}
	}
}
