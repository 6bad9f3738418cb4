package main

import (
	"bytes"
	"context"
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
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/internal/reportlog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

const serveUsage = `usage: jsonmask serve -config FILE [-listen ADDR] [-upstream URL] [-admin ADDR]
       jsonmask serve -upstream URL -mask JSON [-listen ADDR] [-admin ADDR]

Runs the masking reverse proxy (SPEC section 8): requests go to the
upstream, and the responses of the config's routes are masked on their way
back. -listen and -upstream override the config file. The admin listener
serves /metrics (Prometheus) and /healthz. Each request logs one JSON line
on standard error. SIGHUP reloads the config file (a bad one is logged and
the old one kept); SIGTERM and SIGINT drain the requests in flight, up to
limits.drain_timeout, and exit.

config (JSON; unknown keys are errors; mask_file is relative to the file):
  {"listen": "127.0.0.1:8080", "admin": "127.0.0.1:9090",
   "upstream": "http://127.0.0.1:9000", "case_sensitive_paths": false,
   "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
              "max_token_bytes": 67108864, "response_header_timeout": "30s",
              "read_header_timeout": "10s", "idle_timeout": "120s",
              "drain_timeout": "30s"},
   "routes": [
     {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
     {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
      "strict": true, "drop_mismatched": false, "trusted": false, "statuses": [200, 201]}]}
`

// build compiles a config into the proxy's handler. Its errors read, after
// message, "config ...".
func build(c *gateway.Config, obs func(gateway.Report)) (http.Handler, error) {
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

// serveFlags are serve's own flags.
type serveFlags struct {
	config, listen, admin, upstream, mask string
}

// metrics are what the admin listener serves (SPEC G9). They outlive
// reloads.
type metrics struct {
	reg                 *prometheus.Registry
	requests            *prometheus.CounterVec
	bytesIn, bytesOut   *prometheus.CounterVec
	maskTime, durations *prometheus.HistogramVec
	aborts              *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "jsonmask_gateway_requests_total", Help: "Requests, by route and outcome (masked, unmasked, unmatched, refused, aborted, bad_request).",
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
	return m
}

// observer turns each request's report into metrics and one log line. The
// line never holds body content: the report has none.
func (m *metrics) observer(logger *slog.Logger) func(gateway.Report) {
	return func(r gateway.Report) {
		route := r.Route
		if route == "" {
			route = "(none)"
		}
		m.requests.WithLabelValues(route, string(r.Outcome)).Inc()
		m.bytesIn.WithLabelValues(route).Add(float64(r.BytesIn))
		m.bytesOut.WithLabelValues(route).Add(float64(r.BytesOut))
		m.durations.WithLabelValues(route).Observe(r.Duration.Seconds())
		if r.Outcome == gateway.OutcomeMasked || r.Outcome == gateway.OutcomeAborted || r.Outcome == gateway.OutcomeRefused {
			m.maskTime.WithLabelValues(route).Observe(r.MaskTime.Seconds())
		}
		if r.Outcome == gateway.OutcomeAborted {
			m.aborts.WithLabelValues(route).Inc()
		}
		reportlog.Log(logger, "request", r)
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
	load := func() (*gateway.Config, error) {
		c := &gateway.Config{}
		if f.config != "" {
			var err error
			if c, err = gateway.LoadConfig(f.config); err != nil {
				return nil, err
			}
		} else {
			c.Routes = []gateway.RouteConfig{{Match: "/", Mask: json.RawMessage(f.mask)}}
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
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	m := newMetrics()
	cfg, err := load()
	if err != nil {
		return usageError(stderr, "jsonmask serve", err)
	}
	h, err := build(cfg, m.observer(logger))
	if err != nil {
		return usageError(stderr, "jsonmask serve", err)
	}
	return serve(cfg, h, load, m, logger)
}

// serve runs the listeners until SIGTERM or SIGINT, reloading on SIGHUP.
func serve(cfg *gateway.Config, h http.Handler, load func() (*gateway.Config, error), m *metrics, logger *slog.Logger) int {
	var swap swapHandler
	swap.set(h)
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		logger.Error("listen", "error", err.Error())
		return 1
	}
	srv := &http.Server{
		Handler:           &swap,
		ReadHeaderTimeout: cfg.Limits.ReadHeaderTimeout.Or(gateway.DefaultReadHeaderTimeout),
		IdleTimeout:       cfg.Limits.IdleTimeout.Or(gateway.DefaultIdleTimeout),
		// Aborted responses are on purpose (SPEC G5); the request's line
		// says why. What else net/http has to say goes to the log.
		ErrorLog: log.New(slogWriter{logger}, "", 0),
	}
	errs := make(chan error, 2)
	go func() { errs <- srv.Serve(ln) }()
	var admin *http.Server
	adminAddr := ""
	if cfg.Admin != "" {
		aln, err := net.Listen("tcp", cfg.Admin)
		if err != nil {
			logger.Error("listen admin", "error", err.Error())
			srv.Close()
			return 1
		}
		adminAddr = aln.Addr().String()
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
		admin = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { errs <- admin.Serve(aln) }()
	}
	logger.Info("listening", "addr", ln.Addr().String(), "admin", adminAddr, "upstream", cfg.Upstream, "routes", len(cfg.Routes))

	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	for {
		select {
		case err := <-errs:
			logger.Error("serve", "error", err.Error())
			srv.Close()
			if admin != nil {
				admin.Close()
			}
			return 1
		case sig := <-sigs:
			if sig == syscall.SIGHUP {
				reload(&swap, load, m, logger, cfg)
				continue
			}
			drain := cfg.Limits.DrainTimeout.Or(gateway.DefaultDrainTimeout)
			logger.Info("draining", "signal", sig.String(), "deadline", drain.String())
			ctx, cancel := context.WithTimeout(context.Background(), drain)
			err := srv.Shutdown(ctx)
			cancel()
			if admin != nil {
				admin.Close()
			}
			if err != nil {
				logger.Error("drain cut short", "error", err.Error())
				srv.Close()
				return 1
			}
			logger.Info("stopped")
			return 0
		}
	}
}

// reload reads the config again and swaps the handler, atomically; a bad
// config is logged and the old one kept (SPEC G10). Listen addresses do not
// change on a reload.
func reload(swap *swapHandler, load func() (*gateway.Config, error), m *metrics, logger *slog.Logger, cur *gateway.Config) {
	c, err := load()
	if err == nil {
		var h http.Handler
		if h, err = build(c, m.observer(logger)); err == nil {
			swap.set(h)
			if c.Listen != cur.Listen || c.Admin != cur.Admin {
				logger.Warn("reload: listen and admin addresses change only on a restart")
			}
			logger.Info("reloaded", "upstream", c.Upstream, "routes", len(c.Routes))
			return
		}
	}
	logger.Error("reload failed; the old config stays", "error", message(err))
}

// slogWriter turns net/http's log lines into slog records.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Warn("http", "message", string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}
