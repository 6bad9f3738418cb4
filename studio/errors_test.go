package studio

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestNewErrors: a sample that is not JSON, or a bad mask, is said once as
// the studio's ("studio: WHERE: what"), without the library's "jsonmask: "
// in the middle, and errors.As still finds the library's error.
func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want string
		as   func(error) bool
	}{
		{"NotJSON", Config{Samples: []Sample{{Name: "bad.json", Data: []byte(`{"a":`)}}},
			"studio: bad.json: neither JSON nor NDJSON: unexpected end of JSON input at offset 5 (/a)",
			func(err error) bool { var e *jsonmask.SyntaxError; return errors.As(err, &e) }},
		{"BadMask", Config{Mask: []byte(`{"a":false}`), Samples: []Sample{{Name: "s.json", Data: []byte(`{}`)}}},
			`studio: the mask: mask member "/a" must be true or an object, got false`,
			func(err error) bool { var e *jsonmask.MaskError; return errors.As(err, &e) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.cfg)
			if err == nil || err.Error() != c.want {
				t.Fatalf("New: %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "jsonmask: ") {
				t.Errorf("%q holds the library's prefix", err)
			}
			if !c.as(err) {
				t.Errorf("errors.As(%q) finds no library error", err)
			}
		})
	}
}
