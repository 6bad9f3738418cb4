package jsonmaskcaddy

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
)

// TestConfigErrorChain: a fault the handler reports keeps the library's
// error in its chain (errors.As, errors.Is), and its message, which Caddy
// puts after the module's name, does not say "jsonmask: " again.
func TestConfigErrorChain(t *testing.T) {
	_, maskErr := jsonmask.Compile([]byte(`{"a":false}`))
	_, deepErr := jsonmask.Compile([]byte(`{"a":{"b":{}}}`), jsonmask.WithMaxDepth(2))
	_, routesErr := gateway.NewRoutes([]gateway.Route{{Pattern: "GET", Mask: jsonmask.MustCompile(`{}`)}})
	asMask := func(err error) bool { var e *jsonmask.MaskError; return errors.As(err, &e) }
	for _, c := range []struct {
		name string
		err  error
		want string
		as   func(error) bool
		is   error
	}{
		{"Mask", configError(`route 0 ("/v1/")`, maskErr), `route 0 ("/v1/"): mask member "/a" must be true or an object, got false`, asMask, nil},
		{"TooDeep", configError("", deepErr), deepErr.(*jsonmask.MaskError).Detail(), asMask, jsonmask.ErrMaxDepth},
		{"Routes", configError("", routeFault(routesErr)), `route 0 ("GET"): parsing`, nil, nil},
		{"Own", configError("", errors.New("no mask")), "no mask", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := c.err.Error()
			if !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "jsonmask: ") {
				t.Errorf("message %q, want it to start %q, without the library's prefix", msg, c.want)
			}
			if c.as != nil && !c.as(c.err) {
				t.Errorf("errors.As(%q) finds no *jsonmask.MaskError", msg)
			}
			if c.is != nil && !errors.Is(c.err, c.is) {
				t.Errorf("errors.Is(%q, %v) = false", msg, c.is)
			}
		})
	}
}
