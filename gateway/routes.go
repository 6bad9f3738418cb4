package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/jsonmask/jsonmask"
)

// Route says which responses a mask applies to (SPEC G1).
type Route struct {
	// Pattern is a request pattern in the syntax of net/http's ServeMux:
	// "[METHOD ][HOST]/path/{name}/{rest...}". "GET /v1/items" also
	// matches HEAD requests, as in ServeMux.
	Pattern string
	// Mask masks the response bodies; its options (WithArrays, WithStrict,
	// ...) apply. The gateway's Limits replace its size and depth limits.
	Mask *jsonmask.Mask
	// Statuses are the response statuses whose bodies are masked; nil or
	// empty means every 2xx. A response with another status passes through
	// untouched, except a 206, which is refused on every masked route.
	Statuses []int
}

// Treatment is what a masked route does with a response (SPEC G2, G4, G5).
type Treatment uint8

// The treatments of a response on a masked route.
const (
	// Pass: the response goes untouched (204, or a status not listed).
	Pass Treatment = iota
	// FixHeader: the response has no body, but its header must say what
	// a masked one would (HEAD with a listed status, 304):
	// FixResponseHeader.
	FixHeader
	// Mask: the body goes through a Body, and the header through
	// FixResponseHeader.
	Mask
	// Refuse: the response is refused with a 502 (a 206, a 101).
	Refuse
)

// Treat says what the route does with a response of this status to a
// request with this method: the decision Handler makes, for plug-ins that
// see responses their own way. For Refuse it also returns the reason. An
// informational status other than 101 is not a response: forward it.
func (rt *Route) Treat(method string, status int) (Treatment, error) {
	switch {
	case status == http.StatusPartialContent:
		return Refuse, &Error{Offset: -1, msg: "206 Partial Content on a masked route", err: ErrPartial}
	case status == http.StatusSwitchingProtocols:
		return Refuse, &Error{Offset: -1, msg: "101 Switching Protocols on a masked route", err: ErrUpstream}
	case status == http.StatusNotModified || method == http.MethodHead && rt.masks(status):
		return FixHeader, nil
	case status == http.StatusNoContent || status < 200 || method == http.MethodHead || !rt.masks(status):
		return Pass, nil
	}
	return Mask, nil
}

// masks reports whether a response with status is listed for masking.
func (rt *Route) masks(status int) bool {
	if len(rt.Statuses) == 0 {
		return status >= 200 && status <= 299
	}
	for _, s := range rt.Statuses {
		if s == status {
			return true
		}
	}
	return false
}

// Routes are compiled routes: which request goes to which mask. The most
// specific pattern wins, as in ServeMux (SPEC G1). Routes are immutable and
// safe for concurrent use.
type Routes struct {
	mux           *http.ServeMux
	routes        []Route
	caseSensitive bool
}

// A RoutesOption changes how NewRoutes matches.
type RoutesOption func(*Routes)

// CaseSensitivePaths, when on, compares the letters of paths with their
// case. Default: off; "/V1/Items" matches the pattern "/v1/items" (SPEC G8),
// since many upstreams serve both.
func CaseSensitivePaths(on bool) RoutesOption {
	return func(rs *Routes) { rs.caseSensitive = on }
}

// routeIndex is what the mux holds for a route: its index in Routes.routes.
type routeIndex int

func (routeIndex) ServeHTTP(http.ResponseWriter, *http.Request) {}

// NewRoutes compiles routes. A pattern that ServeMux rejects, a route
// without a mask, a status outside 100-599, or two patterns that conflict
// (ServeMux would panic) is an error that names the route.
func NewRoutes(routes []Route, opts ...RoutesOption) (*Routes, error) {
	rs, err := newRoutes(routes, opts...)
	if err != nil {
		return nil, fmt.Errorf("jsonmask: gateway: %w", err)
	}
	return rs, nil
}

// newRoutes is NewRoutes, with errors that begin with the route, for
// Config.CompileRoutes to say them in the config's terms.
func newRoutes(routes []Route, opts ...RoutesOption) (*Routes, error) {
	rs := &Routes{mux: http.NewServeMux(), routes: append([]Route(nil), routes...)}
	for _, o := range opts {
		o(rs)
	}
	for i, rt := range rs.routes {
		if rt.Mask == nil {
			return nil, fmt.Errorf("route %d (%q) has no mask", i, rt.Pattern)
		}
		for _, s := range rt.Statuses {
			if s < 100 || s > 599 {
				return nil, fmt.Errorf("route %d (%q): status %d is not an HTTP status", i, rt.Pattern, s)
			}
		}
		if err := rs.handle(rs.matchPattern(rt.Pattern), routeIndex(i)); err != nil {
			return nil, fmt.Errorf("route %d: %v", i, err)
		}
	}
	return rs, nil
}

// handle registers a pattern, turning ServeMux's panic on a bad or
// conflicting pattern into an error.
func (rs *Routes) handle(pattern string, h http.Handler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			// ServeMux says where each pattern was registered, on two
			// lines: keep the one line that says what is wrong.
			msg := fmt.Sprint(p)
			msg, _, _ = strings.Cut(msg, ":\n")
			err = errors.New(registeredAt.ReplaceAllString(msg, ""))
		}
	}()
	rs.mux.Handle(pattern, h)
	return nil
}

var registeredAt = regexp.MustCompile(` \(registered at [^)]*\)`)

// matchPattern is a pattern as requests are matched against it: host in
// lower case, and the path too unless paths are case-sensitive; a trailing
// slash stays, since it means "this subtree" to ServeMux.
func (rs *Routes) matchPattern(p string) string {
	method, rest, ok := strings.Cut(p, " ")
	if !ok {
		method, rest = "", p
	}
	rest = strings.TrimLeft(rest, " \t")
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	b := []byte(host)
	lowerASCII(b)
	if !rs.caseSensitive {
		pb := []byte(path)
		lowerASCII(pb)
		path = string(pb)
	}
	if method != "" {
		return method + " " + string(b) + path
	}
	return string(b) + path
}

// A Decision is what Routes.Match found for a request.
type Decision struct {
	// Route is the route whose mask applies, nil when the request matches
	// no route: its response is proxied untouched.
	Route *Route
	// Path is the clean escaped path (SPEC G8) that the upstream should
	// receive, its case kept: Match has already set it in the request's URL.
	Path string
}

// Match finds the route of r, on the canonical form of its path (SPEC G8),
// and sets r.URL's path to the clean path, which the upstream then
// receives. A path that must be refused gives an error that wraps
// ErrBadPath; r is then unchanged.
func (rs *Routes) Match(r *http.Request) (Decision, error) {
	d, err := rs.MatchPath(r.Method, r.Host, r.URL.EscapedPath())
	if err != nil {
		return Decision{}, err
	}
	if d.Path != r.URL.EscapedPath() {
		p, err := url.PathUnescape(d.Path)
		if err != nil { // cleanPath left only well-formed escapes
			return Decision{}, &pathError{"bad percent-encoding", 0}
		}
		r.URL.Path, r.URL.RawPath = p, d.Path
		if p == d.Path {
			r.URL.RawPath = ""
		}
	}
	return d, nil
}

// MatchPath is Match for plug-ins that see a request as its parts, not as
// an *http.Request (an Envoy ext_proc server gets ":method", ":authority"
// and ":path"): escapedPath is the request's path as sent, without its
// query, and Decision.Path the clean path for the upstream. A path that
// must be refused gives an error that wraps ErrBadPath.
func (rs *Routes) MatchPath(method, host, escapedPath string) (Decision, error) {
	clean, err := cleanPath(escapedPath)
	if err != nil {
		return Decision{}, err
	}
	return Decision{Route: rs.lookup(method, host, clean), Path: clean}, nil
}

// lookup asks the mux for the route of a clean path, without its trailing
// slash first, then with one, so that "/v1/items/" matches "/v1/items" and
// "/v1/items" matches the subtree pattern "/v1/items/".
func (rs *Routes) lookup(method, host, clean string) *Route {
	if !strings.HasPrefix(clean, "/") {
		return nil
	}
	b := []byte(host)
	lowerASCII(b)
	p := matchPath(clean, rs.caseSensitive)
	for _, path := range []string{p, p + "/"} {
		if path == "//" {
			continue
		}
		u, err := url.Parse(path)
		if err != nil {
			return nil
		}
		h, _ := rs.mux.Handler(&http.Request{Method: method, Host: string(b), URL: u})
		if i, ok := h.(routeIndex); ok {
			return &rs.routes[i]
		}
	}
	return nil
}
