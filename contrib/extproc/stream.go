package extproc

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask/gateway"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// maxPiece is the largest body piece sent back in FULL_DUPLEX_STREAMED
// mode: the proto recommends at most 64 KiB per response chunk.
const maxPiece = 64 << 10

// phase is where a stream is in its HTTP exchange.
type phase uint8

// A stream is one HTTP request and its response, as Envoy sends them. Its
// phases, what each expects next, and where it goes:
//
//	start      request headers   route chosen, request header fixed  -> requested
//	                             (or a 400 for a refused path)       -> ended
//	requested  response headers  Route.Treat: pass or fix the header -> passing
//	                             mask (header answer held in
//	                             FULL_DUPLEX_STREAMED)               -> masking
//	                             refuse: a 502                       -> ended
//	passing    body, trailers    answered unchanged                  -> passing
//	masking    body chunk        what the masker made of it          -> masking
//	                             the rest, at end_of_stream          -> ended
//	masking    trailers          the rest of the body, the trailers  -> ended
//
// Request bodies and trailers pass unchanged in any phase (an upstream may
// answer before the request's body ended). A failure on a masked response
// is a 502 before any of its body was sent, a stream error after (fail).
const (
	phaseStart phase = iota
	phaseRequested
	phasePassing
	phaseMasking
	phaseEnded
)

type stream struct {
	s        *Server
	srv      extprocv3.ExternalProcessor_ProcessServer
	first    bool // no message received yet: the protocol_config comes with it
	reqMode  procmode.ProcessingMode_BodySendMode
	respMode procmode.ProcessingMode_BodySendMode
	phase    phase
	raw      bool // header values go in raw_value, as Envoy sent them
	method   string
	route    *gateway.Route // nil: no route matched
	body     *gateway.Body  // the masked response's body
	out      outBuf         // masked bytes not yet sent
	// held is the answer to the response headers of a masked response in
	// FULL_DUPLEX_STREAMED mode, sent with the first masked bytes: until
	// then a refusal can still be a 502 (SPEC G5).
	held      *extprocv3.ProcessingResponse
	flushEach bool  // a streamed body (no Content-Length): flush every chunk
	in, sent  int64 // response body bytes received and sent
	rep       gateway.Report
}

func newStream(s *Server, srv extprocv3.ExternalProcessor_ProcessServer) *stream {
	return &stream{
		s: s, srv: srv, first: true, raw: true,
		// Envoy before 1.34 sends no protocol_config; its default mode.
		reqMode: procmode.ProcessingMode_STREAMED, respMode: procmode.ProcessingMode_STREAMED,
	}
}

// run answers Envoy's messages until it closes the stream or one fails.
func (st *stream) run() error {
	for {
		req, err := st.srv.Recv()
		if err == io.EOF {
			return nil // Envoy is done with the request
		}
		if err != nil {
			return err
		}
		if err := st.handle(req); err == errAnswered {
			return nil // Envoy sent the local reply and is done with the server
		} else if err != nil {
			return err
		}
	}
}

func (st *stream) handle(req *extprocv3.ProcessingRequest) error {
	if req.GetObservabilityMode() {
		// Envoy ignores every answer: nothing could be masked.
		st.rep.Err = errObservability
		return status.Error(codes.FailedPrecondition, errObservability.Error())
	}
	if st.first {
		st.first = false
		if pc := req.GetProtocolConfig(); pc != nil {
			st.reqMode, st.respMode = pc.GetRequestBodyMode(), pc.GetResponseBodyMode()
		}
	}
	switch r := req.GetRequest().(type) {
	case *extprocv3.ProcessingRequest_RequestHeaders:
		return st.requestHeaders(r.RequestHeaders)
	case *extprocv3.ProcessingRequest_RequestBody:
		return st.requestBody(r.RequestBody)
	case *extprocv3.ProcessingRequest_RequestTrailers:
		return st.send(&extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestTrailers{
			RequestTrailers: &extprocv3.TrailersResponse{}}})
	case *extprocv3.ProcessingRequest_ResponseHeaders:
		return st.responseHeaders(r.ResponseHeaders)
	case *extprocv3.ProcessingRequest_ResponseBody:
		return st.responseBody(r.ResponseBody)
	case *extprocv3.ProcessingRequest_ResponseTrailers:
		return st.responseTrailers(r.ResponseTrailers)
	}
	return nil // flow control alone: nothing to answer
}

// requestHeaders chooses the route (SPEC G1, G8) and fixes the request's
// header (G3, G4, G8).
func (st *stream) requestHeaders(h *extprocv3.HttpHeaders) error {
	if st.phase != phaseStart {
		return st.fail(&protocolError{what: "request headers sent twice"})
	}
	hs := readHeaders(h.GetHeaders())
	st.raw, st.method, st.rep.Method = hs.raw, hs.method, hs.method
	authority, target := hs.authority, hs.path
	if a, p, ok := absoluteForm(target); ok {
		// As net/http reads "GET http://host/path": the route is the
		// path's, the upstream gets the origin form.
		authority, target = a, p
	}
	path, query, hasQuery := strings.Cut(target, "?")
	d, err := st.s.routes.MatchPath(hs.method, authority, target, hs.h)
	if err != nil {
		st.phase = phaseEnded
		st.rep.Status, st.rep.Outcome, st.rep.Err = http.StatusBadRequest, gateway.OutcomeBadRequest, err
		if err := st.send(immediate(http.StatusBadRequest, err, st.raw)); err != nil {
			return err
		}
		return errAnswered
	}
	st.phase, st.route, st.rep.Path = phaseRequested, d.Route, d.Path
	if d.Route != nil {
		st.rep.Route = d.Route.Pattern
	}
	fixed := hs.h.Clone()
	gateway.FixRequestHeader(fixed, d.Route != nil)
	common := &extprocv3.CommonResponse{HeaderMutation: mutation(hs.h, fixed, st.raw)}
	if d.Path != path || target != hs.path {
		// The upstream gets the path that was matched, and Envoy routes
		// on it too.
		p := d.Path
		if hasQuery {
			p += "?" + query
		}
		if common.HeaderMutation == nil {
			common.HeaderMutation = &extprocv3.HeaderMutation{}
		}
		common.HeaderMutation.SetHeaders = append(common.HeaderMutation.SetHeaders, setHeader(":path", p, false, st.raw))
		common.ClearRouteCache = true
	}
	if common.HeaderMutation == nil {
		common = nil
	}
	return st.send(&extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestHeaders{
		RequestHeaders: &extprocv3.HeadersResponse{Response: common}}})
}

// absoluteForm splits a request target in absolute form
// ("http://host/path?q") into its authority and the rest, from the path on.
func absoluteForm(target string) (authority, rest string, ok bool) {
	scheme, after, found := strings.Cut(target, "://")
	if !found || scheme == "" || strings.ContainsAny(scheme, "/?") {
		return "", "", false
	}
	i := strings.IndexAny(after, "/?")
	if i < 0 {
		return after, "/", true
	}
	if after[i] == '?' {
		return after[:i], "/" + after[i:], true
	}
	return after[:i], after[i:], true
}

// requestBody passes a chunk of the request's body unchanged.
func (st *stream) requestBody(b *extprocv3.HttpBody) error {
	var ans *extprocv3.BodyResponse
	if duplex(st.reqMode) {
		ans = streamedAnswer(b.GetBody(), b.GetEndOfStream())
	} else {
		ans = &extprocv3.BodyResponse{}
	}
	return st.send(&extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestBody{RequestBody: ans}})
}

// responseHeaders decides what becomes of the response (SPEC G2, G4, G5).
func (st *stream) responseHeaders(h *extprocv3.HttpHeaders) error {
	switch st.phase {
	case phaseStart:
		// No request headers, no route: refuse rather than pass a body
		// that a route might have masked.
		return st.fail(errNoRequest)
	case phaseRequested:
	default:
		return st.fail(&protocolError{what: "response headers sent twice"})
	}
	hs := readHeaders(h.GetHeaders())
	code, err := strconv.Atoi(hs.status)
	if err != nil || code < 100 || code > 599 {
		return st.fail(&protocolError{what: "response headers without a valid :status"})
	}
	st.rep.Status = code
	if st.route == nil {
		st.phase, st.rep.Outcome = phasePassing, gateway.OutcomeUnmatched
		return st.send(headersAnswer(nil))
	}
	treat, terr := st.route.Treat(st.method, code)
	switch treat {
	case gateway.Refuse:
		return st.fail(terr)
	case gateway.Pass, gateway.FixHeader:
		var mut *extprocv3.HeaderMutation
		if treat == gateway.FixHeader {
			fixed := hs.h.Clone()
			gateway.FixResponseHeader(fixed)
			mut = mutation(hs.h, fixed, st.raw)
		}
		// An informational (1xx) header is answered as it is; the
		// response's own header follows it.
		if code >= 200 {
			st.phase, st.rep.Outcome = phasePassing, gateway.OutcomeUnmasked
		}
		return st.send(headersAnswer(mut))
	}
	if !canMask(st.respMode) {
		return st.fail(&protocolError{what: "response_body_mode " + st.respMode.String() + " cannot mask a body: use FULL_DUPLEX_STREAMED or STREAMED"})
	}
	b, err := gateway.NewBody(&st.out, st.route.Mask, hs.h, st.s.limits, gateway.SSEPassthrough(st.route.SSEPassthrough))
	if err != nil {
		return st.fail(err)
	}
	st.body, st.phase, st.rep.Outcome = b, phaseMasking, gateway.OutcomeMasked
	st.flushEach = hs.h.Get("Content-Length") == ""
	fixed := hs.h.Clone()
	gateway.FixResponseHeader(fixed)
	ans := headersAnswer(mutation(hs.h, fixed, st.raw))
	if h.GetEndOfStream() {
		// No body: masked as an empty one, so that a strict route refuses
		// it; what a coding frames around nothing is not added.
		if err := st.closeBody(); err != nil {
			return st.fail(err)
		}
		st.out.take()
		st.phase = phaseEnded
		return st.send(ans)
	}
	if duplex(st.respMode) {
		st.held = ans
		return nil
	}
	return st.send(ans)
}

// responseBody masks a chunk of the response's body, or passes it.
func (st *stream) responseBody(b *extprocv3.HttpBody) error {
	chunk, eos := b.GetBody(), b.GetEndOfStream()
	switch st.phase {
	case phasePassing:
		st.in += int64(len(chunk))
		st.sent += int64(len(chunk))
		if duplex(st.respMode) {
			return st.send(responseBodyAnswer(streamedAnswer(chunk, eos)))
		}
		return st.send(responseBodyAnswer(&extprocv3.BodyResponse{}))
	case phaseMasking:
	default:
		return st.fail(&protocolError{what: "response body outside a response"})
	}
	st.in += int64(len(chunk))
	t := time.Now()
	_, err := st.body.Write(chunk)
	switch {
	case err != nil:
	case eos:
		err = st.closeBody()
	case st.flushEach:
		err = st.body.Flush()
	}
	st.rep.MaskTime += time.Since(t)
	if err != nil {
		return st.fail(err)
	}
	if eos {
		st.phase = phaseEnded
	}
	if !duplex(st.respMode) {
		// One answer per chunk, which replaces it.
		out := st.out.take()
		st.sent += int64(len(out))
		mut := &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_Body{Body: out}}
		if len(out) == 0 {
			mut.Mutation = &extprocv3.BodyMutation_ClearBody{ClearBody: true}
		}
		return st.send(responseBodyAnswer(&extprocv3.BodyResponse{Response: &extprocv3.CommonResponse{BodyMutation: mut}}))
	}
	if len(st.out.b) == 0 && !eos {
		return nil
	}
	return st.sendPieces(eos)
}

// sendPieces sends, in FULL_DUPLEX_STREAMED mode, the held header answer
// and the masked bytes, in pieces of at most maxPiece; the last one ends
// the body when eos.
func (st *stream) sendPieces(eos bool) error {
	if st.held != nil {
		if err := st.send(st.held); err != nil {
			return err
		}
		st.held = nil
	}
	out := st.out.take()
	for len(out) > 0 || eos { // the end is sent even with no bytes
		n := min(len(out), maxPiece)
		piece := out[:n:n]
		out = out[n:]
		if err := st.send(responseBodyAnswer(streamedAnswer(piece, eos && len(out) == 0))); err != nil {
			return err
		}
		st.sent += int64(n)
		if len(out) == 0 {
			break
		}
	}
	return nil
}

// responseTrailers ends a masked body, whose last chunk did not, and
// forwards the trailers without those that describe the upstream's bytes
// (SPEC G4).
func (st *stream) responseTrailers(t *extprocv3.HttpTrailers) error {
	switch st.phase {
	case phasePassing:
		return st.send(trailersAnswer(nil))
	case phaseMasking:
	default:
		return st.fail(&protocolError{what: "response trailers outside a response"})
	}
	start := time.Now()
	err := st.closeBody()
	st.rep.MaskTime += time.Since(start)
	if err != nil {
		return st.fail(err)
	}
	if !duplex(st.respMode) {
		if len(st.out.b) > 0 {
			// A body response cannot follow the trailers: the body would end
			// short. Refuse it rather than send a truncated one.
			return st.fail(&protocolError{what: "the end of a masked body cannot be sent after trailers in " + st.respMode.String() + " mode: use FULL_DUPLEX_STREAMED"})
		}
	} else if err := st.sendPieces(false); err != nil {
		return err
	}
	st.phase = phaseEnded
	hs := readHeaders(t.GetTrailers())
	fixed := hs.h.Clone()
	gateway.FixResponseHeader(fixed)
	return st.send(trailersAnswer(mutation(hs.h, fixed, st.raw)))
}

func (st *stream) closeBody() error { return st.body.Close() }

// fail refuses the masked response for err (SPEC G5): with a 502 when none
// of its body was sent, else with a stream error, which Envoy (with
// failure_mode_allow false) turns into a reset of the response.
func (st *stream) fail(err error) error {
	st.rep.Err = err
	if st.body != nil {
		st.body.Abort(err)
	}
	st.phase, st.held = phaseEnded, nil
	st.out.take()
	if st.sent == 0 {
		st.rep.Status, st.rep.Outcome = http.StatusBadGateway, gateway.OutcomeRefused
		if serr := st.send(immediate(http.StatusBadGateway, err, st.raw)); serr != nil {
			return serr
		}
		return status.Error(codes.Aborted, "jsonmask: the response was refused")
	}
	st.rep.Outcome = gateway.OutcomeAborted
	return status.Error(codes.Aborted, "jsonmask: the masked response failed after "+
		strconv.FormatInt(st.sent, 10)+" bytes of its body were sent: reset it")
}

// end records how the stream ended and lets go of the body.
func (st *stream) end() {
	if st.phase == phaseMasking {
		// Envoy left, or could not be answered, before the body ended.
		if st.rep.Err == nil {
			st.rep.Err = &protocolError{what: "the stream ended before the response body did", offset: st.in}
		}
		st.rep.Outcome = gateway.OutcomeAborted
	}
	if st.body != nil {
		st.body.Abort(st.rep.Err)
	}
	st.rep.BytesIn, st.rep.BytesOut = st.in, st.sent
}

func (st *stream) send(r *extprocv3.ProcessingResponse) error { return st.srv.Send(r) }

// outBuf collects what the masker writes until it is sent. take hands the
// bytes over to a message: grpc-go may read a sent message later (stats
// handlers), so a buffer is never written again once sent.
type outBuf struct{ b []byte }

func (o *outBuf) Write(p []byte) (int, error) {
	o.b = append(o.b, p...)
	return len(p), nil
}

func (o *outBuf) take() []byte {
	b := o.b
	o.b = nil
	return b
}

// duplex reports whether body chunks are answered with
// StreamedBodyResponse messages, any number of them.
func duplex(m procmode.ProcessingMode_BodySendMode) bool {
	return m == procmode.ProcessingMode_FULL_DUPLEX_STREAMED || m == procmode.ProcessingMode_GRPC
}

// canMask reports whether the server sees a whole body in mode m, and can
// replace it: NONE sends none, BUFFERED_PARTIAL only its start, and GRPC
// is for gRPC messages.
func canMask(m procmode.ProcessingMode_BodySendMode) bool {
	switch m {
	case procmode.ProcessingMode_STREAMED, procmode.ProcessingMode_BUFFERED, procmode.ProcessingMode_FULL_DUPLEX_STREAMED:
		return true
	}
	return false
}

func streamedAnswer(body []byte, eos bool) *extprocv3.BodyResponse {
	return &extprocv3.BodyResponse{Response: &extprocv3.CommonResponse{BodyMutation: &extprocv3.BodyMutation{
		Mutation: &extprocv3.BodyMutation_StreamedResponse{StreamedResponse: &extprocv3.StreamedBodyResponse{
			Body: body, EndOfStream: eos}}}}}
}

func headersAnswer(mut *extprocv3.HeaderMutation) *extprocv3.ProcessingResponse {
	ans := &extprocv3.HeadersResponse{}
	if mut != nil {
		ans.Response = &extprocv3.CommonResponse{HeaderMutation: mut}
	}
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseHeaders{ResponseHeaders: ans}}
}

func responseBodyAnswer(b *extprocv3.BodyResponse) *extprocv3.ProcessingResponse {
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseBody{ResponseBody: b}}
}

func trailersAnswer(mut *extprocv3.HeaderMutation) *extprocv3.ProcessingResponse {
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ResponseTrailers{
		ResponseTrailers: &extprocv3.TrailersResponse{HeaderMutation: mut}}}
}

// protocolError is a stream refused for what Envoy sent or how it is
// configured, not for the body's content.
type protocolError struct {
	what   string
	offset int64 // in the response body; 0 when it does not apply
}

func (e *protocolError) Error() string {
	s := "jsonmask: extproc: " + e.what
	if e.offset > 0 {
		s += " at offset " + strconv.FormatInt(e.offset, 10)
	}
	return s
}

var (
	// errAnswered: the request was answered with a local reply; the
	// stream ends.
	errAnswered      = errors.New("jsonmask: extproc: answered")
	errNoRequest     = &protocolError{what: "response headers before request headers: set request_header_mode SEND, the route is chosen by the request's path"}
	errObservability = errors.New("jsonmask: extproc: observability_mode ignores every answer, so nothing can be masked: turn it off")
)
