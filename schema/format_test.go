package schema

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// formatCases are strings at the edges of the formats, the seeds of
// FuzzFormats.
var formatCases = []string{
	"", "2024-01-02", "2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "0000-02-29", "2024-13-01",
	"2024-00-10", "2024-04-31", "2024-1-02", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.5+01:00",
	"2024-01-02T24:00:00Z", "2024-01-02t03:04:05Z", "123e4567-e89b-12d3-a456-426614174000",
	"123E4567-E89B-12D3-A456-42661417400g", "ana@example.com", "a@b", "a..b@example.com",
	"http://a@b.com", "https://example.com/p?q=1", "HTTPS://Example.COM:443/a#f", "http://x",
	"http://x:", "http://x:99999", "http://x:123456/", "http://x:8o/", "http://:80/", "http://",
	"http:/x.com", "http:x.com", "ftp://example.com", "https://example.com/%zz", "https://example.com/%41",
	"https://exa%6Dple.com/", "https://[::1]:80/", "http://a:b:c/", "https://a.b?x/y#z", "https://a.b#x?y",
	"https://-a.b/", "https://a-.b/", "https://1.2.3.4/", "https://a.b.c.d.e.f/" + "x",
	"https://a.b/" + "y\x7f", "https://a_b.c/", "https://a b.c/", "http://example.com/ü",
}

// TestIsDate checks isDate against time.Parse, which it replaces, on every
// year with the months and days around the edges.
func TestIsDate(t *testing.T) {
	for y := range 10000 {
		for _, m := range []int{0, 1, 2, 3, 4, 6, 9, 11, 12, 13, 99} {
			for _, d := range []int{0, 1, 28, 29, 30, 31, 32, 99} {
				s := fmt.Sprintf("%04d-%02d-%02d", y, m, d)
				_, err := time.Parse("2006-01-02", s)
				if got := isDate([]byte(s)); got != (err == nil) {
					t.Fatalf("isDate(%s) = %v, time.Parse: %v", s, got, err)
				}
			}
		}
	}
}

// TestPlainURI checks that plainURI decides the common URIs, and as
// url.Parse does.
func TestPlainURI(t *testing.T) {
	for _, tc := range []struct {
		s        string
		ok, sure bool
	}{
		{"https://example.com/p?q=1", true, true},
		{"HTTPS://Example.COM:443/a#f", true, true},
		{"http://x", true, true},
		{"http://x:", true, true},
		{"http://x:123456/", false, true},
		{"http://x:8o/", false, true},
		{"http://", false, true},
		{"https://a.b?x/y#z", true, true},
		{"https://-a.b/", false, true},
		{"https://example.com/%41", true, true},
		{"https://example.com/a?d=https://b.c%2Fx.png#%7e", true, true},
		{"https://example.com/%zz", false, false},
		{"https://example.com/%4", false, false},
		{"http://a@b.com", false, false},
		{"https://[::1]/", false, false},
		{"ftp://example.com", false, true},
		{"User", false, true},
		{"http:/x.com", false, true},
		{"http:x.com", false, true},
		{"HtTp://x.com", true, true},
	} {
		t.Run(tc.s, func(t *testing.T) {
			ok, sure := plainURI([]byte(tc.s))
			if ok != tc.ok || sure != tc.sure {
				t.Fatalf("plainURI = %v, %v; want %v, %v", ok, sure, tc.ok, tc.sure)
			}
			if sure && ok != parsedURI([]byte(tc.s)) {
				t.Fatalf("plainURI %v, url.Parse %v", ok, !ok)
			}
		})
	}
}

// FuzzFormats checks the format checks' shortcuts against what they
// replace (isDate against time.Parse, plainURI against url.Parse), and that
// a string has at most one format, which hasFormat relies on.
func FuzzFormats(f *testing.F) {
	for _, s := range formatCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		_, err := time.Parse("2006-01-02", s)
		if isDate(b) != (err == nil && len(s) == 10) {
			t.Fatalf("isDate(%q) = %v, time.Parse: %v", s, isDate(b), err)
		}
		// plainURI is asked only of strings that isURI's filter passes.
		if ok, sure := plainURI(b); sure && uriChars(b) && ok != parsedURI(b) {
			t.Fatalf("plainURI(%q) = %v, url.Parse %v", s, ok, !ok)
		}
		n := 0
		for _, fm := range formatNames {
			if hasFormat(fm.bit, b) {
				n++
				if formatsOf(b) != fm.bit {
					t.Fatalf("%q has %s, formatsOf says %d", s, fm.name, formatsOf(b))
				}
			}
		}
		if n > 1 {
			t.Fatalf("%q has %d formats", s, n)
		}
	})
}

// TestURIChars checks uriByte's table, byte by byte, against the rule.
func TestURIChars(t *testing.T) {
	for c := range 256 {
		want := c > ' ' && c < 0x7f && !strings.ContainsRune(`"<>\^{|}`+"`", rune(c))
		if got := uriChars([]byte{byte(c)}); got != want {
			t.Errorf("uriChars(%q) = %v", byte(c), got)
		}
	}
}
