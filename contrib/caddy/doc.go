// Package jsonmaskcaddy is jsonmask as a Caddy v2 HTTP handler module,
// http.handlers.jsonmask, with the Caddyfile directive jsonmask: it masks
// the responses of the handlers after it (reverse_proxy, respond,
// file_server, ...) with the rules of `jsonmask serve`, SPEC.md section 8,
// by calling the gateway package's pipeline. Build a Caddy with it with
// xcaddy (xcaddy build --with github.com/jsonmask/jsonmask/contrib/caddy)
// or with this module's cmd/caddy.
//
// # Config
//
// In a Caddyfile:
//
//	route /v1/* {
//		jsonmask {
//			mask_file masks/items.json
//			arrays
//			strict
//		}
//		reverse_proxy 127.0.0.1:9000
//	}
//
// and in JSON:
//
//	{"handler": "jsonmask", "mask_file": "masks/items.json", "arrays": true, "strict": true}
//
// The mask is given by one of mask (inline JSON), mask_file (a file,
// read when the config is loaded) or fields (the text syntax of SPEC T1),
// with the options arrays, strict, drop_mismatched, trusted, wildcards and
// statuses (default every 2xx). It applies to every request that reaches
// the handler, that is, that Caddy's matchers sent there. routes add
// masks for request patterns in the gateway's own syntax, matched on the
// canonical path of SPEC G8 ("GET /v1/items/{id}"; the most specific
// wins; a request that matches none is passed untouched), for a handler
// placed before Caddy's own routing. limits takes the gateway's limits
// (SPEC G6). Unknown keys are errors, in JSON and in a Caddyfile: a typo
// must not silently disable a mask.
//
// # Order
//
// The directive's place in a Caddyfile's order is right after encode, so
// that encode compresses the masked body, and before the handlers whose
// responses it masks (respond, reverse_proxy, file_server, ...). In a
// route block the order is the one written.
//
// # What it does
//
// Everything that the gateway does for `jsonmask serve`: bodies
// classified by their bytes, NDJSON and event-stream framing, gzip,
// deflate and zstd bodies decoded and coded again (reverse_proxy passes
// them as the upstream sent them), Content-Length, digests and
// Accept-Ranges removed and a strong ETag weakened, Range and
// method-override headers removed from the request, paths refused with
// 400 where the gateway refuses them, and failing closed: a 502 problem
// document before the first byte, an aborted response after it. An error
// of the next handler before it wrote anything (reverse_proxy that cannot
// reach its upstream) goes to Caddy's error handling (handle_errors), as
// it would without the handler: there is no body to mask.
//
// Refused and aborted responses are logged at the warn level by the
// module's logger (http.handlers.jsonmask), with the route, status,
// outcome, bytes and the reason, never body content.
//
// # Security considerations
//
//   - The mask applies to what reaches the handler: with the handler in a
//     route block, Caddy's matcher decides which requests are masked,
//     and an upstream that reads paths more leniently than Caddy (";x"
//     parameters, encoded slashes) could serve a masked resource to a
//     request that Caddy did not send there. Put the handler where every
//     request to the upstream passes (the site block, first) and name the
//     masked resources in its routes, which are matched on the canonical
//     path of SPEC G8, or use strict.
//   - Responses written by handle_errors routes are not masked: they are
//     Caddy's, not the upstream's, unless they proxy again.
//   - The notes of the gateway package apply: bodies that are not JSON
//     objects pass unless strict; an HTTP/1.0 client cannot tell an
//     aborted response from a complete one.
package jsonmaskcaddy
