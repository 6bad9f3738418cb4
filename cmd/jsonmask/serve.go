package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jsonmask/jsonmask/config"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/internal/reportlog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

const serveUsage = `usage: jsonmask serve -config FILE [-listen ADDR] [-upstream URL] [-admin ADDR] [-h2c] [-allow-no-routes]
       jsonmask serve -upstream URL -mask JSON [-listen ADDR] [-admin ADDR] [-h2c]

Runs the masking reverse proxy (SPEC section 8): requests go to the
upstream, and the responses of the config's routes are masked on their way
back. -listen and -upstream override the config file. It speaks HTTP/1.1,
HTTPS with HTTP/2 by ALPN when tls_cert_file and tls_key_file are set, and
HTTP/2 without TLS (h2c) beside HTTP/1.1 with -h2c. The admin listener
serves /metrics (Prometheus) and /healthz (503 from the first moment of a
drain). Each request logs one JSON line on standard error. SIGHUP reloads
the config file (a bad one is logged and the old one kept; a setting that
changes only on a restart is named in a warning); SIGTERM and SIGINT drain
the requests in flight, up to limits.drain_timeout, and exit. A fault of
the config or of a listen address is one line and exit status 2.

config (JSON; unknown keys, keys given twice or in another case are errors;
paths are relative to the file):
  {"listen": "127.0.0.1:8080", "admin": "127.0.0.1:9090",
   "upstream": "http://127.0.0.1:9000", "case_sensitive_paths": false,
   "tls_cert_file": "", "tls_key_file": "",
   "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
              "max_token_bytes": 67108864, "response_header_timeout": "30s",
              "max_idle_conns_per_host": 256, "read_header_timeout": "10s",
              "idle_timeout": "120s", "drain_timeout": "30s"},
   "routes": [
     {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
     {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
      "strict": true, "drop_mismatched": false, "trusted": false, "statuses": [200, 201],
      "sse_passthrough": ["[DONE]"]},
     {"match": "GET /v2/users/{id}", "fields": "id,name,orgs(id)"}]}
`

// build compiles a config into the proxy's handler. Its errors read, after
// message, "config ...".
func build(c *config.File, obs func(gateway.Report)) (http.Handler, error) {
	if c.Upstream == "" {
		return nil, errors.New("config: no upstream: set \"upstream\" or -upstream URL")
	}
	u, err := url.Parse(c.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("config: upstream %q is not an http or https URL", c.Upstream)
	}
	rs, err := c.CompileRoutes()
	if err != nil {
		return nil, err
	}
	return gateway.NewReverseProxy(u, rs, gateway.WithLimits(c.Limits.Gateway()), gateway.WithObserver(obs)), nil
}

// routePatterns are the patterns of c's routes: the route labels of its
// metrics.
func routePatterns(c *config.File) []string {
	p := make([]string, len(c.Routes))
	for i, r := range c.Routes {
		p[i] = r.Match
	}
	return p
}

// serveFlags are serve's own flags.
type serveFlags struct {
	config, listen, admin, upstream, mask string
	h2c, allowNoRoutes                    bool
}

// metrics are what the admin listener serves (SPEC G9). They outlive
// reloads.
type metrics struct {
	reg                 *prometheus.Registry
	requests            *prometheus.CounterVec
	bytesIn, bytesOut   *prometheus.CounterVec
	maskTime, durations *prometheus.HistogramVec
	aborts              *prometheus.CounterVec
	// routes are the metrics of the config's routes, resolved when the
	// config is built (prepare): a request looks its route up once instead
	// of hashing its labels for each metric.
	routes atomic.Pointer[map[string]*routeMetrics]
}

// outcomes are the outcomes a request's metrics count, in the order of
// routeMetrics.requests.
var outcomes = [...]gateway.Outcome{gateway.OutcomeUnmatched, gateway.OutcomeUnmasked, gateway.OutcomeMasked,
	gateway.OutcomeRefused, gateway.OutcomeAborted, gateway.OutcomeBadRequest, gateway.OutcomeUpstreamError}

// routeMetrics are the metrics of one route label.
type routeMetrics struct {
	requests                  [len(outcomes)]prometheus.Counter
	bytesIn, bytesOut, aborts prometheus.Counter
	maskTime, duration        prometheus.Observer
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "jsonmask_gateway_requests_total", Help: "Requests, by route and outcome (masked, unmasked, unmatched, refused, aborted, bad_request, upstream_error).",
	}, []string{"route", "outcome"})
	m.bytesIn = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "jsonmask_gateway_bytes_in_total", Help: "Response body bytes received from the upstream, as coded.",
	}, []string{"route"})
	m.bytesOut = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "jsonmask_gateway_bytes_out_total", Help: "Response body bytes sent to clients, as coded.",
	}, []string{"route"})
	m.maskTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "jsonmask_gateway_mask_seconds", Help: "Time spent decoding, masking and encoding one response body.",
		Buckets: prometheus.ExponentialBuckets(1e-5, 4, 10),
	}, []string{"route"})
	m.durations = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "jsonmask_gateway_request_seconds", Help: "Time from a request's arrival to the end of its response.",
		Buckets: prometheus.ExponentialBuckets(1e-4, 4, 10),
	}, []string{"route"})
	m.aborts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "jsonmask_gateway_aborts_total", Help: "Responses aborted after bytes were sent, because the body failed.",
	}, []string{"route"})
	m.reg.MustRegister(m.requests, m.bytesIn, m.bytesOut, m.maskTime, m.durations, m.aborts,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.routes.Store(&map[string]*routeMetrics{})
	return m
}

// noRoute is the route label of a request that matched no route.
const noRoute = "(none)"

// resolve returns the metrics of a route label, which every outcome of it
// then shows, at 0 until counted.
func (m *metrics) resolve(route string) *routeMetrics {
	rm := &routeMetrics{
		bytesIn: m.bytesIn.WithLabelValues(route), bytesOut: m.bytesOut.WithLabelValues(route),
		aborts: m.aborts.WithLabelValues(route), maskTime: m.maskTime.WithLabelValues(route),
		duration: m.durations.WithLabelValues(route),
	}
	for i, o := range outcomes {
		rm.requests[i] = m.requests.WithLabelValues(route, string(o))
	}
	return rm
}

// prepare resolves the metrics of the route patterns of a config being
// built, and of noRoute, for the observer.
func (m *metrics) prepare(patterns []string) {
	routes := make(map[string]*routeMetrics, len(patterns)+1)
	for _, p := range append(patterns, noRoute) {
		routes[p] = m.resolve(p)
	}
	m.routes.Store(&routes)
}

// observer turns each request's report into metrics and one log line,
// written by lines. The line never holds body content: the report has
// none.
func (m *metrics) observer(lines *reportlog.Lines) func(gateway.Report) {
	return func(r gateway.Report) {
		route := r.Route
		if route == "" {
			route = noRoute
		}
		rm := (*m.routes.Load())[route]
		if rm == nil { // a request of a config that a reload replaced
			rm = m.resolve(route)
		}
		for i, o := range outcomes {
			if o == r.Outcome {
				rm.requests[i].Inc()
				break
			}
			if i == len(outcomes)-1 {
				m.requests.WithLabelValues(route, string(r.Outcome)).Inc()
			}
		}
		rm.bytesIn.Add(float64(r.BytesIn))
		rm.bytesOut.Add(float64(r.BytesOut))
		rm.duration.Observe(r.Duration.Seconds())
		if r.Outcome == gateway.OutcomeMasked || r.Outcome == gateway.OutcomeAborted || r.Outcome == gateway.OutcomeRefused {
			rm.maskTime.Observe(r.MaskTime.Seconds())
		}
		if r.Outcome == gateway.OutcomeAborted {
			rm.aborts.Inc()
		}
		lines.Log("request", r)
	}
}

// swapHandler serves with the handler of the config in force; a reload
// swaps it whole, so that a request sees one config or the other.
type swapHandler struct{ h atomic.Pointer[http.Handler] }

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

func (s *swapHandler) set(h http.Handler) { s.h.Store(&h) }

// runServe is `jsonmask serve` (SPEC G11).
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask serve")
	var f serveFlags
	fs.StringVar(&f.config, "config", "", "read the config from `FILE`")
	fs.StringVar(&f.listen, "listen", "", "listen on `ADDR` (overrides the config; default 127.0.0.1:8080)")
	fs.StringVar(&f.admin, "admin", "", "serve /metrics and /healthz on `ADDR` (overrides the config)")
	fs.StringVar(&f.upstream, "upstream", "", "proxy to `URL` (overrides the config)")
	fs.StringVar(&f.mask, "mask", "", "without -config: mask every route's responses with this JSON `mask`")
	fs.BoolVar(&f.h2c, "h2c", false, "also speak HTTP/2 without TLS (h2c), for a client or proxy that knows it does")
	fs.BoolVar(&f.allowNoRoutes, "allow-no-routes", false, "accept a config without routes, which masks nothing")
	operands, status, done := parseCommand(fs, args, serveUsage, stdout, stderr)
	switch {
	case done:
		return status
	case len(operands) > 0:
		return usageError(stderr, "jsonmask serve", fmt.Errorf("unexpected argument %q", operands[0]))
	case f.config == "" && (f.upstream == "" || f.mask == ""):
		return usageError(stderr, "jsonmask serve", errors.New("give -config FILE, or -upstream URL and -mask JSON"))
	case f.config != "" && f.mask != "":
		return usageError(stderr, "jsonmask serve", errors.New("-mask is for use without -config: put the mask in a route"))
	}
	load := func() (*config.File, error) {
		c := &config.File{}
		if f.config != "" {
			var opts []config.Option
			if f.allowNoRoutes {
				opts = append(opts, config.AllowNoRoutes())
			}
			var err error
			if c, err = config.Load(f.config, opts...); err != nil {
				return nil, err
			}
		} else {
			c.Routes = []config.Route{{Match: "/", MaskConfig: config.MaskConfig{Mask: json.RawMessage(f.mask)}}}
		}
		if f.listen != "" {
			c.Listen = f.listen
		}
		if f.admin != "" {
			c.Admin = f.admin
		}
		if f.upstream != "" {
			c.Upstream = f.upstream
		}
		if c.Listen == "" {
			c.Listen = "127.0.0.1:8080"
		}
		return c, nil
	}
	// One writer for the logger's lines and the request lines, so that
	// each line goes out whole.
	out := &lockedWriter{w: stderr}
	logger := slog.New(slog.NewJSONHandler(out, nil))
	m := newMetrics()
	observe := m.observer(reportlog.NewLines(out))
	cfg, err := load()
	if err != nil {
		return usageError(stderr, "jsonmask serve", err)
	}
	h, err := build(cfg, observe)
	if err != nil {
		return usageError(stderr, "jsonmask serve", err)
	}
	m.prepare(routePatterns(cfg))
	svc, err := startServer(cfg, h, f.h2c, m, observe, logger)
	if err != nil {
		return usageError(stderr, "jsonmask serve", err)
	}
	// The signals are ours before "listening" is said: a SIGHUP sent by
	// whoever waits for that line must reload, never end the process.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	logger.Info("listening", "addr", svc.addr, "admin", svc.adminAddr, "protocols", svc.protocols,
		"upstream", cfg.Upstream, "routes", len(cfg.Routes))
	reloads := make(chan struct{})
	go func() {
		for range hup {
			reloads <- struct{}{}
		}
	}()
	return config.Run(ctx, svc, cfg, load, reloads, svc.errs, logger)
}

// server is serve's config.Service: the proxy's listener and the admin's.
type server struct {
	swap            swapHandler
	srv, admin      *http.Server
	addr, adminAddr string
	protocols       string
	draining        atomic.Bool
	errs            chan error
	observe         func(gateway.Report)
	metrics         *metrics
}

// startServer listens on the config's addresses and serves h. A listen
// address that is bad or in use is an error ("listen 127.0.0.1:80:
// address already in use"), which the command reports as a config's.
func startServer(cfg *config.File, h http.Handler, h2c bool, m *metrics, observe func(gateway.Report), logger *slog.Logger) (*server, error) {
	s := &server{errs: make(chan error, 2), observe: observe, metrics: m}
	s.swap.set(h)
	var tlsCert *tls.Certificate
	if cfg.TLSCertFile != "" {
		c, err := tls.LoadX509KeyPair(cfg.TLSCertFile, cfg.TLSKeyFile)
		if err != nil {
			return nil, fmt.Errorf("config: tls_cert_file and tls_key_file: %w", err)
		}
		tlsCert = &c
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s.addr = ln.Addr().String()
	s.srv = &http.Server{
		Handler:           &s.swap,
		ReadHeaderTimeout: cfg.Limits.ReadHeaderTimeout.Or(config.DefaultReadHeaderTimeout),
		IdleTimeout:       cfg.Limits.IdleTimeout.Or(config.DefaultIdleTimeout),
		// Aborted responses are on purpose (SPEC G5); the request's line
		// says why. What else net/http has to say goes to the log.
		ErrorLog: log.New(slogWriter{logger}, "", 0),
	}
	var p http.Protocols
	p.SetHTTP1(true)
	switch {
	case tlsCert != nil:
		p.SetHTTP2(true)
		s.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*tlsCert}, MinVersion: tls.VersionTLS12}
		s.protocols = "HTTP/1.1, HTTP/2 (TLS)"
	case h2c:
		p.SetUnencryptedHTTP2(true)
		s.protocols = "HTTP/1.1, h2c"
	default:
		s.protocols = "HTTP/1.1"
	}
	s.srv.Protocols = &p
	var adminLn net.Listener
	if cfg.Admin != "" {
		if adminLn, err = net.Listen("tcp", cfg.Admin); err != nil {
			ln.Close()
			return nil, fmt.Errorf("listen admin: %w", err)
		}
		s.adminAddr = adminLn.Addr().String()
	}
	go func() {
		var err error
		if tlsCert != nil {
			err = s.srv.ServeTLS(ln, "", "")
		} else {
			err = s.srv.Serve(ln)
		}
		if err != http.ErrServerClosed {
			s.errs <- err
		}
	}()
	if adminLn != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
			if s.draining.Load() {
				http.Error(w, "draining", http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, "ok\n")
		})
		s.admin = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := s.admin.Serve(adminLn); err != http.ErrServerClosed {
				s.errs <- err
			}
		}()
	}
	return s, nil
}

// Reload builds the handler of f and swaps it in (SPEC G10).
func (s *server) Reload(f *config.File) error {
	h, err := build(f, s.observe)
	if err != nil {
		return err
	}
	s.metrics.prepare(routePatterns(f))
	s.swap.set(h)
	return nil
}

// Unhealthy makes /healthz answer 503 (SPEC G10).
func (s *server) Unhealthy() { s.draining.Store(true) }

// Drain shuts the proxy's listener down, waiting for the requests in
// flight until ctx ends; /healthz answers 503 until its end.
func (s *server) Drain(ctx context.Context) error {
	s.draining.Store(true)
	err := s.srv.Shutdown(ctx)
	if s.admin != nil {
		s.admin.Close()
	}
	return err
}

// Close stops both listeners at once.
func (s *server) Close() {
	s.srv.Close()
	if s.admin != nil {
		s.admin.Close()
	}
}

// lockedWriter writes to w one Write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// slogWriter turns net/http's log lines into slog records.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Warn("http", "message", string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}
