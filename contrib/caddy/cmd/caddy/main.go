// Command caddy is Caddy with its standard modules and jsonmask's
// http.handlers.jsonmask: the binary that xcaddy would build with
// --with github.com/jsonmask/jsonmask/contrib/caddy, built with go alone.
//
//	go build -o caddy ./cmd/caddy
//	./caddy list-modules | grep jsonmask
//	./caddy run --config Caddyfile
package main

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"

	_ "github.com/caddyserver/caddy/v2/modules/standard"

	_ "github.com/jsonmask/jsonmask/contrib/caddy"
)

func main() {
	caddycmd.Main()
}
