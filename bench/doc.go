// Package bench compares jsonmask with the ways a Go program would otherwise
// mask a JSON response: decode, filter and re-encode with encoding/json or
// sonic, walk a fastjson tree or a minio/simdjson-go tape, or copy a jsontext
// or go-faster/jx token stream. It also measures limits that are not maskers:
// validation alone, by sonic.Valid and by jsonmask's own tokenizer; with the
// build tag simdjson, simdjson's DOM parse in C++ (limit:simdjson, through
// cgo; it needs g++ and Debian's libsimdjson-dev); and copy (memcpy).
//
// The package holds only the implementations and the workload loader;
// BenchmarkMask runs them and TestPeersAgree proves that every masker does the
// same work as jsonmask. run.sh runs the benchmarks and cmd/report turns the
// results into REPORT.md and chart.svg.
//
// BenchmarkAppendValue masks Go values instead of bodies: twitter.json
// decoded into structs and into map[string]any, under the
// twitter/decision-fields mask, by jsonmask's AppendValue and by encoding
// the value whole (encoding/json, sonic) and masking that with Append;
// TestAppendValuePeersAgree proves they agree. Run it with
//
//	go test -run '^$' -bench AppendValue -count 10 > appendvalue.txt
//	go tool benchstat -col /impl appendvalue.txt
//
// It also measures toolresult, what a tool's response becomes before a model
// sees it (SPEC section 9): the tokens its passthrough decision counts, the
// throughput of its variable route against Append, and the peak memory of
// that route on 1 GiB (cmd/ctxrss). Items makes the large bodies from the
// corpus as they are read. context.sh runs these; their figures are in the
// hand-written section of REPORT.md that cmd/report keeps.
package bench
