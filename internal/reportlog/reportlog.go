// Package reportlog writes the gateway's reports as log lines: the one
// structured line per request of SPEC G9, which `jsonmask serve` and
// jsonmask-extproc both write and which must say the same things under the
// same keys. It keeps log/slog out of package gateway, which exposes only
// the hook (gateway.WithObserver).
package reportlog

import (
	"context"
	"log/slog"

	"github.com/jsonmask/jsonmask/gateway"
)

// Log logs r as one line with the message msg and the keys route, method,
// path, status, outcome, bytes_in, bytes_out, mask_ms and duration_ms: at
// the Info level, or at Warn with the key error when r has one. The line
// holds no body content: a report has none.
func Log(logger *slog.Logger, msg string, r gateway.Report) {
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
	logger.LogAttrs(context.Background(), level, msg, attrs...)
}
