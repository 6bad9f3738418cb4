package extproc_test

import (
	"context"
	"fmt"
	"net"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/contrib/extproc"
	"github.com/jsonmask/jsonmask/gateway"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// A server with one route, registered on a gRPC server, and one response
// sent through it as Envoy sends it in FULL_DUPLEX_STREAMED mode.
func ExampleNewServer() {
	routes, err := gateway.NewRoutes([]gateway.Route{
		{Pattern: "GET /v1/users/{id}", Mask: jsonmask.MustCompile(`{"id":true,"user":{"name":true}}`)},
	})
	if err != nil {
		panic(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	g := grpc.NewServer()
	extprocv3.RegisterExternalProcessorServer(g, extproc.NewServer(routes))
	go g.Serve(lis)
	defer g.Stop()

	// Envoy's side.
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	s, err := extprocv3.NewExternalProcessorClient(conn).Process(context.Background())
	if err != nil {
		panic(err)
	}
	headers := func(kv ...string) *corev3.HeaderMap {
		m := &corev3.HeaderMap{}
		for i := 0; i < len(kv); i += 2 {
			m.Headers = append(m.Headers, &corev3.HeaderValue{Key: kv[i], RawValue: []byte(kv[i+1])})
		}
		return m
	}
	for _, req := range []*extprocv3.ProcessingRequest{
		{ProtocolConfig: &extprocv3.ProtocolConfiguration{ResponseBodyMode: procmode.ProcessingMode_FULL_DUPLEX_STREAMED},
			Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
				Headers: headers(":method", "GET", ":path", "/v1/users/7", ":authority", "api.example.com"), EndOfStream: true}}},
		{Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{
			Headers: headers(":status", "200", "content-type", "application/json", "content-length", "60")}}},
		{Request: &extprocv3.ProcessingRequest_ResponseBody{ResponseBody: &extprocv3.HttpBody{
			Body: []byte(`{"id":7,"user":{"name":"Ana","ssn":"123-45-6789"},"debug":1}`), EndOfStream: true}}},
	} {
		if err := s.Send(req); err != nil {
			panic(err)
		}
	}
	for range 3 { // the answers to the request headers, the response headers, the body
		a, err := s.Recv()
		if err != nil {
			panic(err)
		}
		switch {
		case a.GetResponseHeaders() != nil:
			fmt.Println("remove:", a.GetResponseHeaders().GetResponse().GetHeaderMutation().GetRemoveHeaders())
		case a.GetResponseBody() != nil:
			fmt.Printf("body: %s\n", a.GetResponseBody().GetResponse().GetBodyMutation().GetStreamedResponse().GetBody())
		}
	}
	s.CloseSend()
	// Output:
	// remove: [content-length]
	// body: {"id":7,"user":{"name":"Ana"}}
}
