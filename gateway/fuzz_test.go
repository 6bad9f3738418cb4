package gateway

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzBody: for any body and framing, no panic, and pushing it whole or a
// byte at a time gives the same output and the same verdict (SPEC S1 for
// the gateway's framers). Seeded from the SSE and body tables.
func FuzzBody(f *testing.F) {
	for _, c := range sseCases {
		f.Add([]byte(c.in), uint8(0))
	}
	for _, c := range bodyCases {
		f.Add([]byte(c.in), uint8(1))
		f.Add([]byte(c.in), uint8(2))
	}
	types := []string{"text/event-stream", "application/json", "application/x-ndjson"}
	f.Fuzz(func(t *testing.T, in []byte, kind uint8) {
		if len(in) > 4096 {
			return // a byte at a time, with a flush each, is slow on long inputs
		}
		h := header("identity", types[int(kind)%len(types)])
		lim := Limits{MaxTokenBytes: 1 << 16}
		whole, errWhole := pushBody(sseMask, h, lim, in, 0, false)
		bytewise, errBytes := pushBody(sseMask, h, lim, in, 1, true)
		if (errWhole == nil) != (errBytes == nil) {
			t.Fatalf("whole: %v; a byte at a time: %v", errWhole, errBytes)
		}
		if errWhole == nil && !bytes.Equal(whole, bytewise) {
			t.Fatalf("whole %q\nbytes %q", whole, bytewise)
		}
	})
}

// FuzzParseConfig: for any config, read as serve's or a plug-in's, no
// panic, and an error is one line that says it is the config's. One that
// reads compiles without a panic too (where it names no mask file: the
// fuzzer would have it read any file).
func FuzzParseConfig(f *testing.F) {
	for _, c := range configCases {
		f.Add([]byte(c.config), c.plugin)
	}
	f.Fuzz(func(t *testing.T, data []byte, plugin bool) {
		var opts []ConfigOption
		if plugin {
			opts = append(opts, ForPlugin())
		}
		c, err := ParseConfig(data, "", opts...)
		if err == nil {
			for _, rc := range c.Routes {
				if rc.MaskFile != "" {
					return
				}
			}
			_, err = c.CompileRoutes()
		}
		if err != nil && (!strings.HasPrefix(err.Error(), "jsonmask: config: ") || strings.ContainsAny(err.Error(), "\n\r")) {
			t.Fatalf("error %q: want one line that begins with jsonmask: config: ", err)
		}
	})
}
