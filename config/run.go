package config

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/jsonmask/jsonmask/internal/errs"
)

// A Service is what Run drives: a command's listeners, serving with the
// config in force.
type Service interface {
	// Reload compiles f and puts it in force, whole and at once, or
	// returns an error and changes nothing.
	Reload(f *File) error
	// Unhealthy turns the health check to "not serving": the first
	// moment of a drain (SPEC G10).
	Unhealthy()
	// Drain stops taking requests and waits for the requests in flight
	// until they end or ctx does.
	Drain(ctx context.Context) error
	// Close stops at once.
	Close()
}

// Run drives svc, which serves cur, until ctx ends (SIGTERM, SIGINT): then
// it drains, up to cur's limits.drain_timeout, and returns 0, or 1 if the
// drain was cut short. On each value of reloads (SIGHUP) it loads the
// config again: a bad one is logged and the old one kept; a good one is put
// in force, its drain_timeout included, with a warning that names each
// setting that changes only on a restart (RestartOnly). A value of failed, a
// listener that failed, stops it with 1.
func Run(ctx context.Context, svc Service, cur *File, load func() (*File, error), reloads <-chan struct{}, failed <-chan error, logger *slog.Logger) int {
	for {
		select {
		case err := <-failed:
			logger.Error("serve", "error", err.Error())
			svc.Close()
			return 1
		case <-reloads:
			f, err := load()
			if err == nil {
				err = svc.Reload(f)
			}
			if err != nil {
				logger.Error("reload failed; the old config stays", "error", errs.Detail(err))
				continue
			}
			if keys := RestartOnly(cur, f); len(keys) > 0 {
				logger.Warn("reload: these settings change only on a restart", "keys", strings.Join(keys, ", "))
			}
			cur = f
			logger.Info("reloaded", "upstream", f.Upstream, "routes", len(f.Routes))
		case <-ctx.Done():
			svc.Unhealthy()
			drain := cur.Limits.DrainTimeout.Or(DefaultDrainTimeout)
			logger.Info("draining", "deadline", drain.String())
			dctx, cancel := context.WithTimeout(context.Background(), drain)
			err := svc.Drain(dctx)
			cancel()
			if err != nil {
				logger.Error("drain cut short", "error", err.Error())
				svc.Close()
				return 1
			}
			logger.Info("stopped")
			return 0
		}
	}
}

// RestartOnly returns the keys whose values differ between old and new
// and that a running server cannot change: the listeners and their TLS
// files, and http.Server's timeouts, which its connections read as they
// go. The rest (routes, limits, upstream, response_header_timeout,
// max_idle_conns_per_host, drain_timeout) applies on a reload.
func RestartOnly(old, new *File) []string {
	var keys []string
	for _, k := range []struct {
		name string
		same bool
	}{
		{"listen", old.Listen == new.Listen},
		{"admin", old.Admin == new.Admin},
		{"tls_cert_file", old.TLSCertFile == new.TLSCertFile},
		{"tls_key_file", old.TLSKeyFile == new.TLSKeyFile},
		{"limits.read_header_timeout", sameDuration(old.Limits.ReadHeaderTimeout, new.Limits.ReadHeaderTimeout, DefaultReadHeaderTimeout)},
		{"limits.idle_timeout", sameDuration(old.Limits.IdleTimeout, new.Limits.IdleTimeout, DefaultIdleTimeout)},
	} {
		if !k.same {
			keys = append(keys, k.name)
		}
	}
	return keys
}

func sameDuration(a, b Duration, def time.Duration) bool { return a.Or(def) == b.Or(def) }
