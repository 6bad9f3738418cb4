// Package extproc is an Envoy external processing server
// (envoy.service.ext_proc.v3) that masks response bodies with jsonmask, so
// that masking runs beside the Envoy fleet a team already operates instead
// of behind another proxy hop. It is built on the gateway package and
// follows its rules (SPEC.md section 8); comments cite them.
//
// # The protocol
//
// Envoy opens one gRPC stream per HTTP request and sends, in order, the
// request headers, the response headers, the response body in chunks (the
// last one with end_of_stream set, unless trailers follow) and the
// response trailers. The server answers each as the proto says:
//
//   - Request headers: ":method", ":authority" and ":path" choose the route
//     (SPEC G1) on the canonical path (G8); a path that changed when it
//     was cleaned is set back as ":path" (query kept), so that the upstream
//     gets the path that was matched; method-override headers are removed
//     on every route, and on a masked route Range, If-Range and Upgrade are
//     removed and Accept-Encoding limited to codings the gateway decodes
//     (gateway.FixRequestHeader). A path that must be refused gets an
//     ImmediateResponse 400 with a problem document.
//   - Response headers: the route decides what the response is
//     (gateway.Route.Treat); a masked body's header loses Content-Length,
//     digests and Accept-Ranges, and a strong ETag is weakened
//     (gateway.FixResponseHeader), each as a header mutation.
//   - Body chunks: each chunk goes through a gateway.Body (decode, frame,
//     mask, encode, SPEC G2, G3) and what comes out goes back to Envoy.
//   - Trailers: forwarded, less those that describe the upstream's bytes.
//
// # Body modes
//
// Envoy's processing mode says how body chunks are answered; the server
// reads it from the protocol_config of the stream's first message (Envoy
// 1.34 and later) and assumes STREAMED when there is none.
//
//   - FULL_DUPLEX_STREAMED (recommended): chunks are answered with
//     StreamedBodyResponse messages, as many as the masker makes (each at
//     most 64 KiB), the last one with end_of_stream. The answer to the
//     response headers is held until the first masked byte is ready, as
//     gateway.Handler holds the status line, so that a body refused early
//     still becomes a 502. Trailers are supported.
//   - STREAMED (and BUFFERED, one chunk): each chunk is answered by exactly
//     one BodyResponse that replaces it with what the masker made of it
//     (often nothing, then more later). The answer to the headers must come
//     first, so a refusal resets the response. A coded body whose response
//     has trailers cannot be ended (a body response cannot follow the
//     trailers), so it is reset: use FULL_DUPLEX_STREAMED for such upstreams.
//   - NONE, BUFFERED_PARTIAL and GRPC cannot mask a whole body: a response
//     that must be masked is refused with a 502.
//
// Bodies are flushed after every chunk when the response has no
// Content-Length (a streamed body: NDJSON, events, a slow upstream), as
// `jsonmask serve` does; otherwise output leaves in windows.
//
// # Failing closed
//
// A masked response that is refused (invalid JSON, a limit, an unknown
// coding, a 206, a body mode that cannot mask) before any byte of its body
// was sent gets an ImmediateResponse: a 502 with an
// application/problem+json body (gateway.Problem) that gives the reason,
// offset and pointer, never content of the body. After bytes were sent, the
// server ends the stream with an error (codes.Aborted): with
// failure_mode_allow false, Envoy answers a stream error with a local reply,
// which resets a response whose headers have left (SPEC G5). The server
// never ends a stream with OK before the response ended: Envoy would pass
// the rest of the body through unprocessed.
//
// A response whose request headers the server never saw (request header
// mode SKIP) has no route and is refused: a misconfigured filter must not
// disable masking silently. So is a stream in observability_mode, whose
// answers Envoy ignores.
//
// # Limits and memory
//
// Per stream the server holds the gateway.Body (its window and the codecs'
// state, see the gateway package) and the masked bytes made from one chunk
// until they are sent; nothing runs beside the stream's goroutine (a coded
// body's decoder is a coroutine that runs only in turn with it). The
// largest chunk is bounded by the gRPC server's receive limit (4 MiB by
// default in grpc-go) and by Envoy's buffer limits.
//
// # Security considerations
//
//   - Envoy must be configured with failure_mode_allow false (the default)
//     and disable_immediate_response false (the default): with either
//     changed, some refusals let the rest of a body through unmasked, and
//     the server cannot tell from its side.
//   - observability_mode must be off and response_body_mode must be
//     STREAMED or FULL_DUPLEX_STREAMED on routes with masks; the server
//     refuses what it can see is wrong.
//   - The request header mode must be SEND: the route is chosen from the
//     request's path, and a response without one is refused.
//   - Bodies that are not JSON objects pass through unmasked (SPEC B3);
//     routes that must never pass data unmasked should use
//     jsonmask.WithStrict.
//   - The ext_proc channel carries every body in clear: run the server on
//     the same host or pod as Envoy, or give the cluster TLS.
package extproc
