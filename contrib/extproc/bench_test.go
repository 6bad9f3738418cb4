package extproc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"

	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// BenchmarkChunks measures body chunks per second through the server, in
// one run against an echo server that answers every chunk unchanged (no
// mutation in STREAMED mode, the same bytes back in FULL_DUPLEX_STREAMED
// mode), over the same gRPC transport on 127.0.0.1 and the same client:
// the ratio of the two is the cost of masking (decode, mask, encode) next
// to the cost of the protocol. The body is twitter.json (617 KiB) from
// bench/testdata with the mask of the workload twitter/decision-fields; one
// op is one response, as Envoy streams it. Compare with
//
//	go test -run '^$' -bench Chunks -count 10 | benchstat -col /server -
func BenchmarkChunks(b *testing.B) {
	w := corpus.Find(b, "twitter/decision-fields")
	body := corpus.File(b, w.File)
	mask, err := jsonmask.Compile(w.Mask)
	if err != nil {
		b.Fatal(err)
	}
	routes, err := gateway.NewRoutes([]gateway.Route{{Pattern: "/1.1/search/tweets.json", Mask: mask}})
	if err != nil {
		b.Fatal(err)
	}
	servers := []struct {
		name string
		srv  extprocv3.ExternalProcessorServer
	}{{"echo", echoServer{}}, {"jsonmask", NewServer(routes)}}
	for _, coding := range []string{"identity", "gzip"} {
		coded := codingtest.Encode(b, coding, body)
		for _, mode := range modes {
			for _, size := range []int{16 << 10, 64 << 10} {
				for _, s := range servers {
					b.Run(fmt.Sprintf("coding=%s/mode=%s/chunk=%d/server=%s", coding, mode, size, s.name), func(b *testing.B) {
						client := serve(b, s.srv)
						chunks := split(coded, size)
						hdr := http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(coded))}}
						if coding != "identity" {
							hdr.Set("Content-Encoding", coding)
						}
						b.SetBytes(int64(len(body)))
						b.ReportAllocs()
						for b.Loop() {
							if err := drive(client, mode, hdr, chunks); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(b.N*len(chunks))/b.Elapsed().Seconds(), "chunks/s")
					})
				}
			}
		}
	}
}

func split(body []byte, size int) [][]byte {
	var chunks [][]byte
	for len(body) > 0 {
		k := min(size, len(body))
		chunks, body = append(chunks, body[:k]), body[k:]
	}
	return chunks
}

// drive plays one response through a server as Envoy would, with the
// least work of its own: headers, then the chunks while a reader takes the
// answers, until the one that ends the body.
func drive(client extprocv3.ExternalProcessorClient, mode procmode.ProcessingMode_BodySendMode, hdr http.Header, chunks [][]byte) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := client.Process(ctx)
	if err != nil {
		return err
	}
	recv := func() (*extprocv3.ProcessingResponse, error) { return s.Recv() }
	err = s.Send(&extprocv3.ProcessingRequest{
		ProtocolConfig: &extprocv3.ProtocolConfiguration{ResponseBodyMode: mode},
		Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
			Headers: headerMap(nil, ":method", "GET", ":path", "/1.1/search/tweets.json", ":authority", "api.test"), EndOfStream: true}}})
	if err != nil {
		return err
	}
	if _, err := recv(); err != nil {
		return err
	}
	err = s.Send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_ResponseHeaders{
		ResponseHeaders: &extprocv3.HttpHeaders{Headers: headerMap(hdr, ":status", "200")}}})
	if err != nil {
		return err
	}
	duplex := mode == procmode.ProcessingMode_FULL_DUPLEX_STREAMED
	if !duplex {
		if _, err := recv(); err != nil { // Envoy waits for the header's answer
			return err
		}
	}
	done := make(chan error, 1)
	go func() {
		// STREAMED: one answer per chunk. FULL_DUPLEX_STREAMED: the
		// header's answer, then pieces until end_of_stream.
		n := 0
		for {
			a, err := recv()
			if err != nil {
				done <- err
				return
			}
			if a.GetImmediateResponse() != nil {
				done <- fmt.Errorf("refused: %s", a.GetImmediateResponse().GetBody())
				return
			}
			if a.GetResponseBody() != nil {
				n++
				sr := a.GetResponseBody().GetResponse().GetBodyMutation().GetStreamedResponse()
				if !duplex && n == len(chunks) || duplex && sr.GetEndOfStream() {
					done <- nil
					return
				}
			}
		}
	}()
	for i, c := range chunks {
		err := s.Send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_ResponseBody{
			ResponseBody: &extprocv3.HttpBody{Body: c, EndOfStream: i == len(chunks)-1}}})
		if err != nil {
			return err
		}
	}
	if err := <-done; err != nil {
		return err
	}
	s.CloseSend()
	if _, err := recv(); err != io.EOF {
		return fmt.Errorf("stream ended with %v", err)
	}
	return nil
}

// echoServer answers every message unchanged: the protocol's own cost.
type echoServer struct{}

func (echoServer) Process(srv extprocv3.ExternalProcessor_ProcessServer) error {
	duplex := false
	for {
		req, err := srv.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if pc := req.GetProtocolConfig(); pc != nil {
			duplex = pc.GetResponseBodyMode() == procmode.ProcessingMode_FULL_DUPLEX_STREAMED
		}
		var ans *extprocv3.ProcessingResponse
		switch {
		case req.GetRequestHeaders() != nil:
			ans = &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_RequestHeaders{RequestHeaders: &extprocv3.HeadersResponse{}}}
		case req.GetResponseHeaders() != nil:
			ans = headersAnswer(nil)
		case req.GetResponseBody() != nil && duplex:
			b := req.GetResponseBody()
			ans = responseBodyAnswer(streamedAnswer(b.GetBody(), b.GetEndOfStream()))
		case req.GetResponseBody() != nil:
			ans = responseBodyAnswer(&extprocv3.BodyResponse{})
		default:
			ans = trailersAnswer(nil)
		}
		if err := srv.Send(ans); err != nil {
			return err
		}
	}
}
