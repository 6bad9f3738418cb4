package extproc

import (
	"time"

	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask/gateway"
)

// Server is an Envoy external processing server that masks the response
// bodies of its routes. Register it on a grpc.Server with
// extprocv3.RegisterExternalProcessorServer. It is safe for concurrent
// use: each stream (one HTTP request) has its own state.
type Server struct {
	routes  *gateway.Routes
	limits  gateway.Limits
	observe func(gateway.Report)
}

// An Option configures a Server.
type Option func(*Server)

// WithLimits sets the limits of every masked response (SPEC G6). Default:
// the zero gateway.Limits, which takes every default. ResponseHeaderTimeout
// is not used: Envoy waits for the upstream.
func WithLimits(l gateway.Limits) Option {
	return func(s *Server) { s.limits = l }
}

// WithObserver calls observe once per stream, when it ends, with what
// happened to the request (route, status, outcome, bytes in and out,
// masking time, duration, error): the hook for metrics and logs (SPEC G9).
// It never holds body content. observe runs on the stream's goroutine and
// must be safe for concurrent use. Default: none.
func WithObserver(observe func(gateway.Report)) Option {
	return func(s *Server) { s.observe = observe }
}

// NewServer returns a server that masks the responses of routes; nil
// routes match nothing, so every response passes untouched.
func NewServer(routes *gateway.Routes, opts ...Option) *Server {
	if routes == nil {
		routes, _ = gateway.NewRoutes(nil)
	}
	s := &Server{routes: routes}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Process serves one stream: one HTTP request and its response, as Envoy
// sends them. It returns when Envoy closes the stream, or with an error
// that Envoy turns into a reset or a local reply (see the package doc).
func (s *Server) Process(srv extprocv3.ExternalProcessor_ProcessServer) error {
	start := time.Now()
	st := newStream(s, srv)
	err := st.run()
	st.end()
	if s.observe != nil {
		st.rep.Duration = time.Since(start)
		s.observe(st.rep)
	}
	return err
}
