package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// File is the config file of `jsonmask serve` (SPEC G11), which the Envoy
// ext_proc server shares without the keys of the proxy's own work
// (ForPlugin):
//
//	{"listen": "127.0.0.1:8080", "admin": "127.0.0.1:9090",
//	 "upstream": "http://127.0.0.1:9000", "case_sensitive_paths": false,
//	 "tls_cert_file": "", "tls_key_file": "",
//	 "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
//	            "max_token_bytes": 67108864, "response_header_timeout": "30s",
//	            "max_idle_conns_per_host": 256, "read_header_timeout": "10s",
//	            "idle_timeout": "120s", "drain_timeout": "30s"},
//	 "routes": [
//	   {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
//	   {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
//	    "strict": true, "statuses": [200, 201], "sse_passthrough": ["[DONE]"]}]}
//
// Read it with Load or Parse, not with json.Unmarshal. A File holds no
// compiled mask: a program that reloads its config reads the mask files
// again.
type File struct {
	// Listen is the address that the server listens on; the command has a
	// default.
	Listen string `json:"listen"`
	// Admin is the address of the admin listener (/metrics and /healthz,
	// SPEC G9); none if empty.
	Admin string `json:"admin"`
	// Upstream is the URL of the reverse proxy's upstream.
	Upstream string `json:"upstream"`
	// TLSCertFile and TLSKeyFile, both or neither, make the server speak
	// HTTPS, HTTP/2 by ALPN (and HTTP/1.1); relative to the config file.
	TLSCertFile string `json:"tls_cert_file"`
	TLSKeyFile  string `json:"tls_key_file"`
	// CaseSensitivePaths is gateway.CaseSensitivePaths.
	CaseSensitivePaths bool `json:"case_sensitive_paths"`
	// Limits are the limits of masked responses and the server's
	// timeouts.
	Limits Limits `json:"limits"`
	// Routes are the masked routes, in any order: the most specific
	// pattern wins (SPEC G1).
	Routes []Route `json:"routes"`

	file string // the file Load read, for messages
}

// BodyLimits are the limits of one masked body (SPEC G6), as
// gateway.Limits has them and with its defaults: zero or absent takes the
// default; -1 turns off max_body_bytes, max_ratio or max_token_bytes;
// max_depth cannot be turned off (SPEC V2).
type BodyLimits struct {
	MaxBodyBytes  int64 `json:"max_body_bytes,omitempty"`  // gateway.Limits.MaxBodyBytes
	MaxRatio      int64 `json:"max_ratio,omitempty"`       // gateway.Limits.MaxRatio
	MaxDepth      int   `json:"max_depth,omitempty"`       // gateway.Limits.MaxDepth
	MaxTokenBytes int   `json:"max_token_bytes,omitempty"` // gateway.Limits.MaxTokenBytes
}

// Limits are the limits section of a File: the body limits, the reverse
// proxy's, and the server's timeouts. Zero or absent takes the default.
type Limits struct {
	BodyLimits
	ResponseHeaderTimeout Duration `json:"response_header_timeout"` // gateway.Limits.ResponseHeaderTimeout
	MaxIdleConnsPerHost   int      `json:"max_idle_conns_per_host"` // gateway.Limits.MaxIdleConnsPerHost
	// ReadHeaderTimeout is http.Server's: how long a client may take to
	// send a request's header. Default DefaultReadHeaderTimeout.
	ReadHeaderTimeout Duration `json:"read_header_timeout"`
	// IdleTimeout is http.Server's: how long a kept-alive connection may
	// wait for its next request. Default DefaultIdleTimeout.
	IdleTimeout Duration `json:"idle_timeout"`
	// DrainTimeout is how long a server that was told to stop waits for
	// the requests in flight (SPEC G10). Default DefaultDrainTimeout.
	DrainTimeout Duration `json:"drain_timeout"`
}

// The defaults of the server's timeouts in Limits; those of the other
// limits are gateway.Limits'.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultDrainTimeout      = 30 * time.Second
)

// Gateway returns the limits that gateway.WithLimits takes.
func (l BodyLimits) Gateway() gateway.Limits {
	return gateway.Limits{MaxBodyBytes: l.MaxBodyBytes, MaxRatio: l.MaxRatio, MaxDepth: l.MaxDepth, MaxTokenBytes: l.MaxTokenBytes}
}

// Gateway returns the limits that gateway.WithLimits takes.
func (l Limits) Gateway() gateway.Limits {
	g := l.BodyLimits.Gateway()
	g.ResponseHeaderTimeout = time.Duration(l.ResponseHeaderTimeout)
	g.MaxIdleConnsPerHost = l.MaxIdleConnsPerHost
	return g
}

// Check refuses limits out of range, naming the key: "limits.max_depth
// must be 0 (the default) or more, got -1".
func (l BodyLimits) Check() error {
	for _, k := range []struct {
		name string
		v    int64
		off  bool // -1 turns it off
	}{
		{"max_body_bytes", l.MaxBodyBytes, true},
		{"max_ratio", l.MaxRatio, true},
		{"max_depth", int64(l.MaxDepth), false},
		{"max_token_bytes", int64(l.MaxTokenBytes), true},
	} {
		switch {
		case k.off && k.v < -1:
			return fmt.Errorf("limits.%s must be -1 (off), 0 (the default) or more, got %d", k.name, k.v)
		case !k.off && k.v < 0:
			return fmt.Errorf("limits.%s must be 0 (the default) or more, got %d", k.name, k.v)
		}
	}
	return nil
}

// Check refuses limits out of range, naming the key.
func (l Limits) Check() error {
	if err := l.BodyLimits.Check(); err != nil {
		return err
	}
	if l.MaxIdleConnsPerHost < 0 {
		return fmt.Errorf("limits.max_idle_conns_per_host must be 0 (the default) or more, got %d", l.MaxIdleConnsPerHost)
	}
	return nil
}

// MaskConfig is a mask and its options: the keys of a route without
// match. Exactly one of Mask, MaskFile and Fields gives the mask.
type MaskConfig struct {
	// Mask is the mask, as JSON (SPEC section 1).
	Mask json.RawMessage `json:"mask,omitempty"`
	// MaskFile is a file that holds the mask as JSON, read when the
	// routes are compiled; Parse and Load make it relative to the config.
	MaskFile string `json:"mask_file,omitempty"`
	// Fields is the mask in the text syntax of SPEC T1 ("id,user(name)").
	Fields string `json:"fields,omitempty"`
	// Arrays masks bodies whose root is an array (SPEC B4).
	Arrays bool `json:"arrays,omitempty"`
	// Strict refuses bodies that are not JSON objects (SPEC B5).
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
	// SSEPassthrough are the data payloads of an event stream that a
	// strict route lets through (SPEC G2). Default ["[DONE]"]; [] for
	// none.
	SSEPassthrough []string `json:"sse_passthrough,omitzero"`
}

// Route is a route (SPEC G1): a request pattern in the syntax of
// net/http's ServeMux and a mask with its options.
type Route struct {
	// Match is the pattern: "[METHOD ][HOST]/path/{name}/{rest...}".
	Match string `json:"match"`
	MaskConfig
}

// Given reports whether c names a mask.
func (c *MaskConfig) Given() bool {
	return len(c.Mask) > 0 || c.MaskFile != "" || c.Fields != ""
}

// Options reports whether c sets an option of a mask.
func (c *MaskConfig) Options() bool {
	return c.Arrays || c.Strict || c.DropMismatched || c.Trusted || c.Wildcards || len(c.Statuses) > 0 || c.SSEPassthrough != nil
}

// Compile compiles the mask that c names, with its options. A mask that
// does not compile is an error that wraps *jsonmask.MaskError.
func (c *MaskConfig) Compile() (*jsonmask.Mask, error) {
	n := 0
	for _, set := range []bool{len(c.Mask) > 0, c.MaskFile != "", c.Fields != ""} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, errors.New("no mask: give \"mask\", \"mask_file\" or \"fields\"")
	case n > 1:
		return nil, errors.New("give one of \"mask\", \"mask_file\" and \"fields\", not both")
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
			return nil, &prefixed{"mask_file " + c.MaskFile, unwrapPath(err)}
		}
		m, err := jsonmask.Compile(src, opts...)
		if err != nil {
			return nil, &prefixed{"mask_file " + c.MaskFile, err}
		}
		return m, nil
	}
	return jsonmask.Compile(bytes.TrimSpace(c.Mask), opts...)
}

// Compile compiles the route into what gateway.NewRoutes takes.
func (r *Route) Compile() (gateway.Route, error) {
	if r.Match == "" {
		return gateway.Route{}, errors.New("no \"match\" pattern")
	}
	m, err := r.MaskConfig.Compile()
	if err != nil {
		return gateway.Route{}, err
	}
	return gateway.Route{Pattern: r.Match, Mask: m, Statuses: r.Statuses, SSEPassthrough: r.SSEPassthrough}, nil
}

// Duration is a time.Duration in a config, written as Go writes one:
// "30s", "1m30s". Negative ones are errors.
type Duration time.Duration

// UnmarshalJSON reads a duration from a JSON string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"30s\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("bad duration %q", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes d as UnmarshalJSON reads it.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// Or returns d, or def if d is zero (absent from the config).
func (d Duration) Or(def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return time.Duration(d)
}

// An Option changes what Load and Parse accept.
type Option func(*options)

type options struct {
	plugin, noRoutes bool
}

// ForPlugin reads the config of a plug-in that runs inside another proxy,
// as the Envoy ext_proc server does: the keys of the proxy's own work,
// "upstream", "admin", "tls_cert_file", "tls_key_file", and the limits
// "response_header_timeout", "max_idle_conns_per_host",
// "read_header_timeout" and "idle_timeout", are errors there, as unknown
// keys are, since a value given would do nothing.
func ForPlugin() Option { return func(o *options) { o.plugin = true } }

// AllowNoRoutes accepts a config without routes, which masks nothing
// (`jsonmask serve -allow-no-routes`). Default: an error, since a config
// that lost its routes would serve every body unmasked.
func AllowNoRoutes() Option { return func(o *options) { o.noRoutes = true } }

// Load reads and checks the config file at path; relative mask_file and
// TLS paths are relative to its directory. Errors are one line:
// "jsonmask: config <path>: <place>: <what>".
func Load(path string, opts ...Option) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, err: unwrapPath(err)}
	}
	f, err := parse(data, filepath.Dir(path), opts)
	if err != nil {
		return nil, &Error{File: path, err: err}
	}
	f.file = path
	return f, nil
}

// Parse is Load for a config in memory: relative paths are made relative
// to dir (left as they are if dir is ""). Its errors begin "jsonmask:
// config: ".
func Parse(data []byte, dir string, opts ...Option) (*File, error) {
	f, err := parse(data, dir, opts)
	if err != nil {
		return nil, &Error{err: err}
	}
	return f, nil
}

func parse(data []byte, dir string, opts []Option) (*File, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var f File
	if err := jsonwire.DecodeStrict(data, &f); err != nil {
		return nil, err
	}
	if o.plugin {
		if k := f.proxyKey(); k != "" {
			return nil, fmt.Errorf("%s: a key of a proxy, which a plug-in does not use", k)
		}
	}
	if err := f.Limits.Check(); err != nil {
		return nil, err
	}
	if (f.TLSCertFile == "") != (f.TLSKeyFile == "") {
		return nil, errors.New("tls_cert_file and tls_key_file: give both or neither")
	}
	if len(f.Routes) == 0 && !o.noRoutes {
		return nil, errors.New("routes: none given, and a config without routes masks nothing (allow it with -allow-no-routes)")
	}
	if dir != "" {
		rel := func(p *string) {
			if *p != "" && !filepath.IsAbs(*p) {
				*p = filepath.Join(dir, *p)
			}
		}
		for i := range f.Routes {
			rel(&f.Routes[i].MaskFile)
		}
		rel(&f.TLSCertFile)
		rel(&f.TLSKeyFile)
	}
	return &f, nil
}

// proxyKey returns the first key set that ForPlugin refuses, or "".
func (f *File) proxyKey() string {
	for _, k := range []struct {
		name string
		set  bool
	}{
		{"upstream", f.Upstream != ""},
		{"admin", f.Admin != ""},
		{"tls_cert_file", f.TLSCertFile != ""},
		{"tls_key_file", f.TLSKeyFile != ""},
		{"limits.response_header_timeout", f.Limits.ResponseHeaderTimeout != 0},
		{"limits.max_idle_conns_per_host", f.Limits.MaxIdleConnsPerHost != 0},
		{"limits.read_header_timeout", f.Limits.ReadHeaderTimeout != 0},
		{"limits.idle_timeout", f.Limits.IdleTimeout != 0},
	} {
		if k.set {
			return k.name
		}
	}
	return ""
}

// CompileRoutes reads and compiles the routes' masks and returns the
// routes, matched as CaseSensitivePaths says. Every fault is an error that
// names the route by its place and pattern:
// "jsonmask: config <path>: routes[0] (\"GET /v1/items\"): mask_file: no
// such file or directory"; it wraps the compiler's *jsonmask.MaskError
// where the mask is at fault, and names the other route of a conflict.
func (f *File) CompileRoutes() (*gateway.Routes, error) {
	routes := make([]gateway.Route, 0, len(f.Routes))
	for i := range f.Routes {
		rt, err := f.Routes[i].Compile()
		if err != nil {
			return nil, &Error{File: f.file, Place: fmt.Sprintf("routes[%d] (%q)", i, f.Routes[i].Match), err: err}
		}
		routes = append(routes, rt)
	}
	rs, err := gateway.NewRoutes(routes, gateway.CaseSensitivePaths(f.CaseSensitivePaths))
	if err != nil {
		return nil, &Error{File: f.file, err: err}
	}
	return rs, nil
}

// Error is a fault of a config: "jsonmask: config <file>: <place>: <what>",
// or "jsonmask: config: ..." for one that was not read from a file. What is
// the wrapped error's errs.Detail: the prefix is said once.
type Error struct {
	File  string // the file, "" if none
	Place string // the route, "routes[0] (\"/v1/\")", or ""
	err   error
}

func (e *Error) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: " (errs.Detail).
func (e *Error) Detail() string {
	file := ""
	if e.File != "" {
		file = " " + e.File
	}
	place := ""
	if e.Place != "" {
		place = e.Place + ": "
	}
	return "config" + file + ": " + place + errs.Detail(e.err)
}

// Unwrap returns the fault: a *jsonmask.MaskError, an os error, ...
func (e *Error) Unwrap() error { return e.err }

// prefixed is err said of where: "<where>: <err's errs.Detail>".
type prefixed struct {
	where string
	err   error
}

func (e *prefixed) Error() string {
	return e.where + ": " + errs.Detail(e.err)
}

func (e *prefixed) Unwrap() error { return e.err }

// unwrapPath drops the operation and path of an *os.PathError, which the
// message already names: "no such file or directory".
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
