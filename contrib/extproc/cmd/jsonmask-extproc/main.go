// Command jsonmask-extproc serves Envoy's external processing API
// (envoy.service.ext_proc.v3) and masks the response bodies of its routes:
// jsonmask beside an Envoy fleet, without another proxy hop. Run it next to
// each Envoy (same host or pod) and point Envoy's ext_proc filter at it;
// contrib/extproc/README.md has the envoy.yaml.
//
//	jsonmask-extproc -config FILE [-listen ADDR]
//
// The config is the routes and limits of `jsonmask serve` (SPEC G11),
// without what Envoy does itself (upstream, timeouts): gateway.Config, read
// with gateway.ForPlugin.
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
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask/contrib/extproc"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/internal/reportlog"
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

// defaultListen is where the server listens unless -listen or the config
// says otherwise.
const defaultListen = "127.0.0.1:50051"

// newServer compiles the config into an ext_proc server.
func newServer(c *gateway.Config, observe func(gateway.Report)) (*extproc.Server, error) {
	rs, err := c.CompileRoutes()
	if err != nil {
		return nil, err
	}
	return extproc.NewServer(rs, extproc.WithLimits(c.Limits.Gateway()), extproc.WithObserver(observe)), nil
}

// observer logs one line per stream, as jsonmask serve logs one per
// request; the report holds no body content.
func observer(logger *slog.Logger) func(gateway.Report) {
	return func(r gateway.Report) { reportlog.Log(logger, "stream", r) }
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
	load := func() (*gateway.Config, *extproc.Server, error) {
		c, err := gateway.LoadConfig(*cfgPath, gateway.ForPlugin())
		if err != nil {
			return nil, nil, err
		}
		s, err := newServer(c, observer(logger))
		if err != nil {
			return nil, nil, err
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
			drain := cfg.Limits.DrainTimeout.Or(gateway.DefaultDrainTimeout)
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
