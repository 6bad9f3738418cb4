//go:build simdjson

package bench

// #cgo CXXFLAGS: -std=c++17 -O3
// #cgo LDFLAGS: -lsimdjson
// #include "simdjson_limit.h"
import "C"

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"
)

// With the build tag simdjson (and cgo, a C++ compiler and Debian's
// libsimdjson-dev: apt-get install libsimdjson-dev g++), the bench gains the
// column limit:simdjson: simdjson's DOM parse in C++, the fastest validating
// JSON parser we know of, as a limit beside sonic-valid and jsonmask-valid.
// It parses the body into a reused DOM and writes nothing; an NDJSON body is
// parsed with parse_many. The body is parsed in place when the 64 bytes after
// it are readable (the workloads' inputs have them), as simdjson parses its
// padded strings; otherwise simdjson copies it first.
func init() {
	i := slices.IndexFunc(impls, func(im impl) bool { return im.name == "copy" })
	impls = slices.Insert(impls, i, impl{"limit:simdjson", false, newSimdjsonLimit})
}

type simdjsonLimit struct {
	p      unsafe.Pointer
	ndjson bool
}

func newSimdjsonLimit(w *Workload) (masker, error) {
	s := &simdjsonLimit{p: C.jm_simdjson_new(), ndjson: w.Options.NDJSON}
	runtime.AddCleanup(s, func(p unsafe.Pointer) { C.jm_simdjson_free(p) }, s.p)
	return s, nil
}

func (s *simdjsonLimit) Mask(dst, doc []byte) ([]byte, error) {
	padded := cap(doc)-len(doc) >= inputPadding
	var buf *C.char
	if len(doc) > 0 {
		buf = (*C.char)(unsafe.Pointer(unsafe.SliceData(doc)))
	}
	if rc := C.jm_simdjson_parse(s.p, buf, C.size_t(len(doc)), C.int(b2i(padded)), C.int(b2i(s.ndjson))); rc != 0 {
		return dst, fmt.Errorf("simdjson: error %d", int(rc))
	}
	return dst, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
