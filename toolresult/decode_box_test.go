package toolresult

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// TestBoxes: values boxed in slabs are values like any others: ==, type
// switches, reflect and encoding/json see them as Go's own, and they
// survive the collector while slabs fill, are dropped and memory is reused.
func TestBoxes(t *testing.T) {
	var b boxes
	var vals []any
	const n = 5000
	for i := range n {
		vals = append(vals, b.str("s"+strconv.Itoa(i)), b.float(float64(i)+0.5), b.int(i*1000-7), b.int(i%256), b.array([]any{"a" + strconv.Itoa(i), i}))
		if i%1000 == 0 {
			b.reset() // a new decode: new slabs, the old ones kept by vals only
		}
	}
	for range 3 {
		runtime.GC()
		garbage := make([][]byte, 0, 1000)
		for range 1000 {
			garbage = append(garbage, bytes.Repeat([]byte{0xA5}, 64))
		}
		runtime.KeepAlive(garbage)
	}
	for i := range n {
		want := []any{"s" + strconv.Itoa(i), float64(i) + 0.5, i*1000 - 7, i % 256, []any{"a" + strconv.Itoa(i), i}}
		for k, w := range want {
			v := vals[5*i+k]
			if k < 4 && v != w || !reflect.DeepEqual(v, w) || reflect.TypeOf(v) != reflect.TypeOf(w) || fmt.Sprint(v) != fmt.Sprint(w) {
				t.Fatalf("value %d.%d: %#v, want %#v", i, k, v, w)
			}
			switch v := v.(type) {
			case string, float64, int, []any:
			default:
				t.Fatalf("value %d.%d: type %T", i, k, v)
			}
		}
	}
	got, _ := json.Marshal(vals[:10])
	if string(got) != `["s0",0.5,-7,0,["a0",0],"s1",1.5,993,1,["a1",1]]` {
		t.Fatalf("encoding/json: %s", got)
	}
}

// TestDecodeValueGC decodes documents and compares them with
// encoding/json's after the collector ran over them and reused what it
// freed.
func TestDecodeValueGC(t *testing.T) {
	for _, name := range []string{"twitter.json", "canada.json", "citm_catalog.json", "conversation_items.json"} {
		doc := corpus.File(t, name)
		got, err := decodeValue(bytes.Clone(doc), 0)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			runtime.GC()
			if _, err := decodeValue(bytes.Clone(doc), 0); err != nil { // reuses the freed memory
				t.Fatal(err)
			}
		}
		want, _ := stdDecode(doc)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decodeValue and encoding/json differ after GC", name)
		}
	}
}
