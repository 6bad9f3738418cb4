package gateway

import (
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

// NewReverseProxy returns a reverse proxy to upstream that masks the
// responses of the routes' requests: Handler around an
// httputil.ReverseProxy. The proxy sets X-Forwarded-For, -Host and -Proto,
// streams bodies as they come (it flushes at once for event streams and
// bodies of unknown length, as httputil.ReverseProxy does) through pooled
// 32 KiB buffers, and answers a failed upstream with a 502 problem
// document. Its transport waits
// Limits.ResponseHeaderTimeout for the upstream's header, keeps
// Limits.MaxIdleConnsPerHost idle connections to it, and never decodes
// bodies itself (WithTransport replaces it).
func NewReverseProxy(upstream *url.URL, routes *Routes, opts ...Option) http.Handler {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	t := c.transport
	if t == nil {
		lim := c.limits.resolved()
		dt := http.DefaultTransport.(*http.Transport).Clone()
		dt.ResponseHeaderTimeout = lim.ResponseHeaderTimeout
		dt.DisableCompression = true
		// Idle connections for the concurrency served: with net/http's 2,
		// 16 clients at once made a TCP connection for most requests.
		dt.MaxIdleConnsPerHost = lim.MaxIdleConnsPerHost
		dt.MaxIdleConns = max(dt.MaxIdleConns, lim.MaxIdleConnsPerHost)
		t = dt
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(upstream)
			pr.SetXForwarded()
		},
		Transport: t,
		// The copy buffer of each response from a pool, not 32 KiB made
		// per request: at small bodies the allocation, and the garbage
		// collections it brings, cost more than the copy.
		BufferPool: proxyBuffers{},
		// Failures reach the client as 502s and the observer as outcomes:
		// nothing for a log of the proxy's own.
		ErrorLog: log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// The report (and the log) gets the reason; the client, who
			// has no use for the upstream's address, a plain 502.
			if f, ok := w.(upstreamFailer); ok {
				// A transport's message may quote the upstream's bytes
				// ("malformed HTTP response \"...\""): cut there.
				why, _, _ := strings.Cut(err.Error(), "\"")
				f.upstreamFailed(&Error{Offset: -1, msg: "the upstream did not answer: " + strings.TrimSpace(why), err: ErrUpstream})
			}
			writeProblem(w, http.StatusBadGateway, &Error{Offset: -1, msg: "the upstream did not answer", err: ErrUpstream})
		},
	}
	return Handler(rp, routes, opts...)
}

// proxyBuffers is the reverse proxy's httputil.BufferPool: copyBufs, the
// decoders' 32 KiB buffers.
type proxyBuffers struct{}

func (proxyBuffers) Get() []byte { return *copyBufs.Get().(*[]byte) }

func (proxyBuffers) Put(b []byte) {
	if cap(b) == 32<<10 {
		b = b[:cap(b)]
		copyBufs.Put(&b)
	}
}
