package gateway_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
)

// Handler masks what an application's own handler writes.
func ExampleHandler() {
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":7,"user":{"name":"Ana","ssn":"123-45-6789"},"debug":{"sql":"..."}}`)
	})
	routes, err := gateway.NewRoutes([]gateway.Route{
		{Pattern: "GET /v1/users/{id}", Mask: jsonmask.MustCompile(`{"id":true,"user":{"name":true}}`)},
	})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(gateway.Handler(app, routes))
	defer srv.Close()

	for _, path := range []string{"/v1/users/7", "/v1/other"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s: %s\n", path, body)
	}
	// Output:
	// /v1/users/7: {"id":7,"user":{"name":"Ana"}}
	// /v1/other: {"id":7,"user":{"name":"Ana","ssn":"123-45-6789"},"debug":{"sql":"..."}}
}

// NewReverseProxy masks an upstream's responses; one that breaks the rules
// (here, not JSON on a strict route) becomes a 502 problem document.
func ExampleNewReverseProxy() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/broken" {
			fmt.Fprint(w, "<html>oops</html>")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		fmt.Fprint(w, `{"items":[{"id":1,"secret":"s"},{"id":2,"secret":"t"}],"next":"abc"}`)
	}))
	defer upstream.Close()

	items := jsonmask.MustCompile(`{"items":{"id":true}}`, jsonmask.WithStrict(true))
	routes, err := gateway.NewRoutes([]gateway.Route{{Pattern: "/v1/", Mask: items}})
	if err != nil {
		panic(err)
	}
	u, _ := url.Parse(upstream.URL)
	proxy := httptest.NewServer(gateway.NewReverseProxy(u, routes))
	defer proxy.Close()

	for _, path := range []string{"/v1/items", "/v1/broken"} {
		resp, err := http.Get(proxy.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Etag"), resp.Header.Get("Content-Type"))
		fmt.Println(string(body))
	}
	// Output:
	// 200 W/"v1" application/json
	// {"items":[{"id":1},{"id":2}]}
	// 502  application/problem+json
	// {"type":"about:blank","title":"Bad Gateway","status":502,"detail":"the upstream body was refused: not a JSON object, on a strict route at offset 0","offset":0}
}

// Body is the pipeline for plug-ins that receive a response in pieces,
// such as an Envoy ext_proc server: push each piece, send what comes out.
func ExampleBody() {
	h := http.Header{"Content-Type": {"text/event-stream"}}
	m := jsonmask.MustCompile(`{"delta":{"text":true}}`)
	var out bytes.Buffer
	body, err := gateway.NewBody(&out, m, h, gateway.Limits{})
	if err != nil {
		panic(err) // an unknown Content-Encoding: answer 502
	}
	gateway.FixResponseHeader(h) // before the header is sent
	for _, chunk := range []string{
		"event: delta\ndata: {\"delta\":{\"text\":\"Hel\",\"logprobs\":[-0.1]}}\n\n",
		"event: delta\ndata: {\"delta\":{\"te",
		"xt\":\"lo\"}}\n\n",
	} {
		if _, err := body.Write([]byte(chunk)); err != nil {
			panic(err) // refused: abort the response
		}
		fmt.Printf("%q\n", out.String()) // what to send now
		out.Reset()
	}
	if err := body.Close(); err != nil {
		panic(err)
	}
	// Output:
	// "event: delta\ndata: {\"delta\":{\"text\":\"Hel\"}}\n\n"
	// "event: delta\n"
	// "data: {\"delta\":{\"text\":\"lo\"}}\n\n"
}

// Problem is the answer to a refused response, for plug-ins that send it
// their own way: the reason, offset and pointer, never the body's content;
// the pointer stops at the last member the mask keeps ("card" is dropped).
func ExampleProblem() {
	m := jsonmask.MustCompile(`{"id":true}`)
	_, err := m.Append(nil, []byte(`{"id":1,"card":{"number":"4111 1111 1111 1111",}}`))
	h, body := gateway.Problem(http.StatusBadGateway, err)
	fmt.Println(h.Get("Content-Type"), h.Get("Cache-Control"))
	fmt.Println(string(body))
	// Output:
	// application/problem+json no-store
	// {"type":"about:blank","title":"Bad Gateway","status":502,"detail":"the upstream body was refused: not valid JSON at offset 47 (/…)","offset":47,"pointer":"/…"}
}

// Middleware is the gateway for servers whose handlers return errors, as
// Caddy's do: an error before anything was written goes back to the
// server, which answers it its own way.
func ExampleMiddleware() {
	routes, err := gateway.NewRoutes([]gateway.Route{
		{Pattern: "/v1/", Mask: jsonmask.MustCompile(`{"id":true}`)},
	})
	if err != nil {
		panic(err)
	}
	mw := gateway.NewMiddleware(routes)
	next := func(w http.ResponseWriter, r *http.Request) error {
		if r.URL.Path == "/v1/down" {
			return errors.New("upstream unreachable")
		}
		fmt.Fprint(w, `{"id":7,"secret":"s"}`)
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := mw.ServeNext(w, r, next); err != nil {
			http.Error(w, "the server's own error page", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()

	for _, path := range []string{"/v1/items", "/v1/down"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %s", resp.StatusCode, body)
		if resp.StatusCode == 200 {
			fmt.Println()
		}
	}
	// Output:
	// 200 {"id":7}
	// 503 the server's own error page
}
