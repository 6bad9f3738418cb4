package gateway

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// itemsOfSize is an object of about n bytes whose dropped values all hold
// the canary: {"id":7,"items":[{"k":0,"v":"<canary>..."}, ...]}.
func itemsOfSize(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"id":7,"items":[`)
	for i := 0; b.Len() < n-60; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"k":%d,"v":"%s %d"}`, i, canary, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// rawUpstream answers every request with a raw HTTP/1.1 response: the
// header it is given (with a Content-Length of declared, or none when
// declared is -1), then body, then it closes the connection. It can lie
// about the length as no net/http server would.
func rawUpstream(t *testing.T, declared int, body []byte) *url.URL {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
					return
				}
				h := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
				if declared >= 0 {
					h += fmt.Sprintf("Content-Length: %d\r\n", declared)
				}
				c.Write([]byte(h + "\r\n"))
				c.Write(body)
			}()
		}
	}()
	return &url.URL{Scheme: "http", Host: ln.Addr().String()}
}

// TestBodyLengths: bodies small and large, whole or with an upstream that
// lies about their length, through the reverse proxy: a body sent whole
// is masked as Append masks it, with a Content-Length that is the masked
// body's or none; one cut short by its Content-Length, or shorter than
// it, is refused or aborted; the canary never reaches the client (SPEC
// G4, G5). The sizes go from one that fits net/http's buffer (which then
// sends a Content-Length) to ones past the masker's 32 KiB window, whose
// output goes out window by window.
func TestBodyLengths(t *testing.T) {
	mask := jsonmask.MustCompile(`{"id":true,"items":{"k":true}}`)
	for _, size := range []int{300, 1 << 10, 2 << 10, 31 << 10, 33 << 10, 100 << 10, 400 << 10} {
		body := itemsOfSize(size)
		want, err := mask.Append(nil, body)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name     string
			declared int // -1: none, the body ends with the connection
			ok       bool
		}{
			{"Exact", len(body), true},
			{"NoLength", -1, true},
			{"DeclaredShorter", len(body) / 2, false}, // the transport reads half: invalid JSON
			{"DeclaredShorterByOne", len(body) - 1, false},
			{"DeclaredLonger", len(body) + 100, false}, // the body ends early: cut short
		} {
			t.Run(fmt.Sprintf("%s/%d", c.name, size), func(t *testing.T) {
				rs, err := NewRoutes([]Route{{Pattern: "/", Mask: mask}})
				if err != nil {
					t.Fatal(err)
				}
				reports := make(chan Report, 1)
				proxy := NewReverseProxy(rawUpstream(t, c.declared, body), rs, WithObserver(func(r Report) { reports <- r }))
				s := httptest.NewUnstartedServer(proxy)
				s.Config.ErrorLog = quietLog()
				s.Start()
				defer s.Close()
				client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
				defer client.CloseIdleConnections()
				resp, got, err := getBody(t, client, s.URL+"/v1/items")
				if err == nil {
					noCanary(t, resp.Header, []byte(got))
				}
				if strings.Contains(got, canary) {
					t.Fatalf("the canary reached the client")
				}
				if !c.ok {
					if err == nil && resp.StatusCode == http.StatusOK {
						t.Fatalf("a body of the wrong length was served whole: %d bytes, Content-Length %d", len(got), resp.ContentLength)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != http.StatusOK || got != string(want) {
					t.Fatalf("status %d, %d bytes, want %d: %.100q", resp.StatusCode, len(got), len(want), got)
				}
				checkG4(t, resp, []byte(got))
				rep := <-reports
				if rep.Outcome != OutcomeMasked || rep.BytesOut != int64(len(want)) {
					t.Errorf("report %+v", rep)
				}
			})
		}
	}
}
