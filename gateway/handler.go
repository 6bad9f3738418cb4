package gateway

import (
	"bufio"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
)

// An Option configures Handler and NewReverseProxy.
type Option func(*config)

type config struct {
	limits    Limits
	observe   func(Report)
	transport http.RoundTripper
}

// WithLimits sets the limits of every masked response (SPEC G6). Default:
// the zero Limits, which takes every default.
func WithLimits(l Limits) Option {
	return func(c *config) { c.limits = l }
}

// WithObserver calls observe once for every request, after its response
// ended, with what happened: the hook for metrics and logs (SPEC G9), so
// that this package depends on neither. observe runs on the request's
// goroutine and must be safe for concurrent use. Default: none.
func WithObserver(observe func(Report)) Option {
	return func(c *config) { c.observe = observe }
}

// WithTransport sets the reverse proxy's transport. Default: a clone of
// http.DefaultTransport with Limits.ResponseHeaderTimeout and
// DisableCompression (the gateway chooses the Accept-Encoding itself).
// Handler does not use it.
func WithTransport(t http.RoundTripper) Option {
	return func(c *config) { c.transport = t }
}

// Outcome is what became of a response (SPEC G9).
type Outcome string

// The outcomes of a request.
const (
	// OutcomeUnmatched: no route matched; the response went untouched.
	OutcomeUnmatched Outcome = "unmatched"
	// OutcomeUnmasked: a masked route whose response has no body to mask
	// (HEAD, 1xx, 204, 304) or a status not listed; headers per SPEC G4.
	OutcomeUnmasked Outcome = "unmasked"
	// OutcomeMasked: the body was masked, whole.
	OutcomeMasked Outcome = "masked"
	// OutcomeRefused: the body was refused before any byte reached the
	// client, who got a 502 problem document instead (SPEC G5).
	OutcomeRefused Outcome = "refused"
	// OutcomeAborted: the body failed after bytes reached the client, and
	// the response was aborted (SPEC G5).
	OutcomeAborted Outcome = "aborted"
	// OutcomeBadRequest: the request was refused with 400 (SPEC G8).
	OutcomeBadRequest Outcome = "bad_request"
	// OutcomeUpstreamError: the upstream could not be reached or did not
	// answer; the client got a 502 problem document (the reverse proxy).
	OutcomeUpstreamError Outcome = "upstream_error"
)

// LogAttrs are the attributes of the one log line of a request (SPEC G9),
// under the keys that `jsonmask serve`, jsonmask-extproc and the Caddy
// module all write: route, method, path, status, outcome, bytes_in,
// bytes_out, mask_ms, duration_ms, and error when there is one. They hold
// no body content and no dropped key: a report has none, and its error is
// redacted (jsonmask.Redact).
func (r Report) LogAttrs() []slog.Attr {
	attrs := []slog.Attr{
		slog.String("route", r.Route), slog.String("method", r.Method), slog.String("path", r.Path),
		slog.Int("status", r.Status), slog.String("outcome", string(r.Outcome)),
		slog.Int64("bytes_in", r.BytesIn), slog.Int64("bytes_out", r.BytesOut),
		slog.Float64("mask_ms", float64(r.MaskTime.Microseconds())/1000),
		slog.Float64("duration_ms", float64(r.Duration.Microseconds())/1000),
	}
	if r.Err != nil {
		attrs = append(attrs, slog.String("error", jsonmask.Redact(r.Err)))
	}
	return attrs
}

// Level is how much a request's outcome matters to an operator, for the
// level of its log line (SPEC G9): an upstream that fails (OutcomeUpstreamError,
// or a body cut short by it) is an error; a body refused or aborted by the
// gateway's rules a warning; everything else, a 400 for a client's request
// included, information.
func (r Report) Level() slog.Level {
	switch {
	case r.Outcome == OutcomeUpstreamError || errors.Is(r.Err, ErrUpstream):
		return slog.LevelError
	case r.Outcome == OutcomeRefused || r.Outcome == OutcomeAborted:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// Report is what happened to one request, for metrics and logs. It never
// holds body content.
type Report struct {
	Route    string // the route's pattern; "" when none matched
	Method   string
	Path     string  // the clean path, as sent upstream
	Status   int     // the status sent to the client
	Outcome  Outcome //
	BytesIn  int64   // body bytes the handler (the upstream) wrote and the gateway read, as coded
	BytesOut int64   // body bytes sent to the client, as coded (a problem document's too)
	MaskTime time.Duration
	Duration time.Duration
	Err      error // why the response was refused or aborted, or the upstream failed; else nil
}

// Handler returns a handler that masks what next writes (SPEC section 8);
// nil routes match nothing:
// it matches each request to a route on its canonical path (G1, G8),
// cleans the request's header (FixRequestHeader), and on a masked route
// decodes, masks and encodes the response body as next writes it (G2,
// G3), fixes its header (G4), and fails closed (G5): a body refused before
// any of it was sent becomes a 502 with an application/problem+json body;
// one that fails after bytes were sent is aborted with
// http.ErrAbortHandler, so that net/http closes the HTTP/1.1 connection
// before the final chunk, or resets the HTTP/2 stream. A request that
// matches no route reaches next with its path cleaned and its
// method-override headers removed, and its response is untouched. A
// path that must be refused gets a 400 problem document.
//
// The ResponseWriter that next gets on a masked route supports Flush (and
// FlushError) and Unwrap, for http.ResponseController; it refuses Hijack,
// which would let bytes past the mask.
func Handler(next http.Handler, routes *Routes, opts ...Option) http.Handler {
	h := newHandler(routes, opts)
	h.next = func(w http.ResponseWriter, r *http.Request) error {
		next.ServeHTTP(w, r)
		return nil
	}
	return h
}

func newHandler(routes *Routes, opts []Option) *handler {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	c.limits = c.limits.resolved()
	if routes == nil {
		routes, _ = NewRoutes(nil)
	}
	h := &handler{routes: routes, cfg: c, bodies: make(map[*Route]routeBody, len(routes.routes))}
	for i := range routes.routes {
		rt := &routes.routes[i]
		pass := DefaultSSEPassthrough
		if rt.SSEPassthrough != nil {
			pass = rt.SSEPassthrough
		}
		bm, err := newBodyMasks(rt.Mask, c.limits, pass)
		h.bodies[rt] = routeBody{bm, err}
	}
	return h
}

// routeBody is what a route's masked bodies are made with, made once: its
// masks with the handler's limits, or why they cannot be (every body of
// the route is then refused).
type routeBody struct {
	masks *bodyMasks
	err   error
}

// A NextFunc is the rest of a server's handler chain, in the form of
// servers whose handlers return an error (Caddy's caddyhttp.HandlerFunc).
type NextFunc func(http.ResponseWriter, *http.Request) error

// Middleware is Handler for servers that give each handler the next one
// and let it return an error, as Caddy does: the same routes, masking and
// failing closed, with errors left to the server where the gateway has
// nothing to mask. It is safe for concurrent use.
type Middleware struct {
	h *handler
}

// NewMiddleware returns a Middleware with the routes and options of
// Handler; nil routes match nothing.
func NewMiddleware(routes *Routes, opts ...Option) *Middleware {
	return &Middleware{h: newHandler(routes, opts)}
}

// ServeNext serves r as Handler does, masking what next writes, and
// returns next's error where the server can still answer it:
//
//   - next fails before it wrote a status: nothing was written, and
//     ServeNext returns the error for the server's own error handling
//     (an upstream that could not be reached has no body to mask);
//   - next fails after it wrote the status of a masked body: the body is
//     refused with a 502 or aborted, as an upstream body that breaks
//     (SPEC G5), and ServeNext returns nil, since the response is ended;
//   - next fails on a response that is not masked (no route, a status not
//     listed, HEAD or 304): the error is returned as it is, as if the
//     gateway were not there.
//
// The Report of a request whose error went back to the server has Status 0.
func (m *Middleware) ServeNext(w http.ResponseWriter, r *http.Request, next NextFunc) error {
	return m.h.serve(w, r, next)
}

type handler struct {
	next   NextFunc // Handler's next, which never fails
	routes *Routes
	cfg    *config
	bodies map[*Route]routeBody // of every route of routes
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, h.next)
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request, next NextFunc) (nextErr error) {
	start := time.Now()
	rep := Report{Method: r.Method}
	if h.cfg.observe != nil {
		defer func() {
			if rep.Err == nil {
				rep.Err = nextErr
			}
			rep.Duration = time.Since(start)
			h.cfg.observe(rep)
		}()
	}
	// The request is the caller's: change a copy.
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	r2.URL = &u
	d, err := h.routes.Match(r2)
	if err != nil {
		rep.Status, rep.Outcome, rep.Err = http.StatusBadRequest, OutcomeBadRequest, err
		writeProblem(w, http.StatusBadRequest, err)
		return nil
	}
	rep.Path = d.Path
	r2.Header = shallowClone(r.Header)
	FixRequestHeader(r2.Header, d.Route != nil)
	if d.Route == nil {
		pw := &passWriter{ResponseWriter: w}
		defer func() {
			rep.Status, rep.BytesIn, rep.BytesOut, rep.Outcome = pw.status, pw.n, pw.n, OutcomeUnmatched
			if pw.upErr != nil {
				rep.BytesIn, rep.Outcome, rep.Err = 0, OutcomeUpstreamError, pw.upErr
			}
		}()
		return next(pw, r2)
	}
	rep.Route = d.Route.Pattern
	mw := &maskWriter{w: w, h: make(http.Header), route: d.Route, body: h.bodies[d.Route], method: r.Method}
	p, err := serveMasked(mw, r2, next)
	mw.report(&rep)
	if p != nil {
		panic(p)
	}
	return err
}

// shallowClone is a copy of h that can be changed by Set and Del without
// changing h: its values are h's slices, which FixRequestHeader never
// writes into (Header.Clone copies each of them too).
func shallowClone(h http.Header) http.Header {
	if h == nil {
		return make(http.Header)
	}
	c := make(http.Header, len(h)+1)
	for k, vv := range h {
		c[k] = vv
	}
	return c
}

// serveMasked runs next with mw, and returns what serve must panic with:
// http.ErrAbortHandler to abort a response that failed after bytes were
// sent, or the handler's own panic, after a 502 where none was sent; or
// next's error where the server is to answer it (Middleware.ServeNext).
func serveMasked(mw *maskWriter, r *http.Request, next NextFunc) (repanic any, nextErr error) {
	defer func() {
		if p := recover(); p != nil {
			mw.handlerBroke()
			if mw.state == stateAborted || p != http.ErrAbortHandler {
				repanic = p
			}
		}
	}()
	if err := next(mw, r); err != nil {
		if mw.state == stateNew || mw.state == statePass {
			// Nothing of a masked body was written: the server answers.
			return nil, err
		}
		mw.handlerBroke() // a body cut short, as by a broken upstream
	} else {
		mw.handlerReturned()
	}
	if mw.state == stateAborted {
		return http.ErrAbortHandler, nil
	}
	return nil, nil
}

// state is where a maskWriter is with its response. Its map, by the event
// that moves it (a state not named stays; a body that fails is fail):
//
//	stateNew     WriteHeader, a status to mask       -> stateMask
//	             WriteHeader, a status passed (HEAD,
//	             304, 204, not listed): commit       -> statePass
//	             WriteHeader, a status refused (206,
//	             101), or no masks for the route     -> stateRefused
//	             Write or Flush first                -> WriteHeader(200)
//	             handlerReturned                     -> WriteHeader(200)
//	             handlerBroke                        -> stateProblem
//	stateMask    the first masked byte: commit       -> stateMaskSent
//	             handlerReturned, body ends: commit  -> stateMaskSent
//	             fail, handlerBroke                  -> stateProblem
//	stateMaskSent fail, handlerBroke                 -> stateAborted
//	statePass    handlerBroke                        -> stateAborted
//	stateRefused handlerReturned, handlerBroke       -> stateProblem
//
// stateProblem and stateAborted are ends: nothing more is written. The
// status line and header reached w in statePass, stateMaskSent,
// stateAborted and stateProblem (sent).
type state uint8

const (
	stateNew      state = iota // no status yet
	statePass                  // not masked: sent, and bytes go straight through
	stateMask                  // masking into a Body; nothing sent yet, a 502 is still possible
	stateMaskSent              // masking; the status and header went out with the first masked bytes
	stateRefused               // refused at WriteHeader: bytes are read and dropped, a 502 at the end
	stateProblem               // ended with a 502 problem document, no byte of the body sent
	stateAborted               // ended after bytes were sent: the response must be aborted
)

// sent reports whether the status line and header went to w.
func (s state) sent() bool {
	return s == statePass || s == stateMaskSent || s == stateProblem || s == stateAborted
}

// ended reports whether the response ended, with a 502 or an abort.
func (s state) ended() bool { return s == stateProblem || s == stateAborted }

// maskWriter is the ResponseWriter of a masked route.
type maskWriter struct {
	w      http.ResponseWriter
	h      http.Header // the handler's header, sent at commit
	route  *Route
	body   routeBody // what the Body is made with
	method string
	status int // the handler's status; 0 before WriteHeader
	state  state
	b      *Body // in stateMask and stateMaskSent, and after
	err    error // why the body was refused or the response ended
	upErr  error // the upstream failed: what is written is the gateway's 502
	in     int64 // body bytes read from the handler
	out    int64 // body bytes sent
	took   time.Duration
	rc     *http.ResponseController
}

// flushW flushes the underlying writer.
func (m *maskWriter) flushW() error {
	if m.rc == nil {
		m.rc = http.NewResponseController(m.w)
	}
	return m.rc.Flush()
}

func (m *maskWriter) Header() http.Header { return m.h }

// Unwrap returns the underlying ResponseWriter, for http.ResponseController.
func (m *maskWriter) Unwrap() http.ResponseWriter { return m.w }

var errHijack = errs.New("gateway: a masked route cannot be hijacked")

// Hijack refuses: the connection's bytes would not go through the mask.
func (m *maskWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) { return nil, nil, errHijack }

func (m *maskWriter) WriteHeader(code int) {
	if m.status != 0 {
		return // as net/http: a second status is ignored
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		// Informational: forwarded as it is, and the handler goes on.
		copyHeader(m.w.Header(), m.h)
		m.w.WriteHeader(code)
		return
	}
	m.status = code
	switch treat, err := m.route.Treat(m.method, code); treat {
	case Refuse:
		m.refuse(err)
	case FixHeader:
		m.commit(true)
		m.state = statePass
	case Pass:
		m.commit(false)
		m.state = statePass
	case Mask:
		if m.body.err != nil {
			m.refuse(m.body.err)
			return
		}
		b, err := m.body.masks.newBody(clientWriter{m}, m.h)
		if err != nil {
			m.refuse(err)
			return
		}
		m.state, m.b = stateMask, b
	}
}

func (m *maskWriter) refuse(err error) {
	m.state, m.err = stateRefused, err
}

func (m *maskWriter) upstreamFailed(err error) { m.upErr = err }

func (m *maskWriter) Write(p []byte) (int, error) {
	if m.state == stateNew {
		m.WriteHeader(http.StatusOK)
	}
	switch m.state {
	case statePass:
		n, err := m.w.Write(p)
		if m.upErr == nil {
			m.in += int64(n)
		}
		m.out += int64(n)
		return n, err
	case stateMask, stateMaskSent:
		// Counted as read, whether the masking takes them or fails on
		// them.
		m.in += int64(len(p))
		t := time.Now()
		n, err := m.b.Write(p)
		m.took += time.Since(t)
		if err != nil {
			m.fail(err)
		}
		return n, err
	case stateRefused:
		m.in += int64(len(p)) // read, and refused
	}
	return 0, m.err
}

// Flush writes out what was masked so far.
func (m *maskWriter) Flush() { m.FlushError() }

// FlushError is Flush, for http.ResponseController.
func (m *maskWriter) FlushError() error {
	if m.state == stateNew {
		m.WriteHeader(http.StatusOK)
	}
	switch m.state {
	case statePass:
		return m.flushW()
	case stateMask, stateMaskSent:
		t := time.Now()
		err := m.b.Flush()
		m.took += time.Since(t)
		if err != nil {
			m.fail(err)
		}
		return err
	}
	return m.err
}

// commit sends the status line and the header, fixed per SPEC G4 when fix
// is set (a masked body, or HEAD and 304 on a masked route). Trailers are
// left for the end. The caller moves to the state that follows.
func (m *maskWriter) commit(fix bool) {
	dst := m.w.Header()
	clear(dst)
	// The handler's slices are shared, not copied: net/http (HTTP/1 and
	// HTTP/2) takes its own copy of the header when the status is written,
	// and a handler that changes its header afterwards replaces slices
	// (Set, Add), it does not write into them.
	for k, vv := range m.h {
		dst[k] = vv
	}
	for _, k := range trailerKeys(m.h) {
		dst.Del(k)
	}
	if fix {
		FixResponseHeader(dst)
	}
	m.w.WriteHeader(m.status)
}

// handlerReturned ends the response after the handler returned without
// an error.
func (m *maskWriter) handlerReturned() {
	if m.state == stateNew {
		m.WriteHeader(http.StatusOK) // net/http would send a 200 with no body
	}
	switch m.state {
	case stateMask, stateMaskSent:
		t := time.Now()
		err := m.b.Close()
		m.took += time.Since(t)
		if err != nil {
			m.fail(err)
			break
		}
		if m.state == stateMask {
			m.commit(true)
			m.state = stateMaskSent
		}
		m.out = m.b.Written()
	case stateRefused:
		m.fail(m.err)
	}
	if !m.state.ended() {
		m.trailers()
	}
}

// fail ends a masked body that went wrong: a 502 if nothing was sent, an
// abort if bytes were (SPEC G5).
func (m *maskWriter) fail(err error) {
	if m.state.ended() {
		return
	}
	sent := m.state.sent()
	m.err = err
	if m.b != nil {
		m.out = m.b.Written()
		m.b.Abort(err)
	}
	if sent {
		m.state = stateAborted
		return
	}
	m.state = stateProblem
	clear(m.w.Header())
	writeProblem(m.w, http.StatusBadGateway, err)
}

// handlerBroke ends the response of a handler that panicked or returned
// an error: the reverse proxy panics with http.ErrAbortHandler when the
// upstream's body fails midway.
func (m *maskWriter) handlerBroke() {
	var err error = &Error{Offset: m.in, msg: "upstream body failed before its end", err: ErrUpstream}
	switch m.state {
	case statePass: // sent at WriteHeader: net/http aborts it
		m.err, m.state = err, stateAborted
		return
	case stateRefused:
		err = m.err
	}
	problem := !m.state.sent()
	m.fail(err)
	if problem {
		m.flushW()
	}
}

// trailers copies the handler's trailers to w, after the body, without
// those that describe the upstream's bytes.
func (m *maskWriter) trailers() {
	keys := trailerKeys(m.h)
	if len(keys) == 0 {
		return
	}
	dst := m.w.Header()
	for _, k := range keys {
		if m.state == stateMaskSent && isBodyHeader(k) {
			continue
		}
		if vv, ok := m.h[k]; ok {
			dst[k] = append([]string(nil), vv...)
		}
	}
}

// sentStatus is the status the client got, 0 if none.
func (m *maskWriter) sentStatus() int {
	switch m.state {
	case statePass, stateMaskSent, stateAborted:
		return m.status
	case stateProblem:
		return http.StatusBadGateway
	}
	return 0
}

func (m *maskWriter) report(rep *Report) {
	rep.Status, rep.BytesIn, rep.BytesOut, rep.MaskTime, rep.Err = m.sentStatus(), m.in, m.out, m.took, m.err
	switch {
	case m.upErr != nil:
		rep.Outcome, rep.Err = OutcomeUpstreamError, m.upErr
	case m.state == stateAborted:
		rep.Outcome = OutcomeAborted
	case m.err != nil:
		rep.Outcome = OutcomeRefused
	case m.state == stateMaskSent:
		rep.Outcome = OutcomeMasked
	default:
		rep.Outcome = OutcomeUnmasked
	}
}

// clientWriter is where a Body writes: the client's writer, whose first
// byte sends the status line and the header.
type clientWriter struct{ m *maskWriter }

func (s clientWriter) Write(p []byte) (int, error) {
	if s.m.state == stateMask {
		s.m.commit(true)
		s.m.state = stateMaskSent
	}
	return s.m.w.Write(p)
}

func (s clientWriter) Flush() error {
	if s.m.state == stateMask {
		return nil // the status waits for the first byte: a 502 is still possible
	}
	err := s.m.flushW()
	if errors.Is(err, http.ErrNotSupported) {
		return nil
	}
	return err
}

// trailerKeys are the keys of h that are trailers: declared in its Trailer
// header, or with http.TrailerPrefix.
func trailerKeys(h http.Header) []string {
	var keys []string
	for _, v := range h["Trailer"] {
		for _, k := range splitTokens(v) {
			keys = append(keys, http.CanonicalHeaderKey(k))
		}
	}
	for k := range h {
		if len(k) > len(http.TrailerPrefix) && k[:len(http.TrailerPrefix)] == http.TrailerPrefix {
			keys = append(keys, k)
		}
	}
	return keys
}

func isBodyHeader(k string) bool {
	if len(k) > len(http.TrailerPrefix) && k[:len(http.TrailerPrefix)] == http.TrailerPrefix {
		k = http.CanonicalHeaderKey(k[len(http.TrailerPrefix):])
	}
	for _, b := range bodyHeaders {
		if k == b {
			return true
		}
	}
	return false
}

func copyHeader(dst, src http.Header) {
	for k, vv := range src {
		dst[k] = append([]string(nil), vv...)
	}
}

// passWriter is the ResponseWriter of a request that matched no route: it
// only counts, for the report.
type passWriter struct {
	http.ResponseWriter
	status int
	n      int64
	upErr  error // the upstream failed: what is written is the gateway's 502
}

func (p *passWriter) upstreamFailed(err error) { p.upErr = err }

// upstreamFailer is a ResponseWriter of the handler that the reverse
// proxy tells that the upstream failed before its response, so that the
// report says so and does not count the gateway's own 502 as the
// upstream's bytes.
type upstreamFailer interface{ upstreamFailed(err error) }

func (p *passWriter) WriteHeader(code int) {
	if p.status == 0 && code >= 200 {
		p.status = code
	}
	p.ResponseWriter.WriteHeader(code)
}

func (p *passWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	n, err := p.ResponseWriter.Write(b)
	p.n += int64(n)
	return n, err
}

func (p *passWriter) Flush() { http.NewResponseController(p.ResponseWriter).Flush() }

// FlushError is Flush, for http.ResponseController.
func (p *passWriter) FlushError() error { return http.NewResponseController(p.ResponseWriter).Flush() }

// Unwrap returns the underlying ResponseWriter, for http.ResponseController
// (Hijack, deadlines).
func (p *passWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// splitTokens splits a comma-separated header value.
func splitTokens(v string) []string {
	var out []string
	for t := range strings.SplitSeq(v, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
