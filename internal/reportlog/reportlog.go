// Package reportlog writes the gateway's reports as log lines: the one
// structured line per request of SPEC G9, which `jsonmask serve` and
// jsonmask-extproc both write and which must say the same things under the
// same keys. It keeps log/slog out of package gateway, which exposes only
// the hook (gateway.WithObserver). Log writes the line through any
// slog.Logger; Lines writes the same bytes as slog's JSON handler for
// serve's hot path, five times faster.
package reportlog

import (
	"context"
	"log/slog"
	"time"

	"github.com/jsonmask/jsonmask/gateway"
)

// Log logs r as one line with the message msg, the attributes
// r.LogAttrs() and the level r.Level(). It hands the record to the
// logger's handler itself, without the caller's program counter that
// Logger.LogAttrs takes on every line (runtime.Callers: a fifth of the
// line's cost): the line has no "source".
func Log(logger *slog.Logger, msg string, r gateway.Report) {
	ctx, level := context.Background(), r.Level()
	h := logger.Handler()
	if !h.Enabled(ctx, level) {
		return
	}
	rec := slog.NewRecord(time.Now(), level, msg, 0)
	rec.AddAttrs(r.LogAttrs()...)
	_ = h.Handle(ctx, rec) // as Logger.LogAttrs: a failed write is not the request's
}
