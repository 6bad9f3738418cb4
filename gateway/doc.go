// Package gateway masks HTTP responses on their way to the client: net/http
// middleware ([Handler], and [Middleware] for servers whose handlers
// return errors, as Caddy's do), a reverse proxy ([NewReverseProxy]) and
// the push-style pipeline they share ([Body]), which plug-ins for other
// servers (a Caddy handler, an Envoy ext_proc server) reuse. The rules are SPEC.md
// section 8 (G1 to G11); comments cite them.
//
// # Routes
//
// A [Route] maps a request pattern in net/http's ServeMux syntax
// ("GET /v1/items/{id}") to a compiled mask and the statuses it applies
// to (every 2xx by default). [NewRoutes] compiles them; the most specific
// pattern wins. Requests are matched on a canonical path (SPEC G8): dot
// segments removed (also "%2e" and "..;"), slashes merged,
// percent-encoding of unreserved characters decoded, ";params" and a
// trailing slash ignored, letters compared without case (unless
// [CaseSensitivePaths]). The upstream receives the clean path with its
// case. A path with an encoded slash or backslash, a backslash, a NUL or
// bad percent-encoding is refused with 400: a lenient upstream could read
// it as a masked route. A request that matches no route goes through
// untouched, but loses its method-override and URL-override headers
// (X-Original-URL, X-Rewrite-URL) on every route. Hosts compare without
// case and without a trailing dot.
//
// # Responses
//
// On a masked route every response with a body whose status is listed is
// masked; HEAD, 1xx, 204 and 304 have no body, and other statuses pass
// ([Route.Treat] says which).
// The body is classified by its bytes (SPEC B1), never by its
// Content-Type, which only chooses the framing: NDJSON for
// application/x-ndjson and application/jsonl, events for
// text/event-stream (each event's data is masked and the event flushed at
// once), one document otherwise. Bodies coded gzip, x-gzip, deflate (zlib)
// or zstd are decoded, masked and coded again with the same coding; the
// Accept-Encoding sent upstream names only those. The header loses
// Content-Length, digests and Accept-Ranges, and a strong ETag is
// weakened ([FixResponseHeader]); Range and If-Range are removed from the
// request ([FixRequestHeader]), and a 206 is refused.
//
// # Failing closed
//
// A masked body that is refused (invalid JSON, a limit, an unknown
// coding, a 206, an upstream that breaks) before any byte was sent
// becomes a 502 with an application/problem+json body (RFC 9457) that
// gives the reason, offset and pointer, never content of the body. After
// bytes were sent, the response is aborted: the handler panics with
// http.ErrAbortHandler, so net/http closes an HTTP/1.1 connection before
// the final chunk and resets an HTTP/2 stream. To keep the 502 possible
// as long as it can, the status line waits for the first masked byte.
//
// # Limits and memory
//
// [Limits] bound the decoded body (256 MiB; per event for event streams),
// the decoded-to-coded ratio (200, past 1 MiB decoded: a decompression
// bomb is stopped early), the depth (10000), the token size (64 MiB), and
// the proxy's wait for the upstream's header (30 s). Memory per response
// in flight is the masker's window (32 KiB in, a little more out) and the
// codecs' state, whatever the body's size: about 1 MiB for a gzip or
// deflate encoder, 2.5 MiB for zstd's, and the decoder's window (32 KiB,
// or at most 8 MiB for zstd). Coded bodies are decoded in a coroutine (iter.Pull) that runs only
// while Body's methods do: no goroutine runs beside the caller's.
//
// # Plug-ins
//
// A server that is not built on net/http's handlers (an Envoy ext_proc
// server, which sees a request as headers and a response as chunks) or
// whose handlers return errors (Caddy) builds on the same pieces that
// Handler is made of, and keeps its rules:
//
//   - [Routes.Match] (an *http.Request) or [Routes.MatchPath] (":method",
//     ":authority" and ":path") finds a request's route on its canonical
//     path, gives the clean path for the upstream, and refuses a path that
//     must be refused (ErrBadPath: answer 400).
//   - [FixRequestHeader] cleans the request's header before it goes
//     upstream: method overrides off on every route; Range, If-Range and
//     Upgrade off, and Accept-Encoding limited, on a masked one.
//   - [Route.Treat] says what the route does with a response, by method
//     and status: [Pass] it, fix its header only ([FixHeader]), [Mask] it,
//     or [Refuse] it with a 502 (a 206, a 101).
//   - [FixResponseHeader] fixes the header of a masked response before it
//     is sent.
//   - [Body] masks the body pushed to it in pieces (Write, Flush, Close or
//     Abort), decoding and coding it again, with the [Limits].
//   - [Problem] is the 400 or 502 problem document and its header, for a
//     refusal that the server answers its own way (an ImmediateResponse).
//   - [Middleware] is Handler for servers whose handlers return errors:
//     [Middleware.ServeNext] takes the next handler as a [NextFunc].
//
// A plug-in that sent bytes before a refusal aborts the response, as
// Handler does: the rules of failing closed are the plug-in's to keep.
//
// # Config
//
// The config files of `jsonmask serve`, jsonmask-extproc and the Caddy
// module's JSON, and the serve / reload / drain loop of the commands, are
// package config's: this package keeps what a Go program embeds.
//
// # Observability
//
// [WithObserver] gets one [Report] per request (route, status, outcome,
// bytes in and out, masking time, duration, error): the hook that
// `jsonmask serve` turns into Prometheus metrics and one log line, with
// the attributes of [Report.LogAttrs] at [Report.Level]; errors in them
// are redacted (jsonmask.Redact: no body byte, no dropped key). The
// package depends on no metrics or logging library (log/slog's types
// aside).
//
// # Security considerations
//
//   - Nothing dropped by a mask reaches the client on any path: errors
//     become 502s before the first byte and aborts after it, and what was
//     sent before an abort is a prefix of the masked body (SPEC V5).
//   - Bodies that are not JSON objects pass through unmasked (SPEC B3), as
//     does an upstream's other representation of a resource (an XML or
//     HTML body that it chose for the request's Accept header). Routes
//     that must never pass data unmasked should use jsonmask.WithStrict.
//   - An HTTP/1.0 client cannot be told that an aborted response is cut
//     short (its body ends at the connection's close): it gets a prefix of
//     the masked body, never a dropped byte.
//   - In an event stream only the lines of data, event, id, retry and
//     comments are kept: every other line (a lenient parser's "Data:", a
//     JSON body labelled text/event-stream) is dropped, since it was never
//     masked; on a strict route a payload that is not an object is
//     refused, but those of SSEPassthrough ("[DONE]").
//   - Methods compare in upper case, and on a path that a route covers
//     every method is masked (by the GET route first); a "_method"
//     parameter or a form POST that the upstream could route under a
//     method with another route is refused, as are CONNECT, "%25",
//     non-ASCII paths where paths compare without case, and a format
//     suffix ("/v1/items.json") that names another route without it.
//   - The handler's ResponseWriter refuses Hijack on masked routes, and
//     the request loses Upgrade there: a switched protocol would carry the
//     upstream's bytes past the mask.
package gateway
