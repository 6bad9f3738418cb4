package bench

import (
	"bytes"
	"encoding/json"
	"testing"
)

// BenchmarkAppendValue masks twitter.json's statuses held as Go values, with
// the twitter/decision-fields mask, as
// BenchmarkAppendValue/impl=<impl>/kind=<struct|map>: jsonmask's
// AppendValue against encoding the value whole (encoding/json, sonic) and
// masking the encoding with Append. Throughput (MB/s) is of encoding/json's
// encoding of the value. Compare with
//
//	go test -run '^$' -bench AppendValue -count 10 > out.txt
//	go tool benchstat -col /impl out.txt
func BenchmarkAppendValue(b *testing.B) {
	doc, m, err := loadValueWorkload()
	if err != nil {
		b.Fatal(err)
	}
	for _, im := range valueImpls {
		for _, kind := range valueKinds {
			v, err := kind.decode(doc)
			if err != nil {
				b.Fatal(err)
			}
			enc, err := json.Marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			b.Run("impl="+im.name+"/kind="+kind.name, func(b *testing.B) {
				dst, err := im.mask(m, nil, v) // sizes dst, as a server reusing its buffers would
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(enc)))
				b.ReportAllocs()
				for b.Loop() {
					if dst, err = im.mask(m, dst[:0], v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestAppendValuePeersAgree proves that BenchmarkAppendValue's
// implementations do the same work: jsonmask's output is exactly encoding/json's
// encoding masked by Append, and sonic's decodes to the same value.
func TestAppendValuePeersAgree(t *testing.T) {
	doc, m, err := loadValueWorkload()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range valueKinds {
		v, err := kind.decode(doc)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Append(nil, enc)
		if err != nil {
			t.Fatal(err)
		}
		// The Go value holds what the mask keeps of the document.
		fromDoc, err := m.Append(nil, doc)
		if err != nil {
			t.Fatal(err)
		}
		assertSameJSON(t, want, fromDoc, "")
		for _, im := range valueImpls {
			t.Run("impl="+im.name+"/kind="+kind.name, func(t *testing.T) {
				got, err := im.mask(m, bytes.Repeat([]byte{'#'}, 64)[:0], v)
				if err != nil {
					t.Fatal(err)
				}
				if im.name == "sonic" {
					assertSameJSON(t, got, want, "")
				} else if !bytes.Equal(got, want) {
					t.Errorf("differs from encoding/json + Append at byte %d:\n got: %.300s\nwant: %.300s",
						firstDiff(got, want), got[firstDiff(got, want):], want[firstDiff(got, want):])
				}
			})
		}
	}
}
