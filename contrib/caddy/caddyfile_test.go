package jsonmaskcaddy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// itemsBody is an upstream's body, long enough that Caddy's encode
// compresses it once masked (its minimum_length is 512 bytes).
func itemsBody() string {
	var b strings.Builder
	b.WriteString(`{"id":7,"secret":"` + canary + `","items":[`)
	for i := range 200 { // masked, still over 512 bytes
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"k":%d,"v":"%s"}`, i, canary)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestCaddyfile: the Caddyfile of the README, adapted as `caddy adapt`
// does and run by a real Caddy, with encode in front: jsonmask masks what
// reverse_proxy brings back (identity or gzip), encode compresses the
// masked body, the directive's place in Caddy's order puts it after encode
// and before reverse_proxy whatever order a handle block writes them in,
// and a request outside the masked routes is proxied untouched.
func TestCaddyfile(t *testing.T) {
	body := itemsBody()
	array := `[{"id":1,"items":[{"k":1,"v":"` + canary + `"}]},{"id":2,"x":"` + canary + `"}]`
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		b := []byte(body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/array"):
			b = []byte(array)
		case strings.HasSuffix(r.URL.Path, "/html"):
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>" + canary))
			return
		case strings.HasSuffix(r.URL.Path, "/break"):
			w.Header().Set("Content-Type", "application/json")
			w.Write(bigPrefix())
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
			w.Write([]byte(`{"k":1,"v":"` + canary))
			panic(http.ErrAbortHandler)
		}
		w.Header().Set("Content-Type", "application/json")
		if c := r.URL.Query().Get("coding"); c != "" {
			w.Header().Set("Content-Encoding", c)
			b = codingtest.Encode(t, c, b)
		}
		w.Write(b)
	})
	dir := t.TempDir()
	maskFile := filepath.Join(dir, "items.json")
	if err := os.WriteFile(maskFile, []byte(`{"id": true, "items": {"k": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cf := caddyfileGlobals(t) + fmt.Sprintf(`
http://127.0.0.1:%d {
	bind 127.0.0.1
	encode gzip
	route /v1/* {
		jsonmask {
			mask_file %s
			arrays
			strict
		}
		reverse_proxy %s
	}
	handle /v2/* {
		reverse_proxy %[3]s
		jsonmask {
			fields "id,items/k"
		}
	}
	handle /other {
		reverse_proxy %[3]s
	}
}
`, port, maskFile, up)
	cfg, err := adapt(cf)
	if err != nil {
		t.Fatalf("adapt: %v\n%s", err, cf)
	}
	runCaddy(t, cfg)
	m := jsonmask.MustCompile(`{"id":true,"items":{"k":true}}`, jsonmask.WithArrays(true))
	masked := string(must(m.Append(nil, []byte(body))))
	maskedArray := string(must(m.Append(nil, []byte(array))))
	cases := []struct {
		name   string
		path   string
		ae     string // the client's Accept-Encoding
		status int
		coding string // of the response
		want   string
	}{
		{"Identity/EncodeGzips", "/v1/items", "gzip", 200, "gzip", masked},
		{"UpstreamGzip", "/v1/items?coding=gzip", "gzip", 200, "gzip", masked},
		{"UpstreamGzip/Unasked", "/v1/items?coding=gzip", "", 200, "gzip", masked}, // coded again as it came (SPEC G3)
		{"UpstreamZstd/ClientGzip", "/v1/items?coding=zstd", "gzip", 200, "zstd", masked},
		{"Identity", "/v1/items", "", 200, "", masked},
		{"Array", "/v1/array", "", 200, "", maskedArray},
		{"Strict", "/v1/html", "", 502, "", ""},
		{"Order", "/v2/items", "gzip", 200, "gzip", masked},
		{"Unmasked", "/other", "", 200, "", body},
	}
	c := newClient(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var h []string
			if tc.ae != "" {
				h = append(h, "Accept-Encoding: "+tc.ae)
			}
			resp, got, err := get(t, c, fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path), h...)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name != "Unmasked" {
				noCanary(t, resp, got)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %q", resp.StatusCode, tc.status, got)
			}
			if tc.status == 502 {
				checkProblem(t, resp, got)
				return
			}
			if ce := resp.Header.Get("Content-Encoding"); ce != tc.coding {
				t.Fatalf("Content-Encoding %q, want %q", ce, tc.coding)
			}
			if tc.coding != "" {
				got = codingtest.Decode(t, tc.coding, got)
			}
			if string(got) != tc.want {
				t.Fatalf("body\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	// A body that breaks midway, masked and then compressed by encode:
	// encode ends its gzip stream as the handler unwinds, but the
	// response is still aborted, and the client knows it is cut short.
	t.Run("AbortThroughEncode", func(t *testing.T) {
		resp, got, err := get(t, c, fmt.Sprintf("http://127.0.0.1:%d/v1/break", port), "Accept-Encoding: gzip")
		noCanary(t, resp, got)
		if err == nil {
			t.Fatalf("a complete response: %d, %d bytes", resp.StatusCode, len(got))
		}
		if ce := resp.Header.Get("Content-Encoding"); ce != "gzip" {
			t.Fatalf("Content-Encoding %q", ce)
		}
		plain, _ := codingtest.DecodePrefix("gzip", got)
		whole := must(m.Append(nil, append(bigPrefix(), `{"k":1}]}`...)))
		if len(plain) == 0 || !bytes.HasPrefix(whole, plain) {
			t.Fatalf("the client got %d bytes that are not a prefix of the masked body", len(plain))
		}
		t.Logf("%d bytes coded, %d decoded, then %v", len(got), len(plain), err)
	})
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCaddyfileErrors: every fault of the directive is an error of the
// adapter that names the Caddyfile's line.
func TestCaddyfileErrors(t *testing.T) {
	cases := []struct {
		name  string
		block string // the directive's block; its first line is line 3
		line  int
		msg   string
	}{
		{"Unknown", "mask_file a.json\nmaks_file b.json", 4, `unknown subdirective "maks_file"`},
		{"FlagWithArgument", "fields id\nstrict yes", 4, "wrong argument count"},
		{"MaskNotJSON", "mask `{\"id\": tru}`", 3, "mask: invalid mask: invalid character '}' in literal true (expecting 'e') at offset 10"},
		{"MaskNotTrue", "mask `{\"id\": false}`", 3, `mask: mask member "/id" must be true or an object, got false`},
		{"FieldsUnbalanced", "fields \"id,user(name\"", 3, "fields:"},
		{"TwoMasks", "fields id\nmask_file a.json", 4, "give one of mask, mask_file and fields"},
		// Item 10: a bad pattern or a conflict fails at adapt, at its line.
		{"RouteBadPattern", "route \"GET\" {\n\tfields id\n}", 3, `route "GET": route 0 ("GET"): parsing`},
		{"RouteConflict", "route \"GET /a/{x}\" {\n\tfields id\n}\nroute \"GET /{y}/b\" {\n\tfields id\n}", 6, `conflicts with route 0 ("GET /a/{x}")`},
		{"Twice", "fields id\narrays\narrays", 5, "arrays given twice"},
		{"MaskTwoArguments", "mask_file a.json b.json", 3, "mask_file takes one argument"},
		{"NoMaskArgument", "mask_file", 3, "wrong argument count"},
		{"BadStatus", "fields id\nstatuses 200 abc", 4, `statuses: "abc" is not a status code`},
		{"BadSize", "fields id\nmax_body_bytes lots", 4, `max_body_bytes: "lots" is not a size`},
		{"BadDepth", "fields id\nmax_depth off", 4, `max_depth: "off" is not a positive integer`},
		{"OptionsWithoutMask", "arrays\nstrict", 5, "mask options without a mask"},
		{"NoMask", "max_depth 10", 4, "no mask"},
		{"RouteWithoutMask", "fields id\nroute /v1/ {\n\tarrays\n}", 4, `route "/v1/": no mask`},
		{"FieldsUnquoted", "fields id, name", 3, "fields takes one argument: quote it"},
		{"RouteUnknown", "route /v1/ {\n\tfields id\n\tcase_sensitive_paths\n}", 5, `unknown subdirective "case_sensitive_paths"`},
		{"RouteInRoute", "route /v1/ {\n\tfields id\n\troute /v2/ {\n\t\tfields id\n\t}\n}", 5, "a route inside a route"},
		{"RouteUnquoted", "route GET /v1/ {\n\tfields id\n}", 3, "quote a pattern with a method"},
		{"RouteBadMask", "route /v1/ {\n\tmask `[]`\n}", 4, "mask:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			indented := "\t\t" + strings.ReplaceAll(tc.block, "\n", "\n\t\t")
			cf := ":8080 {\n\tjsonmask {\n" + indented + "\n\t}\n\trespond ok\n}\n"
			_, err := adapt(cf)
			if err == nil {
				t.Fatalf("no error for\n%s", cf)
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.Contains(msg, tc.msg) || !strings.Contains(msg, "Caddyfile:"+strconv.Itoa(tc.line)) {
				t.Fatalf("error %q, want %q at Caddyfile:%d\n%s", msg, tc.msg, tc.line, cf)
			}
			if strings.Count(msg, "jsonmask: jsonmask:") > 0 || strings.Contains(msg, "\n") {
				t.Errorf("message %q", msg)
			}
		})
	}
	t.Run("Argument", func(t *testing.T) {
		_, err := adapt(":8080 {\n\tjsonmask masks.json\n\trespond ok\n}\n")
		if err == nil || !strings.Contains(err.Error(), "Caddyfile:2") {
			t.Fatalf("error %v, want one at Caddyfile:2", err)
		}
	})
}

// TestUnmarshalCaddyfile: what the directive becomes in Caddy's JSON
// config.
func TestUnmarshalCaddyfile(t *testing.T) {
	cases := []struct {
		name, caddyfile, json string
	}{
		{"File", "jsonmask {\n mask_file masks/items.json\n arrays\n strict\n}",
			`{"mask_file":"masks/items.json","arrays":true,"strict":true}`},
		{"Inline", "jsonmask {\n mask `{ \"id\": true,\n \"user\": {\"name\": true} }`\n drop_mismatched\n trusted\n wildcards\n statuses 200 201\n}",
			`{"mask":{"id":true,"user":{"name":true}},"drop_mismatched":true,"trusted":true,"wildcards":true,"statuses":[200,201]}`},
		{"InlineBOM", "jsonmask {\n mask \"\uFEFF{\\\"id\\\":true}\"\n}", `{"mask":{"id":true}}`},
		{"Fields", "jsonmask {\n fields \"id, user(name)\"\n}", `{"fields":"id, user(name)"}`},
		{"Routes", "jsonmask {\n route \"GET /v1/items/{id}\" {\n  fields id\n  statuses 200\n }\n route /v2/ {\n  mask_file b.json\n  arrays\n }\n case_sensitive_paths\n}",
			`{"routes":[{"match":"GET /v1/items/{id}","fields":"id","statuses":[200]},{"match":"/v2/","mask_file":"b.json","arrays":true}],"case_sensitive_paths":true}`},
		{"Limits", "jsonmask {\n fields id\n max_body_bytes 64MiB\n max_ratio off\n max_depth 100\n max_token_bytes 1000\n}",
			`{"fields":"id","limits":{"max_body_bytes":67108864,"max_ratio":-1,"max_depth":100,"max_token_bytes":1000}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var h Handler
			if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.caddyfile)); err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(h)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.json {
				t.Fatalf("got  %s\nwant %s", got, tc.json)
			}
		})
	}
}

// TestCaddyfileMatcher: the directive takes a matcher, as every handler
// directive does, and masks only what it matches.
func TestCaddyfileMatcher(t *testing.T) {
	cfg, err := adapt(":8080 {\n\tjsonmask /v1/* {\n\t\tfields id\n\t}\n\trespond ok\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Apps struct {
			HTTP struct {
				Servers map[string]struct {
					Routes []struct {
						Match  []map[string][]string `json:"match"`
						Handle []map[string]any      `json:"handle"`
					} `json:"routes"`
				} `json:"servers"`
			} `json:"http"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Apps.HTTP.Servers {
		for _, r := range s.Routes {
			if len(r.Handle) == 1 && r.Handle[0]["handler"] == "jsonmask" {
				if len(r.Match) != 1 || fmt.Sprint(r.Match[0]["path"]) != "[/v1/*]" {
					t.Fatalf("jsonmask's route matches %v", r.Match)
				}
				return
			}
		}
	}
	t.Fatalf("no jsonmask route in %s", cfg)
}

// TestDirectiveOrder: in a site block, whatever order the directives are
// written in, jsonmask comes after encode (which then compresses the
// masked body) and before the handlers whose responses it masks.
func TestDirectiveOrder(t *testing.T) {
	cfg, err := adapt(":8080 {\n\treverse_proxy 127.0.0.1:9000\n\tjsonmask {\n\t\tfields id\n\t}\n\tencode gzip\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range regexp.MustCompile(`"handler":"([a-z_]+)"`).FindAllSubmatch(cfg, -1) {
		order = append(order, string(m[1]))
	}
	if got := strings.Join(order, ","); got != "encode,jsonmask,reverse_proxy" {
		t.Fatalf("handlers in the order %s", got)
	}
}

// FuzzUnmarshalCaddyfile: no directive makes the parser panic, and what it
// accepts is a config that Caddy's strict JSON reading takes back as it
// was.
func FuzzUnmarshalCaddyfile(f *testing.F) {
	for _, s := range []string{
		"jsonmask {\n mask_file a.json\n arrays\n strict\n}",
		"jsonmask {\n mask `{\"id\": true}`\n statuses 200 201\n}",
		"jsonmask {\n fields \"id,user(name)\"\n max_body_bytes 1KiB\n max_ratio off\n}",
		"jsonmask {\n route \"GET /v1/{id}\" {\n  fields id\n }\n case_sensitive_paths\n}",
		"jsonmask {\n route /v1/ {\n  arrays\n }\n}",
		"jsonmask x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tokens, err := caddyfile.Tokenize([]byte(s), "Caddyfile")
		if err != nil {
			return
		}
		var h Handler
		if h.UnmarshalCaddyfile(caddyfile.NewDispenser(tokens)) != nil {
			return
		}
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatalf("accepted a config that is not JSON: %v", err)
		}
		var back Handler
		if err := caddy.StrictUnmarshalJSON(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b2, _ := json.Marshal(back)
		if !bytes.Equal(b, b2) {
			t.Fatalf("%s\n%s", b, b2)
		}
	})
}

// TestProvisionErrors: faults of a JSON config are errors of caddy.Load
// that say what and where, and Caddy does not start with them. Unknown
// keys are errors: a typo must not silently disable a mask (SPEC G11).
func TestProvisionErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"id": true, "x": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, handler, msg string
	}{
		{"UnknownKey", `"mask_flie": "a.json"`, `http.handlers.jsonmask: unknown key "mask_flie", at offset`},
		{"KeyCase", `"fields": "id", "Strict": true`, `http.handlers.jsonmask: key "Strict" is "strict" in another case`},
		{"UnknownRouteKey", `"routes": [{"match": "/", "fields": "id", "stirct": true}]`, `http.handlers.jsonmask: routes[0]: unknown key "stirct"`},
		{"NoMask", `"arrays": true`, "http.handlers.jsonmask: mask options without a mask"},
		{"Nothing", ``, "http.handlers.jsonmask: no mask"},
		{"MissingFile", `"mask_file": "/nonexistent/mask.json"`, "http.handlers.jsonmask: mask_file /nonexistent/mask.json: no such file"},
		{"BadFile", `"mask_file": ` + strconv.Quote(bad), `http.handlers.jsonmask: mask_file ` + bad + `: mask member "/x" must be true or an object, got a number`},
		{"TwoMasks", `"mask": {"id": true}, "fields": "id"`, `http.handlers.jsonmask: give one of "mask", "mask_file" and "fields"`},
		{"BadFields", `"fields": "a(("`, "http.handlers.jsonmask: invalid fields mask: empty name before '(' at offset 2"},
		{"RouteNoMatch", `"routes": [{"fields": "id"}]`, `http.handlers.jsonmask: route 0 (""): no match pattern`},
		{"RouteNoMask", `"routes": [{"match": "/v1/"}]`, `http.handlers.jsonmask: route 0 ("/v1/"): no mask`},
		{"RouteBadMask", `"routes": [{"match": "/v1/", "mask": {"a": 1}}]`, `http.handlers.jsonmask: route 0 ("/v1/"): mask member "/a" must be true or an object, got a number`},
		{"RouteBadPattern", `"routes": [{"match": "GET", "fields": "id"}]`, `http.handlers.jsonmask: route 0 ("GET"): parsing`},
		{"RouteConflict", `"routes": [{"match": "GET /a/{x}", "fields": "id"}, {"match": "GET /{y}/b", "fields": "id"}]`, `http.handlers.jsonmask: route 1 ("GET /{y}/b"): conflicts with route 0 ("GET /a/{x}")`},
		{"NegativeDepth", `"fields": "id", "limits": {"max_depth": -1}`, `http.handlers.jsonmask: limits.max_depth must be 0 (the default) or more, got -1`},
		{"RouteAndOwnMask", `"fields": "id", "routes": [{"match": "/", "fields": "x"}]`, `http.handlers.jsonmask: route 0 ("/"): the pattern "/" is the handler's own mask's`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.handler
			if h != "" {
				h = ", " + h
			}
			routes := `[{"handle": [{"handler": "jsonmask"` + h + `}, {"handler": "static_response", "body": "{}"}]}]`
			err := caddy.Load(caddyConfig(t, freePort(t), routes), true)
			if err == nil {
				caddy.Stop()
				t.Fatal("Caddy took the config")
			}
			t.Log(err)
			if !strings.Contains(err.Error(), tc.msg) || strings.Contains(err.Error(), "jsonmask: jsonmask:") {
				t.Fatalf("error %q, want %q", err, tc.msg)
			}
		})
	}
}

// TestSSEPassthroughNone: "sse_passthrough" with no payload lets none
// through, also after the Caddyfile became JSON (an empty list is kept,
// not taken for the default).
func TestSSEPassthroughNone(t *testing.T) {
	d := caddyfile.NewTestDispenser("jsonmask {\n\tfields id\n\tstrict\n\tsse_passthrough\n}")
	var h Handler
	if err := h.UnmarshalCaddyfile(d); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&h)
	if err != nil || !strings.Contains(string(b), `"sse_passthrough":[]`) {
		t.Fatalf("%s %v", b, err)
	}
	var back Handler
	if err := json.Unmarshal(b, &back); err != nil || back.SSEPassthrough == nil || len(back.SSEPassthrough) != 0 {
		t.Fatalf("read back %#v, %v", back.SSEPassthrough, err)
	}
}

// TestUnmarshalJSONStrict: the module's JSON goes through the strict
// parser of `jsonmask serve` (SPEC G11): a key given twice is an error
// (Caddy's own loading may drop the first before the module sees it).
func TestUnmarshalJSONStrict(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`{"fields": "id", "strict": true, "strict": false}`, `key "strict" given twice`},
		{`{"routes": [{"match": "/", "mask": {}, "mask": {"a": true}}]}`, `routes[0]: key "mask" given twice`},
		{`{"fields": "id", "STRICT": true}`, `key "STRICT" is "strict" in another case`},
		{`{"fields": "id", "limits": {"max_depth": 1, "max_depth": 2}}`, `limits: key "max_depth" given twice`},
		{`{"fields": "id", "sse_passthrough": ["[DONE]"], "wildcards": true}`, ``},
	} {
		var h Handler
		err := json.Unmarshal([]byte(c.in), &h)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %v, want %q", c.in, err, c.err)
		}
	}
}
