package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// run is one result line of go test -bench: one run of one benchmark.
type run struct {
	nsPerOp, mbPerSec, bytesPerOp, allocsPerOp float64
	hasMB, hasAllocs                           bool
}

// cell identifies a benchmark: one implementation on one workload.
type cell struct{ workload, impl string }

// results is everything read from the raw output of go test -bench.
type results struct {
	cpu, goos, goarch string
	workloads, impls  []string // in order of first appearance
	runs              map[cell][]run
}

// benchName matches the name of a BenchmarkMask sub-benchmark, with the
// -GOMAXPROCS suffix that go test adds when GOMAXPROCS is not 1.
var benchName = regexp.MustCompile(`^BenchmarkMask/workload=([^/]+)/impl=(.+?)(?:-\d+)?$`)

// parse reads the output of go test -bench. Lines that are not results of
// BenchmarkMask (PASS, ok, other benchmarks, logs) are ignored; a result line
// that cannot be read is an error, since a silently dropped run would bias
// the medians.
func parse(r io.Reader) (*results, error) {
	res := &results{runs: make(map[cell][]run)}
	seenW, seenI := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, "Benchmark") {
			switch k {
			case "cpu":
				res.cpu = strings.TrimSpace(v)
			case "goos":
				res.goos = strings.TrimSpace(v)
			case "goarch":
				res.goarch = strings.TrimSpace(v)
			}
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 {
			continue // e.g. a benchmark name printed alone before its log output
		}
		m := benchName.FindStringSubmatch(fields[0])
		if m == nil {
			continue
		}
		rn, err := parseRun(fields[2:])
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", lineNo, err)
		}
		c := cell{m[1], m[2]}
		if !seenW[c.workload] {
			seenW[c.workload] = true
			res.workloads = append(res.workloads, c.workload)
		}
		if !seenI[c.impl] {
			seenI[c.impl] = true
			res.impls = append(res.impls, c.impl)
		}
		res.runs[c] = append(res.runs[c], rn)
	}
	return res, sc.Err()
}

// throughputUnit is the unit of the throughput that the report's medians are
// of: MB/s (wall time, as go test -bench reports it), cpu-MB/s (the CPU time
// of the benchmark's thread) or proc-MB/s (the CPU time of all the process's
// threads), as BenchmarkMask reports them too.
var throughputUnit = "MB/s"

// parseRun reads the value-unit pairs that follow the iteration count.
func parseRun(f []string) (run, error) {
	var rn run
	if len(f)%2 != 0 {
		return rn, fmt.Errorf("odd number of value-unit fields: %q", f)
	}
	for i := 0; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return rn, fmt.Errorf("value %q: %v", f[i], err)
		}
		switch u := f[i+1]; {
		case u == throughputUnit:
			rn.mbPerSec, rn.hasMB = v, true
		case u == "ns/op":
			rn.nsPerOp = v
		case u == "B/op":
			rn.bytesPerOp = v
		case u == "allocs/op":
			rn.allocsPerOp, rn.hasAllocs = v, true
		}
	}
	return rn, nil
}
