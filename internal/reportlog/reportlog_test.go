package reportlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/gateway"
)

// TestLog: one JSON line per report, with every key of SPEC G9, at Warn
// with the error when there is one.
func TestLog(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     gateway.Report
		level string
	}{
		{"Masked", gateway.Report{Route: "GET /v1/{x}", Method: "GET", Path: "/v1/a", Status: 200, Outcome: gateway.OutcomeMasked,
			BytesIn: 30, BytesOut: 8, MaskTime: 1500 * time.Microsecond, Duration: 3 * time.Millisecond}, "INFO"},
		{"Refused", gateway.Report{Route: "/", Status: 502, Outcome: gateway.OutcomeRefused, Err: errors.New("jsonmask: not valid JSON at offset 3")}, "WARN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			Log(slog.New(slog.NewJSONHandler(&buf, nil)), "request", c.r)
			if bytes.Count(buf.Bytes(), []byte("\n")) != 1 {
				t.Fatalf("not one line: %q", buf.String())
			}
			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			if line["msg"] != "request" || line["level"] != c.level || line["route"] != c.r.Route ||
				line["status"] != float64(c.r.Status) || line["outcome"] != string(c.r.Outcome) {
				t.Errorf("line %v", line)
			}
			for _, k := range []string{"method", "path", "bytes_in", "bytes_out", "mask_ms", "duration_ms"} {
				if _, ok := line[k]; !ok {
					t.Errorf("no %q in %v", k, line)
				}
			}
			if _, ok := line["error"]; ok != (c.r.Err != nil) {
				t.Errorf("error key: %v", line)
			}
			if c.name == "Masked" && (line["mask_ms"] != 1.5 || line["duration_ms"] != 3.0 || line["bytes_out"] != 8.0) {
				t.Errorf("figures %v", line)
			}
		})
	}
}
