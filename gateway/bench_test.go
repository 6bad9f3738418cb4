package gateway

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkHandler: the handler's cost around the masker, on a small body
// (where routing, headers and the pipeline weigh most) and a large one:
// compare with BenchmarkHandler's mask=copy rows, Mask.Copy alone.
func BenchmarkHandler(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		var body bytes.Buffer
		body.WriteString(`{"id":7,"items":[`)
		for i := 0; body.Len() < size-80; i++ {
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `{"k":%d,"v":"value %d of the item","w":[1,2,3]}`, i, i)
		}
		body.WriteString(`]}`)
		app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(body.Bytes())
		})
		rs, err := NewRoutes([]Route{{Pattern: "GET /v1/items", Mask: itemsMask}, {Pattern: "GET /v1/users/{id}", Mask: itemsMask}})
		if err != nil {
			b.Fatal(err)
		}
		h := Handler(app, rs, WithObserver(func(Report) {}))
		req := httptest.NewRequest("GET", "/v1/items", nil)
		b.Run(fmt.Sprintf("size=%d/handler", size), func(b *testing.B) {
			b.SetBytes(int64(body.Len()))
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(discardWriter{h: http.Header{}}, req)
			}
		})
		b.Run(fmt.Sprintf("size=%d/copy", size), func(b *testing.B) {
			b.SetBytes(int64(body.Len()))
			b.ReportAllocs()
			r := bytes.NewReader(body.Bytes())
			for b.Loop() {
				r.Reset(body.Bytes())
				itemsMask.Copy(discardWriter{}, r)
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (d discardWriter) Header() http.Header         { return d.h }
func (d discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d discardWriter) WriteHeader(int)             {}
