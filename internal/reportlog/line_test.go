package reportlog

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/gateway"
)

// slogLine is the line that Log writes for r through
// slog.NewJSONHandler, stamped t.
func slogLine(t time.Time, msg string, r gateway.Report) []byte {
	var buf bytes.Buffer
	rec := slog.NewRecord(t, r.Level(), msg, 0)
	rec.AddAttrs(r.LogAttrs()...)
	slog.NewJSONHandler(&buf, nil).Handle(context.Background(), rec)
	return buf.Bytes()
}

func linesLine(t time.Time, msg string, r gateway.Report) []byte {
	var buf bytes.Buffer
	NewLines(&buf).logAt(t, msg, r)
	return buf.Bytes()
}

var lineReports = []gateway.Report{
	{Route: "GET /v1/{x}", Method: "GET", Path: "/v1/a", Status: 200, Outcome: gateway.OutcomeMasked,
		BytesIn: 30, BytesOut: 8, MaskTime: 1500 * time.Microsecond, Duration: 3 * time.Millisecond},
	{Route: "/", Status: 502, Outcome: gateway.OutcomeRefused, Err: errors.New("jsonmask: not valid JSON at offset 3")},
	{Method: "G\"E\\T\n\r\t\x00\x1f\x7f", Path: "/\xff\xfe/\u2028\u2029/é/<&>", Outcome: gateway.OutcomeBadRequest, Status: 400,
		Err: errors.New("bad \"path\" \u2029 \x01")},
	{Route: "(none)", Outcome: gateway.OutcomeUpstreamError, Status: 502, Duration: 1, MaskTime: 999 * time.Hour},
	{Outcome: gateway.OutcomeAborted, MaskTime: time.Microsecond, Duration: 123456789 * time.Microsecond, BytesIn: -1},
}

// TestLines: Lines writes what Log writes through slog's JSON handler,
// byte for byte.
func TestLines(t *testing.T) {
	at := time.Date(2026, 11, 27, 0, 1, 2, 345678900, time.UTC)
	for i, r := range lineReports {
		for _, tm := range []time.Time{at, at.In(time.FixedZone("x", 3600)), time.Now()} {
			if got, want := linesLine(tm, "request", r), slogLine(tm, "request", r); !bytes.Equal(got, want) {
				t.Errorf("report %d:\n got %s\nwant %s", i, got, want)
			}
		}
	}
}

// FuzzLines: the same for any strings and figures a report can hold.
func FuzzLines(f *testing.F) {
	for _, r := range lineReports {
		msg := ""
		if r.Err != nil {
			msg = r.Err.Error()
		}
		f.Add(r.Route, r.Method, r.Path, msg, int64(r.Status), r.BytesIn, int64(r.MaskTime), int64(r.Duration))
	}
	at := time.Date(2026, 11, 27, 0, 1, 2, 345678900, time.UTC)
	f.Fuzz(func(t *testing.T, route, method, path, errMsg string, status, in, mask, dur int64) {
		r := gateway.Report{Route: route, Method: method, Path: path, Status: int(status), Outcome: gateway.OutcomeMasked,
			BytesIn: in, BytesOut: -in, MaskTime: time.Duration(mask), Duration: time.Duration(dur)}
		if errMsg != "" {
			r.Err = errors.New(errMsg)
		}
		if got, want := linesLine(at, "request", r), slogLine(at, "request", r); !bytes.Equal(got, want) {
			t.Fatalf("\n got %s\nwant %s", got, want)
		}
	})
}

func BenchmarkLines(b *testing.B) {
	r := lineReports[0]
	b.Run("lines", func(b *testing.B) {
		l := NewLines(discard{})
		b.ReportAllocs()
		for b.Loop() {
			l.Log("request", r)
		}
	})
	b.Run("slog", func(b *testing.B) {
		l := slog.New(slog.NewJSONHandler(discard{}, nil))
		b.ReportAllocs()
		for b.Loop() {
			Log(l, "request", r)
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
