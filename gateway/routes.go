package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
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
	// SSEPassthrough are the data payloads of an event stream that a
	// strict Mask lets through (SSEPassthrough); nil means
	// DefaultSSEPassthrough, an empty list none.
	SSEPassthrough []string
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
	methods       []string // the methods that patterns name, GET first
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
		return nil, errs.Errorf("gateway: %w", err)
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
		pattern, method := rs.matchPattern(rt.Pattern)
		if err := rs.handle(pattern, i); err != nil {
			return nil, fmt.Errorf("route %d (%q): %v", i, rt.Pattern, err)
		}
		if method != "" && !slices.Contains(rs.methods, method) {
			rs.methods = append(rs.methods, method)
		}
	}
	slices.SortFunc(rs.methods, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == http.MethodGet:
			return -1
		case b == http.MethodGet:
			return 1
		}
		return strings.Compare(a, b)
	})
	return rs, nil
}

// handle registers a pattern, turning ServeMux's panic on a bad or
// conflicting pattern into an error that names the other route.
func (rs *Routes) handle(pattern string, i int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			// ServeMux says where each pattern was registered, on two
			// lines: keep the one line that says what is wrong, and name
			// the route that it conflicts with instead of the line of
			// this file that registered it.
			if j := rs.conflict(pattern, i); j >= 0 {
				err = fmt.Errorf("conflicts with route %d (%q): neither is more specific", j, rs.routes[j].Pattern)
				return
			}
			msg := fmt.Sprint(p)
			msg, _, _ = strings.Cut(msg, ":\n")
			err = errors.New(registeredAt.ReplaceAllString(msg, ""))
		}
	}()
	rs.mux.Handle(pattern, routeIndex(i))
	return nil
}

var registeredAt = regexp.MustCompile(` \(registered at [^)]*\)`)

// conflict returns the index of a route registered before route n whose
// pattern conflicts with pattern, or -1: the one that ServeMux refused it
// for.
func (rs *Routes) conflict(pattern string, n int) int {
	if !registers(http.NewServeMux(), pattern) {
		return -1 // the pattern itself is bad
	}
	for i, rt := range rs.routes[:n] {
		other, _ := rs.matchPattern(rt.Pattern)
		if other == pattern {
			return i
		}
		probe := http.NewServeMux()
		probe.Handle(other, routeIndex(i))
		if !registers(probe, pattern) {
			return i
		}
	}
	return -1
}

// registers reports whether mux takes pattern without a panic.
func registers(mux *http.ServeMux, pattern string) (ok bool) {
	defer func() { ok = recover() == nil }()
	mux.Handle(pattern, routeIndex(-1))
	return true
}

// matchPattern is a pattern as requests are matched against it, and its
// method: method in upper case (SPEC G8), host in lower case without a
// trailing dot, and the path in lower case too unless paths are
// case-sensitive; a trailing slash stays, since it means "this subtree" to
// ServeMux.
func (rs *Routes) matchPattern(p string) (pattern, method string) {
	method, rest, ok := strings.Cut(p, " ")
	if !ok {
		method, rest = "", p
	}
	method = strings.ToUpper(method)
	rest = strings.TrimLeft(rest, " \t")
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	host = canonicalHost(host)
	if !rs.caseSensitive {
		pb := []byte(path)
		lowerASCII(pb)
		path = string(pb)
	}
	if method != "" {
		return method + " " + host + path, method
	}
	return host + path, ""
}

// canonicalHost is a host as routes compare it (SPEC G8): in lower case,
// without the trailing dot of a fully qualified name; a port stays.
func canonicalHost(host string) string {
	if isCanonicalHost(host) {
		return host
	}
	return canonicalHostSlow(host)
}

// canonicalHostSlow is canonicalHost for a host that must change.
func canonicalHostSlow(host string) string {
	b := []byte(host)
	lowerASCII(b)
	h, port := b, []byte(nil)
	if i := bytes.LastIndexByte(b, ':'); i >= 0 && bytes.IndexByte(b, ']') < i {
		h, port = b[:i], b[i:]
	}
	h = bytes.TrimSuffix(h, []byte("."))
	return string(h) + string(port)
}

// isCanonicalHost reports whether canonicalHost would return host as it
// is: no upper-case letter and no dot before the port or the end.
func isCanonicalHost(host string) bool {
	for i := 0; i < len(host); i++ {
		switch c := host[i]; {
		case 'A' <= c && c <= 'Z':
			return false
		case c == '.' && (i+1 == len(host) || host[i+1] == ':'):
			return false
		}
	}
	return true
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
// receives. A request that must be refused gives an error that wraps
// ErrBadPath; r is then unchanged.
func (rs *Routes) Match(r *http.Request) (Decision, error) {
	target := r.URL.EscapedPath()
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	if r.URL.Path == "" && r.URL.RawPath == "" && r.Method != http.MethodConnect {
		target = r.RequestURI // "*", an authority form
	}
	d, err := rs.MatchPath(r.Method, r.Host, target, r.Header)
	if err != nil {
		return Decision{}, err
	}
	if d.Path != r.URL.EscapedPath() && strings.HasPrefix(d.Path, "/") {
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
// and ":path"): target is the request's path as sent, with its query if
// any, and h its header (nil if none); Decision.Path is the clean path for
// the upstream, without the query. A request that must be refused gives an
// error that wraps ErrBadPath (answer 400):
//
//   - a path that cleanPath refuses (an encoded slash, backslash, NUL or
//     percent sign, bad percent-encoding), or one with non-ASCII bytes
//     when paths compare without case ("ſ" folds to "s" in some
//     frameworks);
//   - CONNECT, and a target that is not a path ("*" aside);
//   - a request that a framework could route under another method (a
//     "_method" query parameter, or a POST with a form body, where Rack
//     and Laravel read "_method"), when the routes of its path differ by
//     method;
//   - a path that some frameworks would read without its format suffix
//     ("/v1/items.json" as "/v1/items"), when the two name other routes.
//
// Methods compare in upper case. On a path that a route covers, a request
// under a method that no route of the path names is masked by the route
// of the first method that does (GET first): a lenient upstream may serve
// it as that method (SPEC G8).
func (rs *Routes) MatchPath(method, host, target string, h http.Header) (Decision, error) {
	escapedPath, query, _ := strings.Cut(target, "?")
	if method == http.MethodConnect {
		return Decision{}, &pathError{"CONNECT, which the gateway does not proxy,", -1}
	}
	clean, err := cleanPath(escapedPath)
	if err != nil {
		return Decision{}, err
	}
	if !strings.HasPrefix(clean, "/") {
		if clean == "*" {
			return Decision{Path: clean}, nil
		}
		return Decision{}, &pathError{"a target that is not a path", 0}
	}
	if !rs.caseSensitive {
		if i := nonASCII(clean); i >= 0 {
			return Decision{}, &pathError{"a non-ASCII character, where paths compare without case,", i}
		}
	}
	rt, err := rs.lookup(strings.ToUpper(method), canonicalHost(host), clean, query, h)
	if err != nil {
		return Decision{}, err
	}
	return Decision{Route: rt, Path: clean}, nil
}

// lookup finds the route of a clean path: under the request's method, and
// under the methods it could be overridden to (SPEC G8); and the path as
// it is and without its format suffix.
func (rs *Routes) lookup(method, host, clean, query string, h http.Header) (*Route, error) {
	p := matchPath(clean, rs.caseSensitive)
	rt := rs.find(method, host, p)
	if base, ok := stripFormat(p); ok {
		if other := rs.find(method, host, base); other != nil {
			if rt != nil && other != rt {
				return nil, &pathError{"a format suffix, with and without which the path has other routes,", -1}
			}
			rt = other
		}
	}
	if rt == nil || len(rs.methods) == 0 {
		return rt, nil
	}
	// Overrides: the upstream may route the request under another method.
	var others []string
	if vals, ok := methodParams(query); !ok {
		return nil, &pathError{"a query that cannot be read for its \"_method\" parameter", -1}
	} else {
		others = append(others, vals...)
	}
	if method == http.MethodPost && isForm(h) {
		others = append(others, rs.methods...)
	}
	for _, m := range others {
		if o := rs.find(strings.ToUpper(m), host, p); o != nil && o != rt {
			return nil, &pathError{"a method override (\"_method\" or a form body), where the routes of the path differ by method,", -1}
		}
	}
	return rt, nil
}

// find is the route of a match path under a method: its own, else, on a
// path that routes of other methods cover, the first of those (GET first),
// so that no method gets an unmasked response there.
func (rs *Routes) find(method, host, p string) *Route {
	if rt := rs.mux1(method, host, p); rt != nil {
		return rt
	}
	for _, m := range rs.methods {
		if m == method {
			continue
		}
		if rt := rs.mux1(m, host, p); rt != nil {
			return rt
		}
	}
	return nil
}

// mux1 asks the mux for the route of a match path, without its trailing
// slash first, then with one, so that "/v1/items/" matches "/v1/items" and
// "/v1/items" matches the subtree pattern "/v1/items/".
func (rs *Routes) mux1(method, host, p string) *Route {
	if rt := rs.mux2(method, host, p); rt != nil || p == "/" {
		return rt
	}
	return rs.mux2(method, host, p+"/")
}

// mux2 asks the mux for the route of one path.
func (rs *Routes) mux2(method, host, path string) *Route {
	u := &url.URL{Path: path}
	if !plainPath(path) {
		var err error
		if u, err = url.Parse(path); err != nil {
			return nil
		}
	}
	h, _ := rs.mux.Handler(&http.Request{Method: method, Host: host, URL: u})
	if i, ok := h.(routeIndex); ok {
		return &rs.routes[i]
	}
	return nil
}

// plainPath reports whether url.Parse would read path as a URL whose Path
// is path and whose RawPath is empty: letters, digits and the bytes that
// net/url leaves unescaped in a path ("-._~$&+,/:;=@"), and not "//" first
// (an authority). FuzzPlainPath checks it.
func plainPath(path string) bool {
	if strings.HasPrefix(path, "//") {
		return false
	}
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~$&+,/:;=@", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// stripFormat returns p without the format suffix of its last segment
// ("/v1/items.json" -> "/v1/items", from the segment's first dot, as Rails
// and Spring's suffix matching read it), and whether it had one.
func stripFormat(p string) (string, bool) {
	slash := strings.LastIndexByte(p, '/')
	dot := strings.IndexByte(p[slash+1:], '.')
	if dot <= 0 {
		return p, false
	}
	return p[:slash+1+dot], true
}

// methodParams returns the values of the query's "_method" parameters, and
// false if the query cannot be read.
func methodParams(query string) ([]string, bool) {
	if !strings.Contains(query, "_") && !strings.Contains(query, "%") {
		return nil, true
	}
	v, err := url.ParseQuery(query)
	if err != nil {
		return nil, false
	}
	var out []string
	for k, vals := range v {
		if strings.EqualFold(strings.TrimSpace(k), "_method") {
			out = append(out, vals...)
		}
	}
	return out, true
}

// isForm reports whether h says the body is a form, whose "_method" field
// some frameworks take for the method.
func isForm(h http.Header) bool {
	if h == nil {
		return false
	}
	for _, v := range h.Values("Content-Type") {
		mt, _, _ := strings.Cut(v, ";")
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "application/x-www-form-urlencoded", "multipart/form-data":
			return true
		}
	}
	return false
}
