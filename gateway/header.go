package gateway

import (
	"net/http"
	"strconv"
	"strings"
)

// FixResponseHeader removes from h, the header of a response on a masked
// route, what masking makes false (SPEC G4): the length, digests and
// checksums of the body, and Accept-Ranges, since ranges of the masked body
// cannot be served; it weakens a strong ETag (W/), since the masked body is
// equivalent to the upstream's, not byte for byte the same. Vary, the
// coding and trailers stay. Handler applies it to every masked response
// and to the HEAD and 304 responses of masked routes; a plug-in calls it on
// the response headers before it sends them.
func FixResponseHeader(h http.Header) {
	for _, k := range bodyHeaders {
		h.Del(k)
	}
	h.Del("Accept-Ranges")
	if et := h.Get("Etag"); et != "" && !strings.HasPrefix(et, "W/") {
		h.Set("Etag", "W/"+et)
	}
}

// bodyHeaders describe the bytes of the upstream's body: false once it is
// masked, as headers and as trailers.
var bodyHeaders = []string{"Content-Length", "Content-Md5", "Digest", "Repr-Digest", "Content-Digest"}

// methodOverrides are the headers with which some frameworks let a client
// change the method a request is routed by (SPEC G8).
var methodOverrides = []string{"X-Http-Method-Override", "X-Http-Method", "X-Method-Override"}

// urlOverrides are the headers with which some servers (IIS, Symfony,
// Zend) let a client change the path a request is routed by (SPEC G8).
var urlOverrides = []string{"X-Original-Url", "X-Rewrite-Url"}

// FixRequestHeader prepares the header of a request before it goes
// upstream (SPEC G3, G4, G8). On every request it removes the
// method-override and URL-override headers (X-HTTP-Method-Override,
// X-Original-URL, ...), with which a lenient upstream would serve a
// masked route to a request that matched another one. On a masked route
// (masked true) it also removes Range and If-Range (a range of the body
// cannot be masked), Upgrade (a switched protocol would carry the
// upstream's bytes unmasked), and limits Accept-Encoding to the codings
// that the client accepts and the gateway can decode and encode again
// (identity when there are none).
func FixRequestHeader(h http.Header, masked bool) {
	for _, k := range methodOverrides {
		h.Del(k)
	}
	for _, k := range urlOverrides {
		h.Del(k)
	}
	if !masked {
		return
	}
	h.Del("Range")
	h.Del("If-Range")
	if h.Get("Upgrade") != "" {
		h.Del("Upgrade")
		h.Del("Connection")
	}
	h.Set("Accept-Encoding", upstreamEncoding(h.Values("Accept-Encoding")))
}

// upstreamEncoding is the Accept-Encoding for upstream: the codings of
// the client's Accept-Encoding (RFC 9110 12.5.3) that the gateway decodes,
// in its order of preference. A coding with q=0 is refused; "*" accepts
// every coding not named.
func upstreamEncoding(accept []string) string {
	q := map[string]bool{} // coding -> accepted
	star, starSeen := false, false
	for _, v := range accept {
		for part := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(part, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			ok := true
			for p := range strings.SplitSeq(params, ";") {
				k, val, _ := strings.Cut(p, "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
					ok = err == nil && f > 0
				}
			}
			if name == "*" {
				star, starSeen = ok, true
				continue
			}
			if name == "x-gzip" {
				name = "gzip"
			}
			q[name] = ok
		}
	}
	var out []string
	for _, c := range []string{"gzip", "zstd", "deflate"} {
		ok, named := q[c]
		if named && ok || !named && starSeen && star {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return "identity"
	}
	return strings.Join(out, ", ")
}
