package studio

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"strings"
)

//go:embed assets
var assets embed.FS

// Listen listens on addr ("" is 127.0.0.1 on a free port), which must be a
// loopback address (SPEC W5): 127.0.0.1 and the rest of 127.0.0.0/8, ::1,
// or localhost (127.0.0.1). Every other address is refused, all interfaces
// (":8080", "0.0.0.0") and host names included: a name is resolved by
// whoever controls it.
func Listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("studio: listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("studio: listen address %q is not a loopback address: the studio listens on 127.0.0.1 or ::1 only", addr)
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// Handler returns the studio's handler for a server listening on addr (as
// its listener's Addr().String() gives it: "127.0.0.1:PORT"). It answers
// only requests whose Host is that address (or localhost with its port),
// and whose Origin, when there is one, is its own page; the rest are
// refused with 403 (SPEC W5). A page that another site serves cannot read
// the studio (DNS rebinding gives it a Host of its own name; a cross-site
// request carries its Origin), and the studio reads no file after New.
func (s *Studio) Handler(addr string) http.Handler {
	hosts := map[string]bool{addr: true}
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
			hosts[net.JoinHostPort("localhost", port)] = true
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveAsset("assets/index.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /app.js", s.serveAsset("assets/app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /app.css", s.serveAsset("assets/app.css", "text/css; charset=utf-8"))
	mux.HandleFunc("POST /api/view", s.serveView)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "+
			"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if why := refuse(r, hosts); why != "" {
			http.Error(w, "jsonmask studio: "+why, http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// refuse says why r is refused, or "" when it is the studio's own page
// asking its own server.
func refuse(r *http.Request, hosts map[string]bool) string {
	if !hosts[r.Host] {
		return "the Host is not this server's address"
	}
	if o := r.Header.Get("Origin"); o != "" {
		host, ok := strings.CutPrefix(o, "http://")
		if !ok || !hosts[host] {
			return "the request comes from another site"
		}
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return "the request comes from another site"
	}
	return ""
}

func (s *Studio) serveAsset(name, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := assets.ReadFile(name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Write(b)
	}
}

// maxRequest bounds what the page may send: a mask and a list of paths.
const maxRequest = 1 << 20

// serveView answers the page's one question: POST /api/view, a viewRequest
// as JSON, answered by a view as JSON, or by {"error": ...} with 400 when
// the request is wrong (a mask that does not compile) and 500 when a sample
// cannot be masked.
func (s *Studio) serveView(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]string{"error": "the request must be application/json"})
		return
	}
	var req viewRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRequest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "the request: " + err.Error()})
		return
	}
	v, err := s.view(&req)
	switch {
	case errors.Is(err, errBadRequest):
		msg := strings.TrimPrefix(err.Error(), errBadRequest.Error()+": ")
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": msg})
	case err != nil:
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
