package config

import (
	"strings"
	"testing"
)

// FuzzParse: no input makes Parse panic, every error is one line that
// begins "jsonmask: config: ", and a config that Parse accepts compiles
// without a panic too (where it names no mask file: the fuzzer would have
// it read any file).
func FuzzParse(f *testing.F) {
	for _, c := range configCases {
		f.Add([]byte(c.config), c.plugin)
	}
	f.Fuzz(func(t *testing.T, data []byte, plugin bool) {
		opts := []Option{AllowNoRoutes()}
		if plugin {
			opts = append(opts, ForPlugin())
		}
		c, err := Parse(data, "", opts...)
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
