// Command jsonmask-extproc serves Envoy's external processing API
// (envoy.service.ext_proc.v3) and masks the response bodies of its routes:
// jsonmask beside an Envoy fleet, without another proxy hop. Run it next to
// each Envoy (same host or pod) and point Envoy's ext_proc filter at it;
// contrib/extproc/README.md has the envoy.yaml.
//
//	jsonmask-extproc -config FILE [-listen ADDR]
//
// The config is the routes and limits of `jsonmask serve` (SPEC G11),
// without what Envoy does itself (upstream, timeouts):
//
//	{"listen": "127.0.0.1:50051", "case_sensitive_paths": false,
//	 "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
//	            "max_token_bytes": 67108864, "drain_timeout": "30s"},
//	 "routes": [
//	   {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
//	   {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
//	    "strict": true, "statuses": [200, 201]}]}
//
// Unknown keys are errors (a typo must not silently disable a mask);
// mask_file paths are relative to the config file. The gRPC server also
// serves the standard health service (grpc.health.v1), for Envoy's
// health checks. Each stream logs one JSON line on standard error (route,
// status, outcome, bytes in and out, times; never body content). SIGHUP
// reloads the config (a bad one is logged and the old one kept); SIGTERM
// and SIGINT drain the streams in flight, up to limits.drain_timeout.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/contrib/extproc"
	"github.com/jsonmask/jsonmask/gateway"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
)

const usage = `usage: jsonmask-extproc -config FILE [-listen ADDR]

Serves Envoy's external processing API (envoy.service.ext_proc.v3) and
masks the response bodies of the config's routes (SPEC section 8).
-listen overrides the config's "listen" (default 127.0.0.1:50051).
SIGHUP reloads the config; SIGTERM and SIGINT drain and exit.

config (JSON; unknown keys are errors; mask_file is relative to the file):
  {"listen": "127.0.0.1:50051", "case_sensitive_paths": false,
   "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
              "max_token_bytes": 67108864, "drain_timeout": "30s"},
   "routes": [
     {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
     {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
      "strict": true, "drop_mismatched": false, "trusted": false, "statuses": [200, 201]}]}
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	reloads := make(chan struct{})
	go func() {
		for range hup {
			reloads <- struct{}{}
		}
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, reloads))
}

// config is the config file.
type config struct {
	Listen             string        `json:"listen"`
	CaseSensitivePaths bool          `json:"case_sensitive_paths"`
	Limits             limits        `json:"limits"`
	Routes             []routeConfig `json:"routes"`
}

type limits struct {
	MaxBodyBytes  int64    `json:"max_body_bytes"`
	MaxRatio      int64    `json:"max_ratio"`
	MaxDepth      int      `json:"max_depth"`
	MaxTokenBytes int      `json:"max_token_bytes"`
	DrainTimeout  duration `json:"drain_timeout"`
}

type routeConfig struct {
	Match          string          `json:"match"`
	Mask           json.RawMessage `json:"mask"`
	MaskFile       string          `json:"mask_file"`
	Arrays         bool            `json:"arrays"`
	Strict         bool            `json:"strict"`
	DropMismatched bool            `json:"drop_mismatched"`
	Trusted        bool            `json:"trusted"`
	Statuses       []int           `json:"statuses"`
}

const (
	defaultListen       = "127.0.0.1:50051"
	defaultDrainTimeout = 30 * time.Second
)

// duration is a time.Duration written as Go writes it: "30s".
type duration time.Duration

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"30s\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("bad duration %q", s)
	}
	*d = duration(v)
	return nil
}

// loadConfig reads and checks a config file.
func loadConfig(path string) (*config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c config
	if err := dec.Decode(&c); err != nil {
		return nil, configError(err, dec)
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the config's object at offset %d", dec.InputOffset())
	}
	dir := filepath.Dir(path)
	for i := range c.Routes {
		if f := c.Routes[i].MaskFile; f != "" && !filepath.IsAbs(f) {
			c.Routes[i].MaskFile = filepath.Join(dir, f)
		}
	}
	return &c, nil
}

// configError says what encoding/json found wrong, in the config's terms.
func configError(err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
		return fmt.Errorf("invalid JSON: the config ends early at offset %d", dec.InputOffset())
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at offset %d: %s", se.Offset, msg)
	case errors.As(err, &te):
		return fmt.Errorf("key %q must be %s, got %s at offset %d", te.Field, te.Type, te.Value, te.Offset)
	case strings.HasPrefix(msg, "unknown field "):
		return fmt.Errorf("unknown key %s before offset %d", strings.TrimPrefix(msg, "unknown field "), dec.InputOffset())
	}
	return errors.New(msg)
}

// server compiles the config into an ext_proc server.
func (c *config) server(observe func(gateway.Report)) (*extproc.Server, error) {
	var routes []gateway.Route
	for i, rc := range c.Routes {
		rt, err := rc.route()
		if err != nil {
			return nil, fmt.Errorf("route %d (%q): %s", i, rc.Match, message(err))
		}
		routes = append(routes, rt)
	}
	rs, err := gateway.NewRoutes(routes, gateway.CaseSensitivePaths(c.CaseSensitivePaths))
	if err != nil {
		return nil, errors.New(message(err))
	}
	l := c.Limits
	lim := gateway.Limits{MaxBodyBytes: l.MaxBodyBytes, MaxRatio: l.MaxRatio, MaxDepth: l.MaxDepth, MaxTokenBytes: l.MaxTokenBytes}
	return extproc.NewServer(rs, extproc.WithLimits(lim), extproc.WithObserver(observe)), nil
}

func (rc *routeConfig) route() (gateway.Route, error) {
	if rc.Match == "" {
		return gateway.Route{}, errors.New("no \"match\" pattern")
	}
	var src []byte
	switch {
	case len(rc.Mask) > 0 && rc.MaskFile != "":
		return gateway.Route{}, errors.New("give \"mask\" or \"mask_file\", not both")
	case len(rc.Mask) > 0:
		src = rc.Mask
	case rc.MaskFile != "":
		b, err := os.ReadFile(rc.MaskFile)
		if err != nil {
			return gateway.Route{}, fmt.Errorf("mask_file: %w", unwrapPath(err))
		}
		src = b
	default:
		return gateway.Route{}, errors.New("no mask: give \"mask\" or \"mask_file\"")
	}
	m, err := jsonmask.Compile(src, jsonmask.WithArrays(rc.Arrays), jsonmask.WithStrict(rc.Strict),
		jsonmask.WithDropMismatched(rc.DropMismatched), jsonmask.WithTrustedInput(rc.Trusted))
	if err != nil {
		return gateway.Route{}, err
	}
	return gateway.Route{Pattern: rc.Match, Mask: m, Statuses: rc.Statuses}, nil
}

// observer logs one line per stream; the report holds no body content.
func observer(logger *slog.Logger) func(gateway.Report) {
	return func(r gateway.Report) {
		attrs := []slog.Attr{
			slog.String("route", r.Route), slog.String("method", r.Method), slog.String("path", r.Path),
			slog.Int("status", r.Status), slog.String("outcome", string(r.Outcome)),
			slog.Int64("bytes_in", r.BytesIn), slog.Int64("bytes_out", r.BytesOut),
			slog.Float64("mask_ms", float64(r.MaskTime.Microseconds())/1000),
			slog.Float64("duration_ms", float64(r.Duration.Microseconds())/1000),
		}
		level := slog.LevelInfo
		if r.Err != nil {
			attrs = append(attrs, slog.String("error", r.Err.Error()))
			level = slog.LevelWarn
		}
		logger.LogAttrs(context.Background(), level, "stream", attrs...)
	}
}

// swapServer serves each stream with the server of the config in force; a
// reload swaps it whole, so that a stream sees one config or the other.
type swapServer struct {
	s atomic.Pointer[extproc.Server]
}

func (w *swapServer) Process(srv extprocv3.ExternalProcessor_ProcessServer) error {
	return w.s.Load().Process(srv)
}

// run is the command: it serves until ctx ends, reloading the config on
// each value from reloads.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, reloads <-chan struct{}) int {
	fs := flag.NewFlagSet("jsonmask-extproc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfgPath := fs.String("config", "", "read the config from `FILE`")
	listen := fs.String("listen", "", "serve on `ADDR` (overrides the config; default "+defaultListen+")")
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return 0
	case err != nil:
		return usageError(stderr, err)
	case fs.NArg() > 0:
		return usageError(stderr, fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	case *cfgPath == "":
		return usageError(stderr, errors.New("give -config FILE"))
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	load := func() (*config, *extproc.Server, error) {
		c, err := loadConfig(*cfgPath)
		if err != nil {
			return nil, nil, fmt.Errorf("config %s: %w", *cfgPath, err)
		}
		s, err := c.server(observer(logger))
		if err != nil {
			return nil, nil, fmt.Errorf("config %s: %w", *cfgPath, err)
		}
		return c, s, nil
	}
	cfg, s, err := load()
	if err != nil {
		return usageError(stderr, err)
	}
	addr := cmp.Or(*listen, cfg.Listen, defaultListen)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.Error("listen", "error", err.Error())
		return 1
	}
	var swap swapServer
	swap.s.Store(s)
	g := grpc.NewServer(
		// Streams of an Envoy that went away end; Envoy's own pings are
		// welcome.
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 2 * time.Minute, Timeout: 20 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
	)
	extprocv3.RegisterExternalProcessorServer(g, &swap)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(g, hs)
	errs := make(chan error, 1)
	go func() { errs <- g.Serve(ln) }()
	logger.Info("listening", "addr", ln.Addr().String(), "routes", len(cfg.Routes))

	for {
		select {
		case err := <-errs:
			logger.Error("serve", "error", err.Error())
			return 1
		case <-reloads:
			c, s, err := load()
			if err != nil {
				logger.Error("reload failed; the old config stays", "error", message(err))
				continue
			}
			swap.s.Store(s)
			if cmp.Or(*listen, c.Listen, defaultListen) != addr {
				logger.Warn("reload: the listen address changes only on a restart")
			}
			cfg = c
			logger.Info("reloaded", "routes", len(c.Routes))
		case <-ctx.Done():
			drain := time.Duration(cfg.Limits.DrainTimeout)
			if drain == 0 {
				drain = defaultDrainTimeout
			}
			logger.Info("draining", "deadline", drain.String())
			hs.Shutdown() // health checks say NOT_SERVING while streams end
			stopped := make(chan struct{})
			go func() {
				g.GracefulStop()
				close(stopped)
			}()
			select {
			case <-stopped:
				logger.Info("stopped")
				return 0
			case <-time.After(drain):
				g.Stop() // streams still open are cancelled: Envoy resets them
				<-stopped
				logger.Error("drain cut short: streams were cancelled")
				return 1
			}
		}
	}
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "jsonmask-extproc: %s\nrun 'jsonmask-extproc -h' for usage\n", message(err))
	return 2
}

// message is err's text without the "jsonmask: " that the command's own
// prefix replaces.
func message(err error) string {
	return strings.TrimPrefix(err.Error(), "jsonmask: ")
}

// unwrapPath drops the operation and path of an *os.PathError, which the
// message already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
