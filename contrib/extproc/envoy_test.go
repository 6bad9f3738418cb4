package extproc

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask/gateway"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// This file plays Envoy's side of the ext_proc protocol, as the proto
// documents it, against a real server on a 127.0.0.1 port: it sends the
// request headers, the response headers, the body in chunks (the last one
// with end_of_stream unless trailers follow) and the trailers, and applies
// the answers as Envoy does, with failure_mode_allow false. What it
// returns is what the upstream and the downstream client would have seen.

// harness is a server on a 127.0.0.1 port and a client connection to it.
type harness struct {
	client  extprocv3.ExternalProcessorClient
	reports chan gateway.Report
}

func newHarness(t testing.TB, routes *gateway.Routes, opts ...Option) *harness {
	t.Helper()
	h := &harness{reports: make(chan gateway.Report, 1)}
	opts = append(opts, WithObserver(func(r gateway.Report) { h.reports <- r }))
	h.client = serve(t, NewServer(routes, opts...))
	return h
}

// serve serves srv on a 127.0.0.1 port until the test ends, and returns a
// client connected to it.
func serve(t testing.TB, srv extprocv3.ExternalProcessorServer) extprocv3.ExternalProcessorClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	extprocv3.RegisterExternalProcessorServer(g, srv)
	served := make(chan struct{})
	go func() {
		defer close(served)
		g.Serve(lis)
	}()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		g.Stop()
		<-served
	})
	return extprocv3.NewExternalProcessorClient(conn)
}

// exchange is one HTTP request and its response, as Envoy would send them.
type exchange struct {
	mode         procmode.ProcessingMode_BodySendMode // the response body mode
	noConfig     bool                                 // no protocol_config, as Envoy before 1.34
	skipRequest  bool                                 // request_header_mode SKIP
	method       string                               // GET unless set
	path         string
	authority    string // "api.test" unless set
	reqHeader    http.Header
	status       int // 200 unless set
	header       http.Header
	body         []byte // as the upstream sends it (coded)
	chunk        int    // chunk size; 0 sends the body in one chunk
	trailers     http.Header
	valueHeaders bool // header values in value, as Envoy before raw_value (else raw_value)
	observe      bool // observability_mode
	abandonAt    int  // > 0: after this many body chunks, Envoy cancels the stream
	halfCloseAt  int  // > 0: after this many body chunks, Envoy closes its side
}

// outcome is what the upstream and the client got.
type outcome struct {
	upPath   string      // the request's :path as the upstream gets it
	upHeader http.Header // the request's header as the upstream gets it

	local    bool // the client got a local reply (an ImmediateResponse, or a stream error before the response's header went out)
	reset    bool // the response was reset after its header went out
	complete bool // the response ended normally
	status   int
	header   http.Header
	body     []byte // the body bytes the client got, as sent (coded)
	trailers http.Header
	// passedRest: the server closed the stream with OK before the
	// response ended, so Envoy would pass the rest unprocessed.
	passedRest bool
	streamErr  error // the stream's error, if it ended with one
	report     gateway.Report
}

// answer is one message from the server, or how its stream ended.
type answer struct {
	r   *extprocv3.ProcessingResponse
	err error
}

// answers reads the server's messages as they come, into an unbounded
// queue: like Envoy, the client never stops reading while it sends, so
// flow control cannot deadlock the two.
type answers struct {
	mu   sync.Mutex
	cond *sync.Cond
	q    []answer
}

func readAnswers(s extprocv3.ExternalProcessor_ProcessClient) *answers {
	a := &answers{}
	a.cond = sync.NewCond(&a.mu)
	go func() {
		for {
			r, err := s.Recv()
			a.mu.Lock()
			a.q = append(a.q, answer{r, err})
			a.cond.Broadcast()
			a.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return a
}

// next waits for the server's next message.
func (a *answers) next() answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	for len(a.q) == 0 {
		a.cond.Wait()
	}
	x := a.q[0]
	if x.err == nil {
		a.q = a.q[1:]
	}
	return x
}

// run plays ex against the harness's server and returns what came of it.
func (h *harness) run(t testing.TB, ex exchange) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := h.client.Process(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := &model{t: t, ex: ex, s: s, a: readAnswers(s), cancel: cancel}
	m.play()
	select {
	case m.out.report = <-h.reports:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's Process did not return")
	}
	cancel()
	return m.out
}

// model is Envoy's ext_proc filter for one exchange.
type model struct {
	t      testing.TB
	ex     exchange
	s      extprocv3.ExternalProcessor_ProcessClient
	a      *answers
	cancel context.CancelFunc
	first  bool // the next message is the stream's first
	out    outcome

	headerSent bool     // the response's header went to the client
	chunks     [][]byte // body chunks sent, for STREAMED answers
	eosChunk   bool     // the last chunk sent had end_of_stream
	answered   int      // STREAMED: body chunks answered
	ended      bool     // the exchange is over (success, local reply or reset)
}

func (m *model) duplex() bool {
	return m.ex.mode == procmode.ProcessingMode_FULL_DUPLEX_STREAMED
}

// send sends one message; once the server has answered for good it may
// have gone, which Envoy would not notice before its next message.
func (m *model) send(req *extprocv3.ProcessingRequest) {
	req.ObservabilityMode = m.ex.observe
	if m.ex.valueHeaders {
		for _, hm := range []*corev3.HeaderMap{req.GetRequestHeaders().GetHeaders(), req.GetResponseHeaders().GetHeaders(), req.GetResponseTrailers().GetTrailers()} {
			for _, hv := range hm.GetHeaders() {
				hv.Value, hv.RawValue = string(hv.RawValue), nil
			}
		}
	}
	if m.first {
		m.first = false
		if !m.ex.noConfig {
			req.ProtocolConfig = &extprocv3.ProtocolConfiguration{
				RequestBodyMode: procmode.ProcessingMode_NONE, ResponseBodyMode: m.ex.mode,
			}
		}
	}
	if err := m.s.Send(req); err != nil && err != io.EOF {
		m.t.Fatalf("send: %v", err)
	}
}

func (m *model) play() {
	ex := m.ex
	m.first = true
	if ex.method == "" {
		ex.method = "GET"
	}
	if ex.authority == "" {
		ex.authority = "api.test"
	}
	if ex.status == 0 {
		ex.status = 200
	}
	m.ex = ex
	m.out.upPath, m.out.upHeader = ex.path, ex.reqHeader.Clone()
	if m.out.upHeader == nil {
		m.out.upHeader = http.Header{}
	}
	if !ex.skipRequest {
		m.send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_RequestHeaders{
			RequestHeaders: &extprocv3.HttpHeaders{
				Headers: headerMap(m.out.upHeader, ":method", ex.method, ":path", ex.path,
					":authority", ex.authority, ":scheme", "http"),
				EndOfStream: true,
			}}})
		a := m.a.next()
		switch {
		case a.err != nil:
			m.streamEnded(a.err)
			return
		case a.r.GetImmediateResponse() != nil:
			m.immediate(a.r.GetImmediateResponse())
			return
		case a.r.GetRequestHeaders() == nil:
			m.t.Fatalf("answer to the request headers: %v", a.r)
		}
		up := m.out.upHeader
		up[":path"] = []string{ex.path}
		m.apply(up, a.r.GetRequestHeaders().GetResponse().GetHeaderMutation())
		m.out.upPath = up.Get(":path")
		delete(up, ":path")
	}

	noBody := len(ex.body) == 0 && ex.trailers == nil
	m.send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_ResponseHeaders{
		ResponseHeaders: &extprocv3.HttpHeaders{
			Headers:     headerMap(ex.header, ":status", strconv.Itoa(ex.status)),
			EndOfStream: noBody,
		}}})
	m.out.status, m.out.header = ex.status, ex.header.Clone()
	if m.out.header == nil {
		m.out.header = http.Header{}
	}
	if !m.duplex() || noBody {
		// Envoy waits for the header's answer before it sends the body.
		m.take(func() bool { return m.headerSent })
		if m.ended {
			m.finish()
			return
		}
	}
	if noBody {
		m.out.complete, m.ended = true, true
		m.finish()
		return
	}

	size := ex.chunk
	if size <= 0 {
		size = len(ex.body) + 1
	}
	body := ex.body
	for i := 1; ; i++ {
		k := min(size, len(body))
		chunk := body[:k]
		body = body[k:]
		eos := len(body) == 0 && ex.trailers == nil
		m.chunks = append(m.chunks, chunk)
		m.eosChunk = eos
		m.send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_ResponseBody{
			ResponseBody: &extprocv3.HttpBody{Body: chunk, EndOfStream: eos}}})
		if ex.abandonAt == i {
			m.cancel() // the client went away: Envoy resets the side stream
			m.out.reset = true
			return
		}
		if ex.halfCloseAt == i {
			// Envoy gave up on the response: what the server does with
			// the rest no longer matters, only that it ends.
			m.s.CloseSend()
			for {
				if a := m.a.next(); a.err != nil {
					if a.err != io.EOF {
						m.out.streamErr = a.err
					}
					m.ended = true
					return
				}
			}
		}
		if len(body) == 0 {
			break
		}
	}
	if ex.trailers != nil {
		m.send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_ResponseTrailers{
			ResponseTrailers: &extprocv3.HttpTrailers{Trailers: headerMap(ex.trailers)}}})
	}
	m.take(func() bool { return m.out.complete })
	m.finish()
}

// finish closes Envoy's side once the exchange is over, and checks that
// the server then ends its stream.
func (m *model) finish() {
	if m.out.local || m.out.reset || m.out.passedRest || m.out.streamErr != nil {
		return
	}
	m.s.CloseSend()
	a := m.a.next()
	if a.err == nil {
		m.t.Errorf("a message after the response ended: %v", a.r)
	} else if a.err != io.EOF {
		m.t.Errorf("the stream ended with %v after a complete response", a.err)
	}
}

// take applies the server's answers until done says so, the exchange
// ends, or the stream does.
func (m *model) take(done func() bool) {
	for !m.ended && !done() {
		a := m.a.next()
		if a.err != nil {
			m.streamEnded(a.err)
			return
		}
		m.answer(a.r)
	}
}

func (m *model) answer(r *extprocv3.ProcessingResponse) {
	switch {
	case r.GetImmediateResponse() != nil:
		m.immediate(r.GetImmediateResponse())
	case r.GetResponseHeaders() != nil:
		if m.headerSent {
			m.t.Fatalf("a second answer to the response headers")
		}
		m.apply(m.out.header, r.GetResponseHeaders().GetResponse().GetHeaderMutation())
		m.headerSent = true
	case r.GetResponseBody() != nil:
		m.body(r.GetResponseBody())
	case r.GetResponseTrailers() != nil:
		if !m.headerSent || (!m.duplex() && m.answered != len(m.chunks)) {
			m.t.Fatalf("trailers answered before the body")
		}
		m.out.trailers = m.ex.trailers.Clone()
		m.apply(m.out.trailers, r.GetResponseTrailers().GetHeaderMutation())
		m.out.complete, m.ended = true, true
	default:
		m.t.Fatalf("unexpected answer %v", r)
	}
}

// body applies an answer to a body chunk as Envoy does in the mode.
func (m *model) body(br *extprocv3.BodyResponse) {
	if !m.headerSent {
		m.t.Fatalf("a body answer before the header's")
	}
	mut := br.GetResponse().GetBodyMutation()
	if m.duplex() {
		sr := mut.GetStreamedResponse()
		if sr == nil {
			m.t.Fatalf("FULL_DUPLEX_STREAMED body answer without a streamed_response: %v", br)
		}
		if len(sr.GetBody()) > maxPiece {
			m.t.Errorf("a body piece of %d bytes, over 64 KiB", len(sr.GetBody()))
		}
		m.out.body = append(m.out.body, sr.GetBody()...)
		if sr.GetEndOfStream() {
			if !m.eosChunk {
				m.t.Fatalf("end_of_stream answered before Envoy sent it")
			}
			m.out.complete, m.ended = true, true
		}
		return
	}
	if mut.GetStreamedResponse() != nil {
		m.t.Fatalf("a streamed_response in %v mode", m.ex.mode)
	}
	if m.answered >= len(m.chunks) {
		m.t.Fatalf("more body answers than chunks")
	}
	chunk := m.chunks[m.answered]
	m.answered++
	switch {
	case mut == nil:
		m.out.body = append(m.out.body, chunk...)
	case mut.GetClearBody():
	default:
		m.out.body = append(m.out.body, mut.GetBody()...)
	}
	if m.answered == len(m.chunks) && m.eosChunk {
		m.out.complete, m.ended = true, true
	}
}

// immediate is a local reply: sent as one if the response's header has not
// gone out, else Envoy can only reset the response.
func (m *model) immediate(ir *extprocv3.ImmediateResponse) {
	m.ended = true
	m.s.CloseSend() // Envoy closes the stream before it sends the reply
	if m.headerSent {
		m.out.reset = true
		return
	}
	m.out.local = true
	m.out.status = int(ir.GetStatus().GetCode())
	m.out.header = http.Header{}
	m.apply(m.out.header, ir.GetHeaders())
	m.out.body = ir.GetBody()
}

// streamEnded is the server's stream ending before the exchange did.
func (m *model) streamEnded(err error) {
	m.ended = true
	if err == io.EOF {
		// A clean close: Envoy goes on without the server.
		m.out.passedRest = true
		return
	}
	m.out.streamErr = err
	if m.headerSent {
		m.out.reset = true
		return
	}
	m.out.local, m.out.status, m.out.body = true, 500, nil // Envoy's own local reply
}

// apply applies a header mutation to h as Envoy does: removals, then
// values set (replacing) or appended.
func (m *model) apply(h http.Header, mut *extprocv3.HeaderMutation) {
	for _, k := range mut.GetRemoveHeaders() {
		if k != strings.ToLower(k) {
			m.t.Errorf("header %q removed in upper case", k)
		}
		delete(h, canonical(k))
	}
	for _, o := range mut.GetSetHeaders() {
		hv := o.GetHeader()
		if hv.GetValue() != "" && len(hv.GetRawValue()) > 0 {
			m.t.Errorf("header %q sets both value and raw_value", hv.GetKey())
		}
		k, v := canonical(hv.GetKey()), string(hv.GetRawValue())
		if m.ex.valueHeaders {
			v = hv.GetValue()
			if len(hv.GetRawValue()) > 0 {
				m.t.Errorf("header %q set in raw_value, but Envoy sent value", k)
			}
		} else if hv.GetValue() != "" {
			m.t.Errorf("header %q set in value, but Envoy sent raw_value", k)
		}
		//lint:ignore SA1019 the field that Envoy's ext_proc filter reads
		if o.GetAppend().GetValue() {
			h[k] = append(h[k], v)
		} else {
			h[k] = []string{v}
		}
	}
}

func canonical(k string) string {
	if strings.HasPrefix(k, ":") {
		return k
	}
	return http.CanonicalHeaderKey(k)
}

// headerMap is h as Envoy sends it: lower-case keys, raw values, the
// pseudo-headers (pairs of key and value) first.
func headerMap(h http.Header, pseudo ...string) *corev3.HeaderMap {
	hm := &corev3.HeaderMap{}
	for i := 0; i+1 < len(pseudo); i += 2 {
		hm.Headers = append(hm.Headers, &corev3.HeaderValue{Key: pseudo[i], RawValue: []byte(pseudo[i+1])})
	}
	for k, vv := range h {
		for _, v := range vv {
			hm.Headers = append(hm.Headers, &corev3.HeaderValue{Key: strings.ToLower(k), RawValue: []byte(v)})
		}
	}
	return hm
}
