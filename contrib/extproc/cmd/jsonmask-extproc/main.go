// Command jsonmask-extproc serves Envoy's external processing API
// (envoy.service.ext_proc.v3) and masks the response bodies of its routes:
// jsonmask beside an Envoy fleet, without another proxy hop. Run it next to
// each Envoy (same host or pod) and point Envoy's ext_proc filter at it;
// contrib/extproc/README.md has the envoy.yaml.
//
//	jsonmask-extproc -config FILE [-listen ADDR]
//
// The config is the routes and limits of `jsonmask serve` (SPEC G11),
// without what Envoy does itself (upstream, timeouts, TLS): a config.File,
// read with config.ForPlugin by the same strict parser.
//
//	{"listen": "127.0.0.1:50051", "case_sensitive_paths": false,
//	 "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
//	            "max_token_bytes": 67108864, "drain_timeout": "30s"},
//	 "routes": [
//	   {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
//	   {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
//	    "strict": true, "statuses": [200, 201]}]}
//
// Unknown keys, keys given twice or in another case, limits out of range
// and an empty route list are errors (a typo must not silently disable a
// mask); mask_file paths are relative to the config file. The gRPC server also
// serves the standard health service (grpc.health.v1), for Envoy's
// health checks. Each stream logs one JSON line on standard error (route,
// status, outcome, bytes in and out, times; never body content). SIGHUP
// reloads the config (a bad one is logged and the old one kept); SIGTERM
// and SIGINT drain the streams in flight, up to limits.drain_timeout.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask/config"
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

config (JSON; unknown keys, keys given twice or in another case are errors;
mask_file is relative to the file):
  {"listen": "127.0.0.1:50051", "case_sensitive_paths": false,
   "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
              "max_token_bytes": 67108864, "drain_timeout": "30s"},
   "routes": [
     {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
     {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
      "strict": true, "drop_mismatched": false, "trusted": false, "statuses": [200, 201],
      "sse_passthrough": ["[DONE]"]},
     {"match": "GET /v2/users/{id}", "fields": "id,name,orgs(id)"}]}
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

// defaultListen is where the server listens unless -listen or the config
// says otherwise.
const defaultListen = "127.0.0.1:50051"

// newServer compiles the config into an ext_proc server.
func newServer(c *config.File, observe func(gateway.Report)) (*extproc.Server, error) {
	rs, err := c.CompileRoutes()
	if err != nil {
		return nil, err
	}
	return extproc.NewServer(rs, extproc.WithLimits(c.Limits.Gateway()), extproc.WithObserver(observe)), nil
}

// observer logs one line per stream, as jsonmask serve logs one per
// request, with the same keys and levels (gateway.Report.LogAttrs, Level);
// the report holds no body content, and its error is redacted.
func observer(logger *slog.Logger) func(gateway.Report) {
	return func(r gateway.Report) {
		logger.LogAttrs(context.Background(), r.Level(), "stream", r.LogAttrs()...)
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

// service is the command's config.Service: the gRPC server, its health
// service, and the ext_proc server of the config in force.
type service struct {
	swap    swapServer
	g       *grpc.Server
	hs      *health.Server
	observe func(gateway.Report)
}

func (s *service) Reload(f *config.File) error {
	srv, err := newServer(f, s.observe)
	if err != nil {
		return err
	}
	s.swap.s.Store(srv)
	return nil
}

// Unhealthy makes the health checks say NOT_SERVING while streams end.
func (s *service) Unhealthy() { s.hs.Shutdown() }

// Drain waits for the streams in flight; at ctx's end those still open
// are cancelled, and Envoy resets them.
func (s *service) Drain(ctx context.Context) error {
	stopped := make(chan struct{})
	go func() {
		s.g.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
		return nil
	case <-ctx.Done():
		s.g.Stop()
		<-stopped
		return errors.New("streams were cancelled")
	}
}

func (s *service) Close() { s.g.Stop() }

// run is the command: it serves until ctx ends, reloading the config on
// each value from reloads.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, reloads <-chan struct{}) int {
	fs := flag.NewFlagSet("jsonmask-extproc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfgPath := fs.String("config", "", "read the config from `FILE`")
	listen := fs.String("listen", "", "serve on `ADDR` (overrides the config; default "+defaultListen+")")
	noRoutes := fs.Bool("allow-no-routes", false, "accept a config without routes, which masks nothing")
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
	opts := []config.Option{config.ForPlugin()}
	if *noRoutes {
		opts = append(opts, config.AllowNoRoutes())
	}
	load := func() (*config.File, error) {
		c, err := config.Load(*cfgPath, opts...)
		if err != nil {
			return nil, err
		}
		if *listen != "" {
			c.Listen = *listen
		}
		c.Listen = cmp.Or(c.Listen, defaultListen)
		return c, nil
	}
	svc := &service{observe: observer(logger)}
	cfg, err := load()
	if err == nil {
		err = svc.Reload(cfg)
	}
	if err != nil {
		return usageError(stderr, err)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return usageError(stderr, fmt.Errorf("listen: %w", err))
	}
	svc.g = grpc.NewServer(
		// Streams of an Envoy that went away end; Envoy's own pings are
		// welcome.
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 2 * time.Minute, Timeout: 20 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
	)
	extprocv3.RegisterExternalProcessorServer(svc.g, &svc.swap)
	svc.hs = health.NewServer()
	healthpb.RegisterHealthServer(svc.g, svc.hs)
	errs := make(chan error, 1)
	go func() { errs <- svc.g.Serve(ln) }()
	logger.Info("listening", "addr", ln.Addr().String(), "routes", len(cfg.Routes))
	return config.Run(ctx, svc, cfg, load, reloads, errs, logger)
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s\nrun 'jsonmask-extproc -h' for usage\n", said(err))
	return 2
}

// said is the line for err, chosen by its own type: a *config.Error
// begins with "jsonmask: config FILE: " and says where in the config, so
// it is said whole; the command's own errors, the flag package's and the
// OS's begin with "jsonmask-extproc: ". No message is cut apart.
func said(err error) string {
	if _, ok := err.(*config.Error); ok {
		return err.Error()
	}
	return "jsonmask-extproc: " + err.Error()
}
