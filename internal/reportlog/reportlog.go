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

// Log logs r as one line with the message msg, the attributes
// r.LogAttrs() and the level r.Level().
func Log(logger *slog.Logger, msg string, r gateway.Report) {
	logger.LogAttrs(context.Background(), r.Level(), msg, r.LogAttrs()...)
}
