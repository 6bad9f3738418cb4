package config

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
)

// canary is in every value that a test's mask drops.
const canary = "CANARY-c0f9"

// configCases are config files that load and compile, and those that must
// not, with the key or route named (SPEC G11). err is a substring of the
// error, "" for none; plugin reads the file ForPlugin.
var configCases = []struct {
	name, config, err string
	plugin            bool
}{
	{name: "SpecExample", config: `{"listen": "127.0.0.1:8080", "admin": "127.0.0.1:9090", "upstream": "http://127.0.0.1:9000",
	  "limits": {"max_body_bytes": 268435456, "max_depth": 10000, "max_token_bytes": 67108864},
	  "routes": [
	    {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
	    {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true, "strict": true, "statuses": [200, 201]}]}`},
	{name: "Timeouts", config: `{"upstream": "http://x", "limits": {"response_header_timeout": "5s", "read_header_timeout": "1s", "idle_timeout": "1m", "drain_timeout": "2s", "max_ratio": 50, "max_idle_conns_per_host": 32}, "routes": [{"match": "/", "mask": {}}]}`},
	{name: "Empty", config: `{}`, err: "routes: none given"},
	{name: "EmptyRoutes", config: `{"upstream": "http://x", "routes": []}`, err: "routes: none given"},
	// G11: what encoding/json lets pass, refused, with the key and its place.
	{name: "RoutesTwice", config: `{"routes": [{"match": "/", "mask": {}}], "routes": []}`, err: `key "routes" given twice, at offset`},
	{name: "StrictTwiceCase", config: `{"routes": [{"match": "/", "mask": {}, "strict": true, "STRICT": false}]}`, err: `routes[0]: key "STRICT" is "strict" in another case`},
	{name: "MaskTwice", config: `{"routes": [{"match": "/", "mask": {"id": true}, "mask": {"id": true, "ssn": true}}]}`, err: `routes[0]: key "mask" given twice`},
	{name: "UpperKey", config: `{"Upstream": "http://x", "routes": [{"match": "/", "mask": {}}]}`, err: `key "Upstream" is "upstream" in another case`},
	{name: "LimitCase", config: `{"limits": {"Max_Depth": 3}, "routes": [{"match": "/", "mask": {}}]}`, err: `limits: key "Max_Depth" is "max_depth" in another case`},
	{name: "LimitTwice", config: `{"limits": {"max_depth": 3, "max_depth": 0}, "routes": [{"match": "/", "mask": {}}]}`, err: `limits: key "max_depth" given twice`},
	{name: "NegativeDepth", config: `{"limits": {"max_depth": -1}, "routes": [{"match": "/", "mask": {}}]}`, err: `limits.max_depth must be 0 (the default) or more, got -1`},
	{name: "NegativeBody", config: `{"limits": {"max_body_bytes": -2}, "routes": [{"match": "/", "mask": {}}]}`, err: `limits.max_body_bytes must be -1 (off)`},
	{name: "BodyOff", config: `{"limits": {"max_body_bytes": -1}, "routes": [{"match": "/", "mask": {}}]}`},
	{name: "NegativeIdle", config: `{"limits": {"max_idle_conns_per_host": -1}, "routes": [{"match": "/", "mask": {}}]}`, err: `limits.max_idle_conns_per_host`},
	{name: "FieldsAndWildcards", config: `{"routes": [{"match": "/a", "fields": "id,user(name)"}, {"match": "/b", "mask": {"*": {"id": true}}, "wildcards": true}, {"match": "/c", "mask": {}, "strict": true, "sse_passthrough": ["[DONE]", "ping"]}]}`},
	{name: "FieldsAndMask", config: `{"routes": [{"match": "/a", "fields": "id", "mask": {}}]}`, err: `routes[0] ("/a"): give one of`},
	{name: "TLSHalf", config: `{"tls_cert_file": "c.pem", "routes": [{"match": "/", "mask": {}}]}`, err: `tls_cert_file and tls_key_file`},
	{name: "UnknownKey", config: `{"upstream": "http://x", "routes": [{"match": "/", "mask_fil": "m.json"}]}`, err: `unknown key "mask_fil"`},
	{name: "UnknownTopKey", config: `{"upstream": "http://x", "limit": {}}`, err: `unknown key "limit"`},
	{name: "UnknownLimit", config: `{"upstream": "http://x", "limits": {"max_bytes": 1}}`, err: `unknown key "max_bytes"`},
	{name: "Typo", config: `{"routes": [{"match": "/v1/", "mask": {"id": true}, "stricct": true}]}`, err: `unknown key "stricct"`},
	{name: "BadDuration", config: `{"upstream": "http://x", "limits": {"idle_timeout": 30}}`, err: `duration`},
	{name: "DurationNotString", config: `{"limits": {"drain_timeout": 30}, "routes": []}`, err: "a duration is a string"},
	{name: "NegativeDuration", config: `{"limits": {"drain_timeout": "-1s"}, "routes": [{"match": "/", "mask": {}}]}`, err: `bad duration "-1s"`},
	{name: "BadType", config: `{"upstream": "http://x", "routes": [{"match": "/", "mask": {}, "statuses": "200"}]}`, err: `"routes[0].statuses" must be []int, got string`},
	{name: "RoutesNotList", config: `{"routes": {}}`, err: `key "routes" must be`},
	{name: "NotJSON", config: `{"upstream": `, err: `invalid JSON`},
	{name: "Syntax", config: `{"routes": [}`, err: "invalid JSON at offset 12"},
	{name: "Truncated", config: `{"routes": [`, err: "the config ends early at offset 12"},
	{name: "NoConfig", config: ``, err: "the config ends early at offset 0"},
	{name: "Trailing", config: `{"upstream": "http://x"} {}`, err: `data after`},
	{name: "NoMask", config: `{"upstream": "http://x", "routes": [{"match": "/"}]}`, err: `routes[0] ("/"): no mask`},
	{name: "BothMasks", config: `{"upstream": "http://x", "routes": [{"match": "/", "mask": {}, "mask_file": "masks/items.json"}]}`, err: `not both`},
	{name: "MissingMaskFile", config: `{"upstream": "http://x", "routes": [{"match": "/", "mask_file": "masks/nope.json"}]}`, err: `masks/nope.json: no such file`},
	{name: "BadMask", config: `{"upstream": "http://x", "routes": [{"match": "/a", "mask": {"x": 1}}]}`, err: `routes[0] ("/a"): mask member "/x" must be true or an object`},
	{name: "BadMaskFile", config: `{"upstream": "http://x", "routes": [{"match": "/a", "mask_file": "masks/bad.json"}]}`, err: `masks/bad.json: mask member "/id"`},
	{name: "NoMatch", config: `{"upstream": "http://x", "routes": [{"mask": {}}]}`, err: `no "match"`},
	{name: "BadPattern", config: `{"upstream": "http://x", "routes": [{"match": "/a/{x", "mask": {}}]}`, err: `route 0`},
	{name: "PatternNoSlash", config: `{"routes": [{"match": "GET v1", "mask": {}}]}`, err: "route 0"},
	{name: "Conflict", config: `{"upstream": "http://x", "routes": [{"match": "/a", "mask": {}}, {"match": "/a", "mask": {}}]}`, err: `route 1 ("/a"): conflicts with route 0 ("/a")`},
	{name: "BadStatus", config: `{"routes": [{"match": "/a", "mask": {}, "statuses": [200, 999]}]}`, err: `route 0 ("/a"): status 999 is not an HTTP status`},

	{name: "Plugin", plugin: true, config: `{"listen": "127.0.0.1:50051", "case_sensitive_paths": true,
	  "limits": {"max_body_bytes": 1, "max_ratio": 2, "max_depth": 3, "max_token_bytes": 4, "drain_timeout": "30s"},
	  "routes": [{"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true,
	    "strict": true, "drop_mismatched": true, "trusted": true, "statuses": [200, 201]}]}`},
	{name: "PluginUpstream", plugin: true, config: `{"routes": [], "upstream": "http://x"}`, err: `upstream: a key of a proxy`},
	{name: "PluginUpstreamCase", plugin: true, config: `{"Upstream": "http://x"}`, err: `key "Upstream" is "upstream" in another case`},
	{name: "PluginAdmin", plugin: true, config: `{"admin": "127.0.0.1:9090"}`, err: `admin: a key of a proxy`},
	{name: "PluginHeaderTimeout", plugin: true, config: `{"limits": {"response_header_timeout": "5s"}}`, err: `limits.response_header_timeout: a key of a proxy`},
	{name: "PluginReadHeaderTimeout", plugin: true, config: `{"limits": {"read_header_timeout": "5s"}}`, err: `limits.read_header_timeout: a key of a proxy`},
	{name: "PluginIdleTimeout", plugin: true, config: `{"limits": {"idle_timeout": "5s"}}`, err: `limits.idle_timeout: a key of a proxy`},
	{name: "PluginTLS", plugin: true, config: `{"tls_cert_file": "a", "tls_key_file": "b"}`, err: `tls_cert_file: a key of a proxy`},
	{name: "PluginUnknownKey", plugin: true, config: `{"routes": [{"match": "/", "mask": {}, "stricct": true}]}`, err: `routes[0]: unknown key "stricct"`},
}

// configDir is a directory with the mask files that configCases name.
func configDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"masks/items.json": `{"id": true}`, "masks/bad.json": `{"id": false}`} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestConfig: each case loaded from a file (Load) and from memory
// (Parse), then compiled: the fault named, on one line that says
// which config.
func TestConfig(t *testing.T) {
	dir := configDir(t)
	for _, c := range configCases {
		t.Run(c.name, func(t *testing.T) {
			var opts []Option
			if c.plugin {
				opts = append(opts, ForPlugin())
			}
			path := filepath.Join(dir, c.name+".json")
			if err := os.WriteFile(path, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, from := range []struct {
				name, prefix string
				load         func() (*File, error)
			}{
				{"File", "jsonmask: config " + path + ": ", func() (*File, error) { return Load(path, opts...) }},
				{"Memory", "jsonmask: config: ", func() (*File, error) { return Parse([]byte(c.config), dir, opts...) }},
			} {
				cfg, err := from.load()
				if err == nil {
					_, err = cfg.CompileRoutes()
				}
				switch {
				case c.err == "" && err != nil:
					t.Fatalf("%s: %v", from.name, err)
				case c.err != "" && err == nil:
					t.Fatalf("%s: no error, want %q", from.name, c.err)
				case c.err != "" && !strings.Contains(err.Error(), c.err):
					t.Fatalf("%s: error %q, want %q in it", from.name, err, c.err)
				case err != nil && strings.Contains(err.Error(), "\n"):
					t.Fatalf("%s: error on two lines: %q", from.name, err)
				case err != nil && !strings.HasPrefix(err.Error(), from.prefix):
					t.Fatalf("%s: error %q, want it to begin %q", from.name, err, from.prefix)
				case err != nil && strings.Count(err.Error(), "jsonmask: ") != 1:
					t.Fatalf("%s: error %q says jsonmask: twice", from.name, err)
				}
			}
		})
	}
}

// TestConfigValues: what a config's keys become: the limits that
// WithLimits takes, the server's timeouts with their defaults, the mask
// options and statuses of each route, and mask_file relative to the
// config's directory.
func TestConfigValues(t *testing.T) {
	dir := configDir(t)
	path := filepath.Join(dir, "config.json")
	os.WriteFile(path, []byte(`{"listen": "l", "admin": "a", "upstream": "http://u", "case_sensitive_paths": true,
	  "limits": {"max_body_bytes": 1, "max_ratio": 2, "max_depth": 3, "max_token_bytes": 4,
	    "response_header_timeout": "5s", "read_header_timeout": "6s", "idle_timeout": "1m", "drain_timeout": "1h"},
	  "routes": [
	    {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true, "statuses": [200, 201]},
	    {"match": "GET /v1/abs", "mask_file": "/etc/nope.json"},
	    {"match": "GET /v1/strict", "mask": {"id": true}, "strict": true, "drop_mismatched": true, "trusted": true}]}`), 0o644)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "l" || c.Admin != "a" || c.Upstream != "http://u" || !c.CaseSensitivePaths {
		t.Errorf("config %+v", c)
	}
	want := gateway.Limits{MaxBodyBytes: 1, MaxRatio: 2, MaxDepth: 3, MaxTokenBytes: 4, ResponseHeaderTimeout: 5 * time.Second}
	if got := c.Limits.Gateway(); got != want {
		t.Errorf("Limits.Gateway() = %+v, want %+v", got, want)
	}
	l := c.Limits
	if got := [3]time.Duration{l.ReadHeaderTimeout.Or(0), l.IdleTimeout.Or(0), l.DrainTimeout.Or(0)}; got != [3]time.Duration{6 * time.Second, time.Minute, time.Hour} {
		t.Errorf("server timeouts %v", got)
	}
	if got := (Limits{}).DrainTimeout.Or(DefaultDrainTimeout); got != DefaultDrainTimeout {
		t.Errorf("absent drain_timeout: %v", got)
	}
	if got := c.Routes[0].MaskFile; got != filepath.Join(dir, "masks/items.json") {
		t.Errorf("relative mask_file %q", got)
	}
	if got := c.Routes[1].MaskFile; got != "/etc/nope.json" {
		t.Errorf("absolute mask_file %q", got)
	}
	c.Routes = append(c.Routes[:1], c.Routes[2:]...)
	rs, err := c.CompileRoutes()
	if err != nil {
		t.Fatal(err)
	}
	items := lookupRoute(rs, "/v1/items")
	if items == nil || !slices.Equal(items.Statuses, []int{200, 201}) {
		t.Fatalf("route of /v1/items: %+v", items)
	}
	if out, err := items.Mask.Append(nil, []byte(`[{"id":1,"x":2}]`)); err != nil || string(out) != `[{"id":1}]` {
		t.Errorf("arrays: %s %v", out, err)
	}
	strict := lookupRoute(rs, "/v1/strict")
	if _, err := strict.Mask.Append(nil, []byte(`[1]`)); !errors.Is(err, jsonmask.ErrNotObject) {
		t.Errorf("strict: %v", err)
	}
	if out, err := strict.Mask.Append(nil, []byte(`{"id":{"a":1}}`)); err != nil || string(out) != `{"id":{"a":1}}` {
		t.Errorf("strict: %s %v", out, err)
	}
	if lookupRoute(rs, "/V1/Items") != nil {
		t.Error("case_sensitive_paths: /V1/Items matched /v1/items")
	}
	c.CaseSensitivePaths = false
	if rs, err = c.CompileRoutes(); err != nil || lookupRoute(rs, "/V1/Items") == nil {
		t.Errorf("case_sensitive_paths false: /V1/Items did not match /v1/items (%v)", err)
	}

	// A config from memory leaves relative mask files to the working
	// directory when it has none.
	c, err = Parse([]byte(`{"routes": [{"match": "/", "mask_file": "m.json"}]}`), "")
	if err != nil || c.Routes[0].MaskFile != "m.json" {
		t.Errorf("ParseConfig without dir: %+v %v", c, err)
	}
}

// TestConfigErrorTypes: a route's fault wraps the compiler's error, a
// missing file the file system's.
func TestConfigErrorTypes(t *testing.T) {
	c, err := Parse([]byte(`{"routes": [{"match": "/", "mask": {"a": 1}}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CompileRoutes()
	var me *jsonmask.MaskError
	if !errors.As(err, &me) || me.Pointer != "/a" {
		t.Errorf("%v: want a *jsonmask.MaskError for /a", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "nope.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%v: want os.ErrNotExist", err)
	}
}

// TestDurationJSON: a Duration is written as it is read.
func TestDurationJSON(t *testing.T) {
	for _, d := range []Duration{0, Duration(1500 * time.Millisecond), Duration(90 * time.Minute)} {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back Duration
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("%v: %s read back as %v, %v", time.Duration(d), b, time.Duration(back), err)
		}
	}
}

// TestConfigServes: a config's routes and limits, compiled, serve as the
// routes of NewRoutes do: the canary in a dropped member stays behind.
func TestConfigServes(t *testing.T) {
	c, err := Parse([]byte(`{"limits": {"max_depth": 4}, "routes": [{"match": "GET /v1/{x}", "mask": {"id": true}}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := c.CompileRoutes()
	if err != nil {
		t.Fatal(err)
	}
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/deep" {
			w.Write([]byte(`{"id":1,"x":[[[[["` + canary + `"]]]]]}`))
			return
		}
		w.Write([]byte(`{"id":1,"x":"` + canary + `"}`))
	})
	h := gateway.Handler(app, rs, gateway.WithLimits(c.Limits.Gateway()))
	for _, c := range []struct {
		path   string
		status int
		body   string
	}{
		{"/v1/items", 200, `{"id":1}`},
		{"/v1/deep", 502, ""}, // deeper than max_depth: refused
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != c.status || c.body != "" && rec.Body.String() != c.body {
			t.Errorf("%s: %d %q", c.path, rec.Code, rec.Body)
		}
		if strings.Contains(rec.Body.String(), canary) {
			t.Errorf("%s: the canary got out: %q", c.path, rec.Body)
		}
	}
}

// lookupRoute is the route of a GET of path, nil if none or refused.
func lookupRoute(rs *gateway.Routes, path string) *gateway.Route {
	d, err := rs.MatchPath("GET", "x", path, nil)
	if err != nil {
		return nil
	}
	return d.Route
}
