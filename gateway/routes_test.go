package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

var pathCases = []struct {
	in, clean, match string // match: case-insensitive; "" with err
	err              bool
	nonASCII         bool // refused by MatchPath where paths compare without case
}{
	{in: "/", clean: "/", match: "/"},
	{in: "/v1/items", clean: "/v1/items", match: "/v1/items"},
	{in: "/v1/items/", clean: "/v1/items/", match: "/v1/items"},
	{in: "//v1//items", clean: "/v1/items", match: "/v1/items"},
	{in: "/v1/./items", clean: "/v1/items", match: "/v1/items"},
	{in: "/v1/x/../items", clean: "/v1/items", match: "/v1/items"},
	{in: "/../../v1/items", clean: "/v1/items", match: "/v1/items"},
	{in: "/v1/items/..", clean: "/v1/", match: "/v1"},
	{in: "/v1/items/.", clean: "/v1/items/", match: "/v1/items"},
	{in: "/v1/%69tems", clean: "/v1/items", match: "/v1/items"},
	{in: "/v1/%2e%2E/items", clean: "/items", match: "/items"},
	{in: "/v1/x/..;a=b/items", clean: "/v1/items", match: "/v1/items"},
	{in: "/v1/items;jsessionid=X", clean: "/v1/items;jsessionid=X", match: "/v1/items"},
	{in: "/V1/Items", clean: "/V1/Items", match: "/v1/items"},
	{in: "/a%20b/%c3%a9", clean: "/a%20b/%C3%A9", match: "/a%20b/%c3%a9", nonASCII: true},
	{in: "/v1/items%3B", clean: "/v1/items%3B", match: "/v1/items"},
	{in: "/v1/items%3bx/", clean: "/v1/items%3Bx/", match: "/v1/items"},
	{in: "/v1/%20items%20%0A", clean: "/v1/%20items%20%0A", match: "/v1/items"},
	{in: "/v1/%20/items", clean: "/v1/%20/items", match: "/v1/items"},
	{in: "/v1/items.json", clean: "/v1/items.json", match: "/v1/items.json"},
	{in: "/v1/item%C5%BF", clean: "/v1/item%C5%BF", match: "/v1/item%c5%bf", nonASCII: true},
	{in: "/v1/item\xC5\xBF", clean: "/v1/item\xC5\xBF", match: "/v1/item\xC5\xBF", nonASCII: true},
	{in: "/v1/%2569tems", err: true},
	{in: "/v1/%25", err: true},
	{in: "/a%7e%41", clean: "/a~A", match: "/a~a"},
	{in: "/v1%2Fitems", err: true},
	{in: "/v1%2fitems", err: true},
	{in: "/v1%5Citems", err: true},
	{in: "/v1\\items", err: true},
	{in: "/v1/items%00", err: true},
	{in: "/v1/items\x00", err: true},
	{in: "/v1/it%zzems", err: true},
	{in: "/v1/items%", err: true},
	{in: "/v1/items%4", err: true},
	{in: "*", clean: "*", match: "*"},
}

func TestCleanPath(t *testing.T) {
	for _, c := range pathCases {
		t.Run(c.in, func(t *testing.T) {
			clean, err := cleanPath(c.in)
			if c.err {
				if !errors.Is(err, ErrBadPath) {
					t.Fatalf("cleanPath: %q, %v; want ErrBadPath", clean, err)
				}
				return
			}
			if err != nil || clean != c.clean {
				t.Fatalf("cleanPath: %q, %v; want %q", clean, err, c.clean)
			}
			if m := matchPath(clean, false); m != c.match {
				t.Errorf("matchPath: %q, want %q", m, c.match)
			}
			if again, _ := cleanPath(clean); again != clean {
				t.Errorf("not idempotent: %q cleans to %q", clean, again)
			}
		})
	}
}

// FuzzCleanPath: no panic; a clean path is clean (idempotent, no empty or
// dot segment, no escape of an unreserved character, of '/' or '\').
func FuzzCleanPath(f *testing.F) {
	for _, c := range pathCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		clean, err := cleanPath(in)
		if strings.HasPrefix(in, "/") {
			// The fast paths say what the slow ones do.
			slow, errSlow := cleanPathSlow(in)
			if slow != clean || (err == nil) != (errSlow == nil) {
				t.Fatalf("%q: cleanPath %q %v, cleanPathSlow %q %v", in, clean, err, slow, errSlow)
			}
			for _, cs := range []bool{false, true} {
				if got, want := matchPath(slow, cs), matchPathSlow(slow, cs); err == nil && got != want {
					t.Fatalf("%q (case sensitive %v): matchPath %q, matchPathSlow %q", slow, cs, got, want)
				}
			}
		}
		if err != nil || !strings.HasPrefix(in, "/") {
			return
		}
		if again, err := cleanPath(clean); err != nil || again != clean {
			t.Fatalf("%q cleans to %q, then to %q, %v", in, clean, again, err)
		}
		body := strings.TrimSuffix(clean[1:], "/")
		for _, seg := range strings.Split(body, "/") {
			name, _, _ := strings.Cut(seg, ";")
			if clean != "/" && (name == "." || name == ".." || seg == "") {
				t.Fatalf("%q: segment %q left in %q", in, seg, clean)
			}
		}
		for i := 0; i+2 < len(clean); i++ {
			if clean[i] == '%' {
				v := unhex(clean[i+1])<<4 | unhex(clean[i+2])
				if isUnreserved(v) || v == '/' || v == '\\' || v == 0 {
					t.Fatalf("%q: escape %q left in %q", in, clean[i:i+3], clean)
				}
			}
		}
	})
}

func TestRoutesMatch(t *testing.T) {
	m := jsonmask.MustCompile(`{}`)
	routes := []Route{
		{Pattern: "GET /v1/items", Mask: m},
		{Pattern: "GET /v1/items/{id}", Mask: m},
		{Pattern: "/v1/files/", Mask: m},
		{Pattern: "POST /v1/items", Mask: m},
		{Pattern: "api.example.com/v2/", Mask: m},
		{Pattern: "GET /CamelCase/Path", Mask: m},
	}
	cases := []struct {
		method, host, path string
		want               int // index in routes, -1 none
		caseSensitive      bool
	}{
		{"GET", "x", "/v1/items", 0, false},
		{"HEAD", "x", "/v1/items", 0, false},
		{"GET", "x", "/v1/items/", 0, false},
		{"GET", "x", "/v1/items/42", 1, false},
		{"GET", "x", "/v1/items/42/", 1, false},
		{"POST", "x", "/v1/items", 3, false},
		{"PUT", "x", "/v1/items", 0, false},        // G8: a path that GET's route covers
		{"DELETE", "x", "/v1/items/1", 1, false},   // the same
		{"get", "x", "/v1/items", 0, false},        // methods compare in upper case
		{"Post", "x", "/v1/items", 3, false},       //
		{"GET", "x", "/v1/items.json", 0, false},   // a format suffix
		{"GET", "x", "/v1/items%3B", 0, false},     // an encoded ';'
		{"GET", "x", "/v1/items%20", 0, false},     // encoded whitespace
		{"GET", "x", "/v1/%09items%0D/", 0, false}, //
		{"GET", "api.example.com.", "/v2/x", 4, false},
		{"GET", "API.EXAMPLE.COM.:8080", "/v2/x", 4, false},
		{"GET", "x", "/v1/files", 2, false},
		{"GET", "x", "/v1/files/a/b", 2, false},
		{"GET", "api.example.com", "/v2/x", 4, false},
		{"GET", "API.Example.com:8080", "/v2/x", 4, false},
		{"GET", "other.com", "/v2/x", -1, false},
		{"GET", "x", "/camelcase/path", 5, false},
		{"GET", "x", "/V1/ITEMS", 0, false},
		{"GET", "x", "/V1/ITEMS", -1, true},
		{"GET", "x", "/CamelCase/Path", 5, true},
		{"GET", "x", "/camelcase/path", -1, true},
		{"GET", "x", "/v1", -1, false},
	}
	for _, c := range cases {
		rs, err := NewRoutes(routes, CaseSensitivePaths(c.caseSensitive))
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(c.method, "http://"+c.host+c.path, nil)
		r.Host = c.host
		d, err := rs.Match(r)
		if err != nil {
			t.Fatalf("%s %s%s: %v", c.method, c.host, c.path, err)
		}
		got := -1
		for i := range rs.routes {
			if d.Route == &rs.routes[i] {
				got = i
			}
		}
		if got != c.want {
			t.Errorf("%s %s%s (case-sensitive %v): route %d, want %d", c.method, c.host, c.path, c.caseSensitive, got, c.want)
		}
		if dp, err := rs.MatchPath(c.method, c.host, c.path, nil); err != nil || dp != d {
			t.Errorf("%s %s%s: MatchPath %+v, %v; Match %+v", c.method, c.host, c.path, dp, err, d)
		}
	}
}

// TestMatchPath: MatchPath cleans and refuses paths as Match does, also
// those that an *http.Request could not hold (bad percent-encoding), and
// leaves the query to its caller.
func TestMatchPath(t *testing.T) {
	rs, err := NewRoutes([]Route{{Pattern: "GET /v1/items", Mask: jsonmask.MustCompile(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range pathCases {
		t.Run(c.in, func(t *testing.T) {
			d, err := rs.MatchPath("GET", "x", c.in, nil)
			switch {
			case c.err || c.nonASCII:
				if !errors.Is(err, ErrBadPath) {
					t.Fatalf("MatchPath: %+v, %v; want ErrBadPath", d, err)
				}
			case err != nil || d.Path != c.clean:
				t.Fatalf("MatchPath: %+v, %v; want path %q", d, err, c.clean)
			case (d.Route != nil) != (c.match == "/v1/items" || c.match == "/v1/items.json"):
				t.Fatalf("MatchPath: route %v for %q", d.Route, c.match)
			}
		})
	}
}

func TestNewRoutesErrors(t *testing.T) {
	m := jsonmask.MustCompile(`{}`)
	cases := map[string][]Route{
		"NoMask":     {{Pattern: "/a"}},
		"BadPattern": {{Pattern: "GET", Mask: m}},
		"BadWild":    {{Pattern: "/a/{x", Mask: m}},
		"Conflict":   {{Pattern: "/a/{x}", Mask: m}, {Pattern: "/a/{y}", Mask: m}},
		"Duplicate":  {{Pattern: "/a", Mask: m}, {Pattern: "/a", Mask: m}},
		"CaseDup":    {{Pattern: "/a", Mask: m}, {Pattern: "/A", Mask: m}},
		"BadStatus":  {{Pattern: "/a", Mask: m, Statuses: []int{2000}}},
	}
	for name, routes := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := NewRoutes(routes)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "jsonmask: gateway: route") || strings.Contains(err.Error(), "\n") {
				t.Errorf("message %q", err)
			}
		})
	}
}

func TestUpstreamEncoding(t *testing.T) {
	cases := map[string]string{
		"":                          "identity",
		"gzip":                      "gzip",
		"x-gzip":                    "gzip",
		"br":                        "identity",
		"br, gzip;q=0.5":            "gzip",
		"gzip;q=0, zstd":            "zstd",
		"identity;q=0, br":          "identity",
		"*":                         "gzip, zstd, deflate",
		"*;q=0":                     "identity",
		"gzip;q=0, *":               "zstd, deflate",
		"GZIP, Deflate":             "gzip, deflate",
		"gzip;q=0.000":              "identity",
		"gzip;q=bogus":              "identity",
		"zstd, gzip, deflate, br":   "gzip, zstd, deflate",
		"deflate;level=1;q=1, zstd": "zstd, deflate",
	}
	for in, want := range cases {
		h := http.Header{}
		if in != "" {
			h.Set("Accept-Encoding", in)
		}
		FixRequestHeader(h, true)
		if got := h.Get("Accept-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: upstream gets %q, want %q", in, got, want)
		}
	}
}

func TestFixRequestHeader(t *testing.T) {
	h := http.Header{
		"Range": {"bytes=0-1"}, "If-Range": {`"x"`}, "Upgrade": {"websocket"}, "Connection": {"Upgrade"},
		"X-Http-Method-Override": {"GET"}, "X-Http-Method": {"GET"}, "X-Method-Override": {"GET"},
		"Accept": {"text/html"},
	}
	unmasked := h.Clone()
	FixRequestHeader(unmasked, false)
	for _, k := range methodOverrides {
		if unmasked.Get(k) != "" {
			t.Errorf("%s kept on an unmasked route", k)
		}
	}
	if unmasked.Get("Range") == "" || unmasked.Get("Upgrade") == "" {
		t.Error("an unmasked route lost Range or Upgrade")
	}
	FixRequestHeader(h, true)
	for _, k := range []string{"Range", "If-Range", "Upgrade", "Connection", "X-Http-Method-Override"} {
		if h.Get(k) != "" {
			t.Errorf("%s kept on a masked route", k)
		}
	}
	if h.Get("Accept") != "text/html" {
		t.Error("Accept changed")
	}
}

func TestFixResponseHeader(t *testing.T) {
	h := http.Header{
		"Content-Length": {"10"}, "Content-Md5": {"x"}, "Digest": {"x"}, "Repr-Digest": {"x"},
		"Content-Digest": {"x"}, "Accept-Ranges": {"bytes"}, "Etag": {`"abc"`}, "Vary": {"Accept-Encoding"},
		"Content-Encoding": {"gzip"}, "Content-Type": {"application/json"},
	}
	FixResponseHeader(h)
	want := http.Header{"Etag": {`W/"abc"`}, "Vary": {"Accept-Encoding"}, "Content-Encoding": {"gzip"}, "Content-Type": {"application/json"}}
	if len(h) != len(want) {
		t.Fatalf("header %v, want %v", h, want)
	}
	for k, v := range want {
		if h.Get(k) != v[0] {
			t.Errorf("%s: %q, want %q", k, h.Get(k), v[0])
		}
	}
	weak := http.Header{"Etag": {`W/"abc"`}}
	FixResponseHeader(weak)
	if weak.Get("Etag") != `W/"abc"` {
		t.Errorf("weak ETag became %q", weak.Get("Etag"))
	}
}

func TestTreat(t *testing.T) {
	m := jsonmask.MustCompile(`{}`)
	all := &Route{Pattern: "/", Mask: m}
	only200 := &Route{Pattern: "/", Mask: m, Statuses: []int{200, 404}}
	cases := []struct {
		rt     *Route
		method string
		status int
		want   Treatment
	}{
		{all, "GET", 200, Mask}, {all, "POST", 201, Mask}, {all, "GET", 299, Mask},
		{all, "HEAD", 200, FixHeader}, {all, "GET", 304, FixHeader}, {only200, "GET", 304, FixHeader},
		{all, "GET", 204, Pass}, {all, "GET", 404, Pass}, {all, "GET", 500, Pass}, {all, "HEAD", 404, Pass},
		{only200, "GET", 201, Pass}, {only200, "GET", 404, Mask},
		{all, "GET", 206, Refuse}, {only200, "GET", 206, Refuse}, {all, "GET", 101, Refuse},
	}
	for _, c := range cases {
		got, err := c.rt.Treat(c.method, c.status)
		if got != c.want || (got == Refuse) != (err != nil) {
			t.Errorf("%s %d (statuses %v): %v, %v; want %v", c.method, c.status, c.rt.Statuses, got, err, c.want)
		}
	}
}

// FuzzPlainPath: a path that plainPath passes is read by url.Parse as
// itself, so that the mux matches what it would have matched parsed.
func FuzzPlainPath(f *testing.F) {
	for _, c := range pathCases {
		f.Add(c.in)
		f.Add(c.clean)
	}
	f.Add("/a#b")
	f.Add("/a?b")
	f.Add("//x")
	f.Fuzz(func(t *testing.T, path string) {
		if !strings.HasPrefix(path, "/") || !plainPath(path) {
			return
		}
		u, err := url.Parse(path)
		if err != nil || u.Path != path || u.RawPath != "" || u.Host != "" || u.Opaque != "" {
			t.Fatalf("%q: url.Parse gives %#v, %v", path, u, err)
		}
	})
}

// FuzzCanonicalHost: the fast path of canonicalHost says what the slow
// one does.
func FuzzCanonicalHost(f *testing.F) {
	for _, h := range []string{"", "api.example.com", "API.example.com", "api.example.com.", "api.example.com.:8080", "[::1]:80", "[::1.]", "a..", "x.:"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, host string) {
		if got, want := canonicalHost(host), canonicalHostSlow(host); got != want {
			t.Fatalf("%q: canonicalHost %q, canonicalHostSlow %q", host, got, want)
		}
	})
}
