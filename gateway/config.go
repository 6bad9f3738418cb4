package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jsonmask/jsonmask"
)

// Config is the config file of `jsonmask serve` (SPEC G11) in its JSON
// form, which the Envoy ext_proc server shares (without the keys of the
// proxy's own work: ForPlugin):
//
//	{"listen": "127.0.0.1:8080", "admin": "127.0.0.1:9090",
//	 "upstream": "http://127.0.0.1:9000", "case_sensitive_paths": false,
//	 "limits": {"max_body_bytes": 268435456, "max_ratio": 200, "max_depth": 10000,
//	            "max_token_bytes": 67108864, "response_header_timeout": "30s",
//	            "read_header_timeout": "10s", "idle_timeout": "120s",
//	            "drain_timeout": "30s"},
//	 "routes": [
//	   {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
//	   {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
//	    "strict": true, "drop_mismatched": false, "trusted": false, "statuses": [200, 201]}]}
//
// Read it with LoadConfig or ParseConfig, not with json.Unmarshal: they
// refuse unknown keys, so that a typo cannot silently disable a mask, and
// resolve mask_file paths. CompileRoutes and Limits.Gateway give what
// NewRoutes and WithLimits make of it. A Config holds no compiled mask:
// a program that reloads its config reads the mask files again.
type Config struct {
	// Listen is the address that the server listens on; the command has a
	// default.
	Listen string `json:"listen"`
	// Admin is the address of the admin listener (/metrics and /healthz,
	// SPEC G9); none if empty.
	Admin string `json:"admin"`
	// Upstream is the URL of the reverse proxy's upstream.
	Upstream string `json:"upstream"`
	// CaseSensitivePaths is the RoutesOption CaseSensitivePaths.
	CaseSensitivePaths bool `json:"case_sensitive_paths"`
	// Limits are the limits of masked responses and the server's
	// timeouts.
	Limits ConfigLimits `json:"limits"`
	// Routes are the masked routes, in any order: the most specific
	// pattern wins (SPEC G1).
	Routes []RouteConfig `json:"routes"`

	file string // the file LoadConfig read, for messages
}

// ConfigLimits are the limits of a Config (SPEC G6): a zero or absent key
// takes the default. The first five are those of Limits, with the same
// meanings and defaults; the last three are the server's.
type ConfigLimits struct {
	MaxBodyBytes          int64    `json:"max_body_bytes"`          // Limits.MaxBodyBytes
	MaxRatio              int64    `json:"max_ratio"`               // Limits.MaxRatio
	MaxDepth              int      `json:"max_depth"`               // Limits.MaxDepth
	MaxTokenBytes         int      `json:"max_token_bytes"`         // Limits.MaxTokenBytes
	ResponseHeaderTimeout Duration `json:"response_header_timeout"` // Limits.ResponseHeaderTimeout
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

// The defaults of the server's timeouts in ConfigLimits.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultDrainTimeout      = 30 * time.Second
)

// Gateway returns the limits that WithLimits takes.
func (l ConfigLimits) Gateway() Limits {
	return Limits{
		MaxBodyBytes: l.MaxBodyBytes, MaxRatio: l.MaxRatio, MaxDepth: l.MaxDepth, MaxTokenBytes: l.MaxTokenBytes,
		ResponseHeaderTimeout: time.Duration(l.ResponseHeaderTimeout),
	}
}

// RouteConfig is a route of a Config (SPEC G1): a pattern, a mask given
// inline (Mask) or in a file (MaskFile), the mask's options, and the
// statuses it applies to (every 2xx if none).
type RouteConfig struct {
	Match          string          `json:"match"`
	Mask           json.RawMessage `json:"mask"`
	MaskFile       string          `json:"mask_file"`
	Arrays         bool            `json:"arrays"`          // jsonmask.WithArrays
	Strict         bool            `json:"strict"`          // jsonmask.WithStrict
	DropMismatched bool            `json:"drop_mismatched"` // jsonmask.WithDropMismatched
	Trusted        bool            `json:"trusted"`         // jsonmask.WithTrustedInput
	Statuses       []int           `json:"statuses"`
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

// A ConfigOption changes what LoadConfig and ParseConfig accept.
type ConfigOption func(*configOptions)

type configOptions struct {
	plugin bool
}

// ForPlugin reads the config of a plug-in that runs inside another proxy,
// as the Envoy ext_proc server does: the keys of the proxy's own work,
// "upstream", "admin", and the limits "response_header_timeout",
// "read_header_timeout" and "idle_timeout", are errors there, as unknown
// keys are, since a value given would do nothing. Default: every key of
// SPEC G11 is known.
func ForPlugin() ConfigOption {
	return func(o *configOptions) { o.plugin = true }
}

// LoadConfig reads and checks the config file at path; relative mask_file
// paths are relative to its directory. Errors are one line:
// "jsonmask: config <path>: <what>", with an offset where the JSON is at
// fault: unknown keys ("unknown key \"mask_fil\" before offset 80"),
// values of the wrong type, JSON that is not valid, data after the
// config's object.
func LoadConfig(path string, opts ...ConfigOption) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &configError{file: path, err: unwrapPath(err)}
	}
	c, err := parseConfig(data, filepath.Dir(path), opts)
	if err != nil {
		return nil, &configError{file: path, err: err}
	}
	c.file = path
	return c, nil
}

// ParseConfig is LoadConfig for a config in memory: relative mask_file
// paths are made relative to dir (left as they are if dir is ""). Its
// errors begin "jsonmask: config: ".
func ParseConfig(data []byte, dir string, opts ...ConfigOption) (*Config, error) {
	c, err := parseConfig(data, dir, opts)
	if err != nil {
		return nil, &configError{err: err}
	}
	return c, nil
}

func parseConfig(data []byte, dir string, opts []ConfigOption) (*Config, error) {
	var o configOptions
	for _, opt := range opts {
		opt(&o)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, decodeError(err, dec, len(data))
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the config's object at offset %d", dec.InputOffset())
	}
	if o.plugin {
		if k := c.proxyKey(); k != "" {
			return nil, fmt.Errorf("unknown key %q before offset %d", k, dec.InputOffset())
		}
	}
	if dir != "" {
		for i := range c.Routes {
			if f := c.Routes[i].MaskFile; f != "" && !filepath.IsAbs(f) {
				c.Routes[i].MaskFile = filepath.Join(dir, f)
			}
		}
	}
	return &c, nil
}

// proxyKey returns the first key set that ForPlugin refuses, or "". It
// looks at values, not keys: encoding/json matches keys without case, and
// a key set to its zero value does nothing anywhere.
func (c *Config) proxyKey() string {
	for _, k := range []struct {
		name string
		set  bool
	}{
		{"upstream", c.Upstream != ""},
		{"admin", c.Admin != ""},
		{"response_header_timeout", c.Limits.ResponseHeaderTimeout != 0},
		{"read_header_timeout", c.Limits.ReadHeaderTimeout != 0},
		{"idle_timeout", c.Limits.IdleTimeout != 0},
	} {
		if k.set {
			return k.name
		}
	}
	return ""
}

// decodeError says what encoding/json found wrong, in the config's terms;
// size is the config's.
func decodeError(err error, dec *json.Decoder, size int) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
		return fmt.Errorf("invalid JSON: the config ends early at offset %d", size)
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at offset %d: %s", se.Offset, msg)
	case errors.As(err, &te):
		return fmt.Errorf("key %q must be %s, got %s at offset %d", te.Field, te.Type, te.Value, te.Offset)
	case strings.HasPrefix(msg, "unknown field "):
		return fmt.Errorf("unknown key %s before offset %d", strings.TrimPrefix(msg, "unknown field "), dec.InputOffset())
	}
	return errors.New(msg)
}

// CompileRoutes reads and compiles the routes' masks and returns the
// routes, matched as CaseSensitivePaths says. Every fault is an error that
// names the route by its index and pattern:
// "jsonmask: config <path>: route 0 (\"GET /v1/items\"): mask_file: no such
// file or directory"; it wraps the compiler's *jsonmask.MaskError where
// the mask is at fault.
func (c *Config) CompileRoutes() (*Routes, error) {
	routes := make([]Route, 0, len(c.Routes))
	for i := range c.Routes {
		rc := &c.Routes[i]
		rt, err := rc.route()
		if err != nil {
			return nil, &configError{file: c.file, where: fmt.Sprintf("route %d (%q): ", i, rc.Match), err: err}
		}
		routes = append(routes, rt)
	}
	rs, err := newRoutes(routes, CaseSensitivePaths(c.CaseSensitivePaths))
	if err != nil {
		return nil, &configError{file: c.file, err: err}
	}
	return rs, nil
}

// route compiles the route's mask.
func (rc *RouteConfig) route() (Route, error) {
	if rc.Match == "" {
		return Route{}, errors.New("no \"match\" pattern")
	}
	var src []byte
	switch {
	case len(rc.Mask) > 0 && rc.MaskFile != "":
		return Route{}, errors.New("give \"mask\" or \"mask_file\", not both")
	case len(rc.Mask) > 0:
		src = rc.Mask
	case rc.MaskFile != "":
		b, err := os.ReadFile(rc.MaskFile)
		if err != nil {
			return Route{}, fmt.Errorf("mask_file: %w", unwrapPath(err))
		}
		src = b
	default:
		return Route{}, errors.New("no mask: give \"mask\" or \"mask_file\"")
	}
	m, err := jsonmask.Compile(src, jsonmask.WithArrays(rc.Arrays), jsonmask.WithStrict(rc.Strict),
		jsonmask.WithDropMismatched(rc.DropMismatched), jsonmask.WithTrustedInput(rc.Trusted))
	if err != nil {
		return Route{}, err
	}
	return Route{Pattern: rc.Match, Mask: m, Statuses: rc.Statuses}, nil
}

// configError is a fault of a config: "jsonmask: config <file>: <what>",
// or "jsonmask: config: <what>" for one that was not read from a file.
// The "jsonmask: " of a compile error is left out of what.
type configError struct {
	file  string
	where string // "route 0 (\"/v1/\"): ", or ""
	err   error
}

func (e *configError) Error() string {
	file := ""
	if e.file != "" {
		file = " " + e.file
	}
	return "jsonmask: config" + file + ": " + e.where + strings.TrimPrefix(e.err.Error(), "jsonmask: ")
}

func (e *configError) Unwrap() error { return e.err }

// unwrapPath drops the operation and path of an *os.PathError, which the
// message already names: "no such file or directory".
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
