package jsonmaskcaddy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/dustin/go-humanize"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
)

func init() {
	httpcaddyfile.RegisterHandlerDirective("jsonmask", parseCaddyfile)
	// After encode, so that encode compresses the masked body; before the
	// handlers that write responses (respond, reverse_proxy, ...).
	httpcaddyfile.RegisterDirectiveOrder("jsonmask", httpcaddyfile.After, "encode")
}

func parseCaddyfile(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	var jm Handler
	err := jm.UnmarshalCaddyfile(h.Dispenser)
	return &jm, err
}

// UnmarshalCaddyfile reads the directive:
//
//	jsonmask [<matcher>] {
//		mask            <json>       # inline, in backquotes: `{"id": true}`
//		mask_file       <path>
//		fields          <text>       # "id,user(name)"
//		arrays
//		strict
//		drop_mismatched
//		trusted
//		wildcards
//		statuses        <code...>
//		sse_passthrough [<payload>...] # strict routes: "[DONE]" unless given
//		route <pattern> {            # "GET /v1/items/{id}"; as many as needed
//			<mask, mask_file, fields and the options above>
//		}
//		case_sensitive_paths
//		max_body_bytes  <size>|off   # 256MiB
//		max_ratio       <n>|off      # 200
//		max_depth       <n>          # 10000
//		max_token_bytes <size>|off   # 64MiB
//	}
//
// Inline masks and fields are compiled here, so that their faults name
// the Caddyfile's line; a mask_file is read when the config is loaded.
// Every fault names the file and line.
func (h *Handler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the directive's name
	if d.NextArg() {
		return d.ArgErr() // the settings go in the block
	}
	seen := map[string]bool{}
	for d.NextBlock(0) {
		key := d.Val()
		switch key {
		case "route":
			var rt Route
			if err := unmarshalRoute(d, &rt, h.Routes); err != nil {
				return err
			}
			h.Routes = append(h.Routes, rt)
			continue
		case "case_sensitive_paths":
			if err := once(d, seen); err != nil {
				return err
			}
			if d.NextArg() {
				return d.ArgErr()
			}
			h.CaseSensitivePaths = true
			continue
		case "max_body_bytes", "max_ratio", "max_depth", "max_token_bytes":
			if err := once(d, seen); err != nil {
				return err
			}
			if h.Limits == nil {
				h.Limits = new(Limits)
			}
			if err := unmarshalLimit(d, h.Limits, key); err != nil {
				return err
			}
			continue
		}
		if err := unmarshalMask(d, &h.MaskConfig, seen); err != nil {
			return err
		}
	}
	switch {
	case h.Given():
	case h.Options():
		return d.Err("mask options without a mask: give mask, mask_file or fields")
	case len(h.Routes) == 0:
		return d.Err("no mask: give mask, mask_file, fields or a route")
	}
	return nil
}

// unmarshalRoute reads a route subdirective, whose name is under the
// cursor, and its block. Its pattern is checked here, alone and against
// the routes before it, so that a bad one or a conflict names its line.
func unmarshalRoute(d *caddyfile.Dispenser, rt *Route, before []Route) error {
	if !d.NextArg() {
		return d.ArgErr()
	}
	rt.Match = d.Val()
	file, line := d.File(), d.Line()
	if d.NextArg() {
		return d.Errf("route %q: one pattern per route; quote a pattern with a method: \"GET /v1/items\"", rt.Match)
	}
	probe := make([]gateway.Route, 0, len(before)+1)
	for _, b := range append(before, *rt) {
		probe = append(probe, gateway.Route{Pattern: b.Match, Mask: anyMask})
	}
	if _, err := gateway.NewRoutes(probe); err != nil {
		return d.Errf("route %q: %s", rt.Match, what(routeFault(err)))
	}
	seen := map[string]bool{}
	for nesting := d.Nesting(); d.NextBlock(nesting); {
		if d.Val() == "route" {
			return d.Err("a route inside a route")
		}
		if err := unmarshalMask(d, &rt.MaskConfig, seen); err != nil {
			return err
		}
	}
	if !rt.Given() {
		// At the route's line, as the dispenser would say it.
		return fmt.Errorf("route %q: no mask: give mask, mask_file or fields in its block, at %s:%d", rt.Match, file, line)
	}
	return nil
}

// anyMask stands for the masks of routes whose patterns are checked.
var anyMask = jsonmask.MustCompile(`{}`)

// unmarshalMask reads the subdirective under the cursor into c: the mask
// or one of its options.
func unmarshalMask(d *caddyfile.Dispenser, c *MaskConfig, seen map[string]bool) error {
	key := d.Val()
	switch key {
	case "mask", "mask_file", "fields":
		if err := once(d, seen); err != nil {
			return err
		}
		if c.Given() {
			return d.Errf("%s: give one of mask, mask_file and fields", key)
		}
		if !d.NextArg() {
			return d.ArgErr()
		}
		v := d.Val()
		if d.NextArg() {
			if key == "mask_file" {
				return d.Errf("%s takes one argument", key)
			}
			return d.Errf("%s takes one argument: quote it, a JSON mask in backquotes", key)
		}
		var err error
		switch key {
		case "mask":
			// A byte-order mark (SPEC M8) has no place in the JSON config.
			src := bytes.TrimPrefix([]byte(v), []byte("\uFEFF"))
			if _, err = jsonmask.Compile(src); err == nil {
				var b bytes.Buffer
				err = json.Compact(&b, src)
				c.Mask = b.Bytes()
			}
		case "mask_file":
			c.MaskFile = v
		case "fields":
			_, err = jsonmask.CompileFields(v)
			c.Fields = v
		}
		if err != nil {
			return d.Errf("%s: %s", key, what(err))
		}
		return nil
	case "statuses":
		if err := once(d, seen); err != nil {
			return err
		}
		args := d.RemainingArgs()
		if len(args) == 0 {
			return d.ArgErr()
		}
		for _, a := range args {
			code, err := strconv.Atoi(a)
			if err != nil || code < 100 || code > 599 {
				return d.Errf("statuses: %q is not a status code", a)
			}
			c.Statuses = append(c.Statuses, code)
		}
		return nil
	case "sse_passthrough":
		if err := once(d, seen); err != nil {
			return err
		}
		c.SSEPassthrough = append([]string{}, d.RemainingArgs()...) // none: let nothing through
		return nil
	}
	flag := map[string]*bool{
		"arrays": &c.Arrays, "strict": &c.Strict, "drop_mismatched": &c.DropMismatched,
		"trusted": &c.Trusted, "wildcards": &c.Wildcards,
	}[key]
	if flag == nil {
		return d.Errf("unknown subdirective %q", key)
	}
	if err := once(d, seen); err != nil {
		return err
	}
	if d.NextArg() {
		return d.ArgErr()
	}
	*flag = true
	return nil
}

// unmarshalLimit reads the limit key, whose name is under the cursor.
func unmarshalLimit(d *caddyfile.Dispenser, l *Limits, key string) error {
	if !d.NextArg() {
		return d.ArgErr()
	}
	v := d.Val()
	if d.NextArg() {
		return d.ArgErr()
	}
	var n int64
	switch {
	case v == "off" && key != "max_depth":
		n = -1
	case key == "max_body_bytes" || key == "max_token_bytes":
		u, err := humanize.ParseBytes(v)
		if err != nil || u == 0 || u > math.MaxInt {
			return d.Errf("%s: %q is not a size such as 64MiB", key, v)
		}
		n = int64(u)
	default:
		u, err := strconv.ParseInt(v, 10, 32)
		if err != nil || u <= 0 {
			return d.Errf("%s: %q is not a positive integer", key, v)
		}
		n = u
	}
	switch key {
	case "max_body_bytes":
		l.MaxBodyBytes = n
	case "max_ratio":
		l.MaxRatio = n
	case "max_depth":
		l.MaxDepth = int(n)
	case "max_token_bytes":
		l.MaxTokenBytes = int(n)
	}
	return nil
}

// once refuses a subdirective given twice in a block: the second would
// silently win.
func once(d *caddyfile.Dispenser, seen map[string]bool) error {
	if seen[d.Val()] {
		return d.Errf("%s given twice", d.Val())
	}
	seen[d.Val()] = true
	return nil
}

// what is err's message for a line that Caddy begins with the module's
// name, chosen by err's own type: the library's *MaskError and
// *SyntaxError give their Detail, without the "jsonmask: " that their
// Error puts first; any other error is said whole.
func what(err error) string {
	switch e := err.(type) {
	case *jsonmask.MaskError:
		return e.Detail()
	case *jsonmask.SyntaxError:
		return e.Detail()
	}
	return err.Error()
}

// routeFault is the fault that gateway.NewRoutes's error wraps (it says
// "jsonmask: gateway: " and the fault, which names the route), for a
// message that names the module already; err itself if it wraps none.
func routeFault(err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

var _ caddyfile.Unmarshaler = (*Handler)(nil)
