package extproc

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"sigs.k8s.io/yaml"

	// The types that the config's typed_config fields name.
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
)

// TestEnvoyYAML: the envoy.yaml of the README is a valid Envoy bootstrap
// (Envoy's protos and their validation rules, as Envoy would load it),
// and its ext_proc filter has the settings that masking depends on: the
// request headers sent, a body mode that masks whole bodies, trailers sent,
// failing closed, immediate responses honoured, a message timeout. The
// per-route snippet is a valid ExtProcPerRoute.
func TestEnvoyYAML(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) != 2 {
		t.Fatalf("%d yaml blocks in the README, want 2 (envoy.yaml, the per-route snippet)", len(blocks))
	}
	var boot bootstrapv3.Bootstrap
	load(t, blocks[0][1], &boot)
	if err := boot.ValidateAll(); err != nil {
		t.Fatalf("envoy.yaml: %v", err)
	}
	var ep *procmode.ExternalProcessor
	for _, l := range boot.GetStaticResources().GetListeners() {
		for _, fc := range l.GetFilterChains() {
			for _, f := range fc.GetFilters() {
				var hcm hcmv3.HttpConnectionManager
				if err := f.GetTypedConfig().UnmarshalTo(&hcm); err != nil {
					continue
				}
				if err := hcm.ValidateAll(); err != nil {
					t.Errorf("http_connection_manager: %v", err)
				}
				for _, hf := range hcm.GetHttpFilters() {
					var p procmode.ExternalProcessor
					if hf.GetTypedConfig().UnmarshalTo(&p) == nil {
						ep = &p
						if err := p.ValidateAll(); err != nil {
							t.Errorf("ext_proc: %v", err)
						}
					}
				}
				if !hcm.GetNormalizePath().GetValue() || !hcm.GetMergeSlashes() {
					t.Errorf("paths are not normalized: %v", &hcm)
				}
			}
		}
	}
	if ep == nil {
		t.Fatal("no ext_proc filter in envoy.yaml")
	}
	pm := ep.GetProcessingMode()
	switch {
	case pm.GetRequestHeaderMode() == procmode.ProcessingMode_SKIP:
		t.Error("request headers skipped: no route could be chosen")
	case pm.GetResponseBodyMode() != procmode.ProcessingMode_FULL_DUPLEX_STREAMED:
		t.Errorf("response_body_mode %v", pm.GetResponseBodyMode())
	case pm.GetResponseTrailerMode() != procmode.ProcessingMode_SEND:
		t.Error("FULL_DUPLEX_STREAMED needs response_trailer_mode SEND")
	case ep.GetFailureModeAllow(), ep.GetDisableImmediateResponse(), ep.GetObservabilityMode():
		t.Error("a setting that fails open")
	case ep.GetMessageTimeout() == nil:
		t.Error("no message_timeout")
	case ep.GetStatusOnError().GetCode() != typev3.StatusCode_BadGateway:
		t.Errorf("status_on_error %v", ep.GetStatusOnError())
	}

	var route procmode.ExtProcPerRoute
	// The filter's config: the lines from "@type" on, dedented.
	snippet := regexp.MustCompile(`(?s)\n( *)("@type".*)`).FindSubmatch(blocks[1][1])
	if snippet == nil {
		t.Fatal("no typed config in the per-route snippet")
	}
	var typed anypb.Any
	load(t, bytes.ReplaceAll(snippet[2], append([]byte("\n"), snippet[1]...), []byte("\n")), &typed)
	if err := typed.UnmarshalTo(&route); err != nil {
		t.Fatalf("per-route snippet: %v", err)
	}
	if err := route.ValidateAll(); err != nil || !route.GetDisabled() {
		t.Fatalf("per-route snippet: %v, %v", &route, err)
	}
}

// load reads YAML (or JSON) into m as Envoy does: protojson, unknown fields
// refused, typed_config resolved by type URL.
func load(t *testing.T, y []byte, m proto.Message) {
	t.Helper()
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		t.Fatalf("yaml: %v", err)
	}
	if err := protojson.Unmarshal(j, m); err != nil {
		t.Fatalf("%T: %v\n%s", m, err, j)
	}
}
