package jsonmaskcaddy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/jsonmask/jsonmask"
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

// MaskConfig is a mask and its options, the keys of a route of
// `jsonmask serve` (SPEC G11) without match. Exactly one of Mask, MaskFile
// and Fields gives the mask.
type MaskConfig struct {
	// Mask is the mask, as JSON (SPEC section 1).
	Mask json.RawMessage `json:"mask,omitempty"`
	// MaskFile is a file that holds the mask as JSON, read when the
	// config is loaded; a relative path is relative to Caddy's working
	// directory, as every path of a Caddy config.
	MaskFile string `json:"mask_file,omitempty"`
	// Fields is the mask in the text syntax of SPEC T1 ("id,user(name)").
	Fields string `json:"fields,omitempty"`

	// Arrays masks bodies whose root is an array (SPEC B4).
	Arrays bool `json:"arrays,omitempty"`
	// Strict refuses, with a 502, bodies that are not JSON objects (SPEC
	// B5) instead of passing them.
	Strict bool `json:"strict,omitempty"`
	// DropMismatched drops scalars met where the mask has an object
	// (SPEC A6).
	DropMismatched bool `json:"drop_mismatched,omitempty"`
	// Trusted checks dropped parts for quoting and nesting only (SPEC V4).
	Trusted bool `json:"trusted,omitempty"`
	// Wildcards reads the key "*" of a JSON mask as any other key (SPEC
	// T2); a fields mask always does.
	Wildcards bool `json:"wildcards,omitempty"`
	// Statuses are the statuses whose bodies are masked. Default: every
	// 2xx.
	Statuses []int `json:"statuses,omitempty"`
}

// Route is a mask for the requests that match a pattern.
type Route struct {
	// Match is a request pattern in the syntax of net/http's ServeMux,
	// "[METHOD ][HOST]/path/{name}/{rest...}" (SPEC G1).
	Match string `json:"match"`
	MaskConfig
}

// Limits are the gateway's limits (SPEC G6); a zero or absent key takes
// the default, and a negative MaxBodyBytes, MaxRatio or MaxTokenBytes
// turns that limit off. MaxDepth cannot be turned off (SPEC V2).
type Limits struct {
	// MaxBodyBytes is the largest decoded body; for an event stream, the
	// largest event. Default 256 MiB.
	MaxBodyBytes int64 `json:"max_body_bytes,omitempty"`
	// MaxRatio is the most decoded bytes per coded byte, past 1 MiB
	// decoded: a decompression bomb stops there. Default 200.
	MaxRatio int64 `json:"max_ratio,omitempty"`
	// MaxDepth is the deepest nesting (SPEC V2). Default 10000.
	MaxDepth int `json:"max_depth,omitempty"`
	// MaxTokenBytes is the longest string or number. Default 64 MiB.
	MaxTokenBytes int `json:"max_token_bytes,omitempty"`
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
		case rc.Match == catchAll && h.given():
			return configError(where, errors.New(`the pattern "/" is the handler's own mask's: give that mask at the top or in the route, not both`))
		case !rc.given():
			return configError(where, errors.New("no mask: give mask, mask_file or fields"))
		}
		m, err := rc.compile()
		if err != nil {
			return configError(where, err)
		}
		routes = append(routes, gateway.Route{Pattern: rc.Match, Mask: m, Statuses: rc.Statuses})
	}
	switch {
	case h.given():
		// Last, so that the gateway's messages number routes as the
		// config does.
		m, err := h.MaskConfig.compile()
		if err != nil {
			return configError("", err)
		}
		routes = append(routes, gateway.Route{Pattern: catchAll, Mask: m, Statuses: h.Statuses})
	case h.options():
		return configError("", errors.New("mask options without a mask: give mask, mask_file or fields"))
	case len(routes) == 0:
		// A handler that masks nothing is a config that lost its mask.
		return configError("", errors.New("no mask: give mask, mask_file, fields or routes"))
	}
	rs, err := gateway.NewRoutes(routes, gateway.CaseSensitivePaths(h.CaseSensitivePaths))
	if err != nil {
		return configError("", err)
	}
	var lim gateway.Limits
	if l := h.Limits; l != nil {
		if l.MaxDepth < 0 {
			return configError("limits", errors.New("max_depth must be positive: nesting always has a limit"))
		}
		lim = gateway.Limits{MaxBodyBytes: l.MaxBodyBytes, MaxRatio: l.MaxRatio, MaxDepth: l.MaxDepth, MaxTokenBytes: l.MaxTokenBytes}
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

// given reports whether c names a mask.
func (c *MaskConfig) given() bool {
	return len(c.Mask) > 0 || c.MaskFile != "" || c.Fields != ""
}

// options reports whether c sets an option of a mask.
func (c *MaskConfig) options() bool {
	return c.Arrays || c.Strict || c.DropMismatched || c.Trusted || c.Wildcards || len(c.Statuses) > 0
}

// compile compiles the mask that c names, with its options.
func (c *MaskConfig) compile() (*jsonmask.Mask, error) {
	n := 0
	for _, set := range []bool{len(c.Mask) > 0, c.MaskFile != "", c.Fields != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return nil, errors.New("give one of mask, mask_file and fields")
	}
	opts := []jsonmask.Option{
		jsonmask.WithArrays(c.Arrays), jsonmask.WithStrict(c.Strict),
		jsonmask.WithDropMismatched(c.DropMismatched), jsonmask.WithTrustedInput(c.Trusted),
		jsonmask.WithWildcards(c.Wildcards),
	}
	switch {
	case c.Fields != "":
		return jsonmask.CompileFields(c.Fields, opts...)
	case c.MaskFile != "":
		src, err := os.ReadFile(c.MaskFile)
		if err != nil {
			return nil, fmt.Errorf("mask_file: %w", err)
		}
		m, err := jsonmask.Compile(src, opts...)
		if err != nil {
			return nil, configError("mask_file "+c.MaskFile, err)
		}
		return m, nil
	}
	return jsonmask.Compile(bytes.TrimSpace(c.Mask), opts...)
}

// configError is a fault of the config: "<where>: <what>". Caddy's own
// message names the module ("provision http.handlers.jsonmask: ..."), so
// the "jsonmask: " of a compile error is left out.
func configError(where string, err error) error {
	return &provisionError{where: where, err: err}
}

type provisionError struct {
	where string
	err   error
}

func (e *provisionError) Error() string {
	what := trimPrefix(e.err)
	if e.where == "" {
		return what
	}
	return e.where + ": " + what
}

func (e *provisionError) Unwrap() error { return e.err }

// Interface guards
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)
