package jsonmaskcaddy_test

import (
	"encoding/json"
	"fmt"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"

	jsonmaskcaddy "github.com/jsonmask/jsonmask/contrib/caddy"
)

// The Caddyfile directive and the JSON config it becomes (what `caddy
// adapt` prints for the handler).
func ExampleHandler_UnmarshalCaddyfile() {
	d := caddyfile.NewTestDispenser(`jsonmask {
		mask_file masks/items.json
		arrays
		strict
		route "GET /v1/users/{id}" {
			fields "id,user(name)"
		}
		max_body_bytes 64MiB
	}`)
	var h jsonmaskcaddy.Handler
	if err := h.UnmarshalCaddyfile(d); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(h)
	fmt.Println(string(b))
	// Output:
	// {"mask_file":"masks/items.json","arrays":true,"strict":true,"routes":[{"match":"GET /v1/users/{id}","fields":"id,user(name)"}],"limits":{"max_body_bytes":67108864}}
}
