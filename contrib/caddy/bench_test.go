package jsonmaskcaddy

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// BenchmarkCaddy: requests through one real Caddy to a real upstream,
// with and without jsonmask in front of reverse_proxy, in one run, so
// that the ratio of the two is the handler's cost. The client reads the
// body as sent; the upstream serves it from memory, identity or gzip.
//
//	go test -run '^$' -bench Caddy -count 10 . | benchstat -col /handler -
func BenchmarkCaddy(b *testing.B) {
	ws := loadBenchWorkloads(b)
	up := upstream(b, func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(r.URL.Path, "/") // "", handler, i, coding
		i, _ := strconv.Atoi(parts[2])
		w.Header().Set("Content-Type", "application/json")
		if parts[3] == "gzip" {
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Write(ws[i].coded[parts[3]])
	})
	var routes []string
	for i, w := range ws {
		routes = append(routes, fmt.Sprintf(`{"match": "/jsonmask/%d/", "mask": %s}`, i, w.Mask))
	}
	port := freePort(b)
	runCaddy(b, caddyConfig(b, port, fmt.Sprintf(`[
		{"match": [{"path": ["/none/*"]}], "handle": [{"handler": "reverse_proxy", "upstreams": [{"dial": %q}]}]},
		{"handle": [{"handler": "jsonmask", "routes": [%s]}, {"handler": "reverse_proxy", "upstreams": [{"dial": %[1]q}]}]}]`,
		up, strings.Join(routes, ","))))
	c := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
	b.Cleanup(c.CloseIdleConnections)
	for i, w := range ws {
		for _, coding := range []string{"identity", "gzip"} {
			for _, handler := range []string{"none", "jsonmask"} {
				b.Run(fmt.Sprintf("workload=%s/coding=%s/handler=%s", w.Name, coding, handler), func(b *testing.B) {
					url := fmt.Sprintf("http://127.0.0.1:%d/%s/%d/%s", port, handler, i, coding)
					req, _ := http.NewRequest("GET", url, nil)
					req.Header.Set("Accept-Encoding", "gzip")
					b.SetBytes(int64(len(w.doc)))
					b.ReportAllocs()
					for b.Loop() {
						resp, err := c.Do(req)
						if err != nil {
							b.Fatal(err)
						}
						_, err = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if err != nil || resp.StatusCode != 200 {
							b.Fatal(resp.Status, err)
						}
					}
				})
			}
		}
	}
}

type benchWorkload struct {
	corpus.Workload
	doc   []byte
	coded map[string][]byte
}

// loadBenchWorkloads are three workloads of the corpus, small to large.
func loadBenchWorkloads(b *testing.B) []benchWorkload {
	var ws []benchWorkload
	for _, w := range corpus.Workloads(b) {
		switch w.Name {
		case "google-maps/rows", "twitter/decision-fields", "citm/performances":
		default:
			continue
		}
		doc := corpus.File(b, w.File)
		ws = append(ws, benchWorkload{Workload: w, doc: doc,
			coded: map[string][]byte{"identity": doc, "gzip": codingtest.Encode(b, "gzip", doc)}})
	}
	return ws
}
