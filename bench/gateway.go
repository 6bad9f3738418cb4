package bench

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/klauspost/compress/gzip"
)

// The proxies that BenchmarkGateway compares, all on
// httputil.ReverseProxy to the same upstream:
//
//	plain      forwards bytes; the ceiling
//	recode     decodes a gzip body and encodes it again, masking nothing:
//	           what any proxy that touches a coded body pays
//	buffering  the design of the gateways that filter JSON today: read
//	           the whole body, decode it, mask it, encode it, send it
//	jsonmask   gateway.NewReverseProxy: streaming, decode-mask-encode
var gatewayDesigns = []string{"plain", "recode", "buffering", "jsonmask"}

// NewGatewayProxy returns the proxy of a design to upstream, masking with m
// on every route where the design masks.
func NewGatewayProxy(design string, upstream *url.URL, m *jsonmask.Mask) http.Handler {
	rp := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(upstream) },
		Transport: benchTransport(),
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	switch design {
	case "recode":
		rp.ModifyResponse = recode
	case "buffering":
		rp.ModifyResponse = func(resp *http.Response) error { return buffer(resp, m) }
	case "jsonmask":
		routes, err := gateway.NewRoutes([]gateway.Route{{Pattern: "/", Mask: m}})
		if err != nil {
			panic(err)
		}
		return gateway.NewReverseProxy(upstream, routes, gateway.WithTransport(benchTransport()))
	}
	return rp
}

func benchTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DisableCompression = true
	t.MaxIdleConnsPerHost = 256
	return t
}

var (
	gzipWriters sync.Pool
	gzipReaders sync.Pool
)

func getGzipWriter(w io.Writer) *gzip.Writer {
	if z, ok := gzipWriters.Get().(*gzip.Writer); ok {
		z.Reset(w)
		return z
	}
	z, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	return z
}

func getGzipReader(r io.Reader) (*gzip.Reader, error) {
	if z, ok := gzipReaders.Get().(*gzip.Reader); ok {
		return z, z.Reset(r)
	}
	return gzip.NewReader(r)
}

// recode streams a gzip body through a decoder and an encoder (pooled, as
// the gateway's are), through a pipe.
func recode(resp *http.Response) error {
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return nil
	}
	src := resp.Body
	pr, pw := io.Pipe()
	go func() {
		zr, err := getGzipReader(src)
		if err == nil {
			zw := getGzipWriter(pw)
			_, err = io.Copy(zw, zr)
			if cerr := zw.Close(); err == nil {
				err = cerr
			}
			gzipWriters.Put(zw)
			gzipReaders.Put(zr)
		}
		src.Close()
		pw.CloseWithError(err)
	}()
	resp.Body = pr
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	return nil
}

// buffer is the buffering design: the whole body in memory, decoded,
// masked with Append, encoded again.
func buffer(resp *http.Response, m *jsonmask.Mask) error {
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	coded := resp.Header.Get("Content-Encoding") == "gzip"
	if coded {
		zr, err := getGzipReader(bytes.NewReader(body))
		if err != nil {
			return err
		}
		body, err = io.ReadAll(zr)
		gzipReaders.Put(zr)
		if err != nil {
			return err
		}
	}
	out, err := m.Append(nil, body)
	if err != nil {
		return err
	}
	if coded {
		var buf bytes.Buffer
		zw := getGzipWriter(&buf)
		zw.Write(out)
		zw.Close()
		gzipWriters.Put(zw)
		out = buf.Bytes()
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return nil
}
