package jsonmaskcaddy

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/jsonmask/jsonmask/config"
	"github.com/jsonmask/jsonmask/gateway"
)

func init() {
	caddy.RegisterModule(Handler{})
}

// Handler is the module http.handlers.jsonmask: it masks the responses of
// the handlers after it (SPEC section 8). Its fields are its JSON config;
// Provision compiles the masks once, and a provisioned Handler is safe for
// concurrent use.
type Handler struct {
	// The mask of every request that reaches the handler and matches none
	// of Routes; optional when Routes are given.
	MaskConfig

	// Routes are masks for request patterns, matched as in `jsonmask
	// serve` (SPEC G1, G8); the most specific wins.
	Routes []Route `json:"routes,omitempty"`

	// CaseSensitivePaths compares the letters of Routes' paths with their
	// case. Default false: "/V1/Items" matches "/v1/items" (SPEC G8).
	CaseSensitivePaths bool `json:"case_sensitive_paths,omitempty"`

	// Limits bound what one masked response may cost (SPEC G6).
	Limits *Limits `json:"limits,omitempty"`

	mw     *gateway.Middleware
	logger *zap.Logger
}

// MaskConfig is a mask and its options, the keys of a route of `jsonmask
// serve` without match (SPEC G11): config.MaskConfig, read by the same
// strict parser. Exactly one of mask, mask_file and fields gives the mask;
// a relative mask_file is relative to Caddy's working directory, as every
// path of a Caddy config.
type MaskConfig = config.MaskConfig

// Route is a mask for the requests that match a pattern, as a route of
// `jsonmask serve`: config.Route.
type Route = config.Route

// Limits are the gateway's body limits (SPEC G6), as the limits of
// `jsonmask serve` have them: config.BodyLimits. A zero or absent key
// takes the default, -1 turns max_body_bytes, max_ratio or
// max_token_bytes off; max_depth cannot be turned off (SPEC V2).
type Limits = config.BodyLimits

// UnmarshalJSON reads the handler's JSON config with the strict parser of
// `jsonmask serve` (config.DecodeStrict): a key given twice, a key in
// another case and an unknown key are errors that name the key and its
// place, so that a typo cannot silently disable a mask.
func (h *Handler) UnmarshalJSON(b []byte) error {
	type plain Handler // without this method
	return config.DecodeStrict(b, (*plain)(h))
}

// CaddyModule returns the module's information.
func (Handler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.handlers.jsonmask",
		New: func() caddy.Module { return new(Handler) },
	}
}

// catchAll is the pattern of the handler's own mask: every request.
const catchAll = "/"

// Provision reads and compiles the masks and builds the gateway's
// middleware. Every fault of the config is an error here, so that Caddy
// refuses the config (and keeps the one in force, on a reload).
func (h *Handler) Provision(ctx caddy.Context) error {
	h.logger = ctx.Logger()
	var routes []gateway.Route
	for i, rc := range h.Routes {
		where := fmt.Sprintf("route %d (%q)", i, rc.Match)
		switch {
		case rc.Match == "":
			return configError(where, errors.New("no match pattern"))
		case rc.Match == catchAll && h.Given():
			return configError(where, errors.New(`the pattern "/" is the handler's own mask's: give that mask at the top or in the route, not both`))
		case !rc.Given():
			return configError(where, errors.New("no mask: give mask, mask_file or fields"))
		}
		rt, err := rc.Compile()
		if err != nil {
			return configError(where, err)
		}
		routes = append(routes, rt)
	}
	switch {
	case h.Given():
		// Last, so that the gateway's messages number routes as the
		// config does.
		m, err := h.MaskConfig.Compile()
		if err != nil {
			return configError("", err)
		}
		routes = append(routes, gateway.Route{Pattern: catchAll, Mask: m, Statuses: h.Statuses, SSEPassthrough: h.SSEPassthrough})
	case h.Options():
		return configError("", errors.New("mask options without a mask: give mask, mask_file or fields"))
	case len(routes) == 0:
		// A handler that masks nothing is a config that lost its mask.
		return configError("", errors.New("no mask: give mask, mask_file, fields or routes"))
	}
	rs, err := gateway.NewRoutes(routes, gateway.CaseSensitivePaths(h.CaseSensitivePaths))
	if err != nil {
		return configError("", routeFault(err))
	}
	var lim gateway.Limits
	if l := h.Limits; l != nil {
		if err := l.Check(); err != nil {
			return configError("", err)
		}
		lim = l.Gateway()
	}
	h.mw = gateway.NewMiddleware(rs, gateway.WithLimits(lim), gateway.WithObserver(h.observe))
	return nil
}

// ServeHTTP masks what next writes. An error of next before it wrote
// anything is returned to Caddy, whose error handling answers it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	return h.mw.ServeNext(w, r, next.ServeHTTP)
}

// observe logs each request with the keys of `jsonmask serve`
// (gateway.Report.LogAttrs): failures at their level (Report.Level), the
// others at the debug level, since Caddy's access log has them already. A
// report holds no body content, and its error is redacted.
func (h *Handler) observe(rep gateway.Report) {
	level := zapcore.DebugLevel
	switch l := rep.Level(); {
	case l >= slog.LevelError:
		level = zapcore.ErrorLevel
	case l >= slog.LevelWarn:
		level = zapcore.WarnLevel
	}
	ce := h.logger.Check(level, "jsonmask "+string(rep.Outcome))
	if ce == nil {
		return
	}
	if rep.Status == 0 {
		// An error of the next handler that went back to Caddy: Caddy's
		// to log; its text may not be the gateway's to redact.
		rep.Err = nil
	}
	attrs := rep.LogAttrs()
	fields := make([]zap.Field, 0, len(attrs))
	for _, a := range attrs {
		fields = append(fields, zap.Any(a.Key, a.Value.Any()))
	}
	ce.Write(fields...)
}

// configError is a fault of the config: "<where>: <what>". Caddy's own
// message names the module ("provision http.handlers.jsonmask: ..."), so
// a compile error is said by what, without its "jsonmask: ".
func configError(where string, err error) error {
	return &provisionError{where: where, err: err}
}

type provisionError struct {
	where string
	err   error
}

func (e *provisionError) Error() string {
	if e.where == "" {
		return what(e.err)
	}
	return e.where + ": " + what(e.err)
}

func (e *provisionError) Unwrap() error { return e.err }

// Interface guards
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)
