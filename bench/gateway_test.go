package bench

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/klauspost/compress/gzip"
)

// gatewayWorkload is the body of BenchmarkGateway: apache_builds.json
// (127 KB, a Jenkins API response) with its workload's mask.
func gatewayWorkload(tb testing.TB) ([]byte, *jsonmask.Mask) {
	ws, err := LoadWorkloads(testdataDir)
	if err != nil {
		tb.Fatal(err)
	}
	for _, w := range ws {
		if w.Name == "apache-builds/jobs" {
			doc, err := os.ReadFile(filepath.Join(testdataDir, w.File))
			if err != nil {
				tb.Fatal(err)
			}
			return doc, jsonmask.MustCompile(string(w.Mask))
		}
	}
	tb.Fatal("no workload apache-builds/jobs")
	return nil, nil
}

// gatewayUpstream serves doc, gzipped when the path ends in /gzip.
func gatewayUpstream(doc []byte) *httptest.Server {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	zw.Write(doc)
	zw.Close()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body := doc
		if filepath.Base(r.URL.Path) == "gzip" {
			w.Header().Set("Content-Encoding", "gzip")
			body = gz.Bytes()
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
}

// TestGatewayDesignsAgree: the buffering design and jsonmask's gateway
// send the same masked body, coded or not; plain and recode send it whole.
func TestGatewayDesignsAgree(t *testing.T) {
	doc, m := gatewayWorkload(t)
	up := gatewayUpstream(doc)
	defer up.Close()
	u, _ := url.Parse(up.URL)
	want, err := m.Append(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: benchTransport()}
	defer client.CloseIdleConnections()
	for _, design := range gatewayDesigns {
		srv := httptest.NewServer(NewGatewayProxy(design, u, m))
		for _, coding := range []string{"identity", "gzip"} {
			resp, err := client.Get(srv.URL + "/doc/" + coding)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.Header.Get("Content-Encoding") == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				body, _ = io.ReadAll(zr)
			} else if coding == "gzip" {
				t.Errorf("%s/%s: the coding was lost", design, coding)
			}
			w := want
			if design == "plain" || design == "recode" {
				w = doc
			}
			if !bytes.Equal(body, w) {
				t.Errorf("%s/%s: %d bytes, want %d", design, coding, len(body), len(w))
			}
		}
		srv.Close()
	}
}

// BenchmarkGateway measures requests per second through each proxy design
// (gatewayDesigns) on 127 KB JSON bodies, identity and gzip, with 16
// requests in flight: BenchmarkGateway/coding=gzip/impl=jsonmask. Compare
// the req/s of the designs within one run (benchstat -col /impl).
func BenchmarkGateway(b *testing.B) {
	doc, m := gatewayWorkload(b)
	up := gatewayUpstream(doc)
	defer up.Close()
	u, _ := url.Parse(up.URL)
	for _, coding := range []string{"identity", "gzip"} {
		b.Run("coding="+coding, func(b *testing.B) {
			for _, design := range gatewayDesigns {
				if design == "recode" && coding == "identity" {
					continue // nothing to recode
				}
				b.Run("impl="+design, func(b *testing.B) {
					srv := httptest.NewServer(NewGatewayProxy(design, u, m))
					defer srv.Close()
					client := &http.Client{Transport: benchTransport()}
					defer client.CloseIdleConnections()
					target := srv.URL + "/doc/" + coding
					// 16 requests in flight: RunParallel starts
					// parallelism × GOMAXPROCS goroutines.
					b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
					b.ReportAllocs()
					start, cpu := time.Now(), cpuTime()
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							resp, err := client.Get(target)
							if err != nil {
								b.Error(err)
								return
							}
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
						}
					})
					b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
					// The machine is shared: CPU time per request (client,
					// proxy and upstream together, all in this process) is
					// steadier than requests per second.
					b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/req")
				})
			}
		})
	}
}
