package extproc

import (
	"net/http"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"github.com/jsonmask/jsonmask/gateway"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// headers is an Envoy header map read: its pseudo-headers apart, the rest
// as an http.Header, so that the gateway's rules apply to it as they are.
type headers struct {
	method, authority, path, status string
	h                               http.Header
	// raw: Envoy wrote values in raw_value (its default since 1.27), and
	// reads mutations from there too; else from value.
	raw bool
}

func readHeaders(m *corev3.HeaderMap) headers {
	hs := headers{h: make(http.Header, len(m.GetHeaders())), raw: true}
	sawValue := false
	for _, hv := range m.GetHeaders() {
		v := string(hv.GetRawValue())
		if len(hv.GetRawValue()) == 0 && hv.GetValue() != "" {
			v, sawValue = hv.GetValue(), true
		}
		k := hv.GetKey()
		switch k {
		case ":method":
			hs.method = v
		case ":authority":
			hs.authority = v
		case ":path":
			hs.path = v
		case ":status":
			hs.status = v
		default:
			if strings.HasPrefix(k, ":") {
				continue // ":scheme", ":protocol": not the gateway's business
			}
			hs.h[http.CanonicalHeaderKey(k)] = append(hs.h[http.CanonicalHeaderKey(k)], v)
		}
	}
	if sawValue {
		hs.raw = false
	}
	if hs.authority == "" {
		hs.authority = hs.h.Get("Host")
	}
	return hs
}

// mutation is what turns the header before into after: the keys after
// lacks are removed, and those whose values changed are set (the first
// value replaces, the others are appended). Nil when nothing changed.
func mutation(before, after http.Header, raw bool) *extprocv3.HeaderMutation {
	m := &extprocv3.HeaderMutation{}
	for k := range before {
		if _, ok := after[k]; !ok {
			m.RemoveHeaders = append(m.RemoveHeaders, strings.ToLower(k))
		}
	}
	var set []string
	for k, vv := range after {
		if !slices.Equal(before[k], vv) {
			set = append(set, k)
		}
	}
	slices.Sort(set) // the same answer for the same header: logs and tests compare them
	slices.Sort(m.RemoveHeaders)
	for _, k := range set {
		for i, v := range after[k] {
			m.SetHeaders = append(m.SetHeaders, setHeader(strings.ToLower(k), v, i > 0, raw))
		}
	}
	if len(m.RemoveHeaders) == 0 && len(m.SetHeaders) == 0 {
		return nil
	}
	return m
}

// setHeader sets (or, with add, appends) one header value. Envoy's ext_proc
// filter reads the append flag (false, replace, when absent), deprecated
// elsewhere for append_action; both are set, and say the same.
func setHeader(k, v string, add, raw bool) *corev3.HeaderValueOption {
	hv := &corev3.HeaderValue{Key: k}
	if raw {
		hv.RawValue = []byte(v)
	} else {
		hv.Value = v
	}
	action := corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD
	if add {
		action = corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD
	}
	return &corev3.HeaderValueOption{
		Header: hv,
		//lint:ignore SA1019 the field that Envoy's ext_proc filter reads
		Append:       wrapperspb.Bool(add),
		AppendAction: action,
	}
}

// immediate is the local reply that refuses a request (400) or a response
// (502) for err: the gateway's problem document (SPEC G5, G8).
func immediate(status int, err error, raw bool) *extprocv3.ProcessingResponse {
	ph, body := gateway.Problem(status, err)
	ph.Del("Content-Length") // Envoy sets the length of a local reply itself
	details := "jsonmask_response_refused"
	if status == http.StatusBadRequest {
		details = "jsonmask_request_refused"
	}
	return &extprocv3.ProcessingResponse{Response: &extprocv3.ProcessingResponse_ImmediateResponse{
		ImmediateResponse: &extprocv3.ImmediateResponse{
			Status:  &typev3.HttpStatus{Code: typev3.StatusCode(status)},
			Headers: mutation(nil, ph, raw),
			Body:    body,
			Details: details,
		},
	}}
}
