package main

import (
	"math"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/jsonmask/jsonmask/bench
cpu: AMD EPYC 7B13
BenchmarkMask/workload=twitter-keep-most/impl=jsonmask-2         	     196	    685870 ns/op	 900.00 MB/s	      27 B/op	       0 allocs/op
BenchmarkMask/workload=twitter-keep-most/impl=jsonmask-2         	     196	    685870 ns/op	 920.00 MB/s	      27 B/op	       1 allocs/op
BenchmarkMask/workload=twitter-keep-most/impl=jsonmask-2         	     196	    685870 ns/op	 910.00 MB/s	      27 B/op	       0 allocs/op
BenchmarkMask/workload=twitter-keep-most/impl=sonic-valid-2      	     375	    317572 ns/op	1800.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkMask/workload=a-b/impl=jsonmask-stream                  	     375	    317572 ns/op	 100 MB/s	       0 B/op	       0 allocs/op
BenchmarkOther-2 	 1	 1 ns/op
PASS
ok  	github.com/jsonmask/jsonmask/bench	3.350s
`

func TestParse(t *testing.T) {
	r, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if r.cpu != "AMD EPYC 7B13" || r.goos != "linux" || r.goarch != "amd64" {
		t.Errorf("header: cpu %q goos %q goarch %q", r.cpu, r.goos, r.goarch)
	}
	if got := strings.Join(r.workloads, ","); got != "twitter-keep-most,a-b" {
		t.Errorf("workloads = %s", got)
	}
	if got := strings.Join(r.impls, ","); got != "jsonmask,sonic-valid,jsonmask-stream" {
		t.Errorf("impls = %s", got)
	}
	c := cell{"twitter-keep-most", "jsonmask"}
	if got := r.medianMB(c); got != 910 {
		t.Errorf("median MB/s = %g, want 910", got)
	}
	if got := r.medianAllocs(c); got != 0 {
		t.Errorf("median allocs = %g, want 0", got)
	}
	if got := r.maxAllocs(c); got != 1 {
		t.Errorf("max allocs = %g, want 1", got)
	}
	if got := r.medianMB(cell{"a-b", "jsonmask"}); !math.IsNaN(got) {
		t.Errorf("median of a benchmark that did not run = %g, want NaN", got)
	}
}

func TestStats(t *testing.T) {
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median = %g, want 2.5", got)
	}
	if got := geomean([]float64{1, 4}); math.Abs(got-2) > 1e-12 {
		t.Errorf("geomean = %g, want 2", got)
	}
	if got := geomean(nil); !math.IsNaN(got) {
		t.Errorf("geomean of nothing = %g, want NaN", got)
	}
}

func TestTargets(t *testing.T) {
	r, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	b := r.geomeanTarget("b", implJSONMask, implValid, 1.0, false)
	if b.status != fail || !strings.HasPrefix(b.value, "0.51") {
		t.Errorf("target b = %+v, want 910/1800 = 0.51, FAIL", b)
	}
	if a := r.beatPeersTarget(2); a.status != noData {
		t.Errorf("target a without peers = %+v, want n/a", a)
	}
	e, offenders := r.zeroAllocTarget(implJSONMask, implStream)
	if e.status != fail || len(offenders) != 1 {
		t.Errorf("target e = %+v %v, want one offender, FAIL", e, offenders)
	}
}

func TestAskRows(t *testing.T) {
	const lines = `BenchmarkMask/workload=w/impl=jsonmask-2 	1	1 ns/op	 900.00 MB/s
BenchmarkMask/workload=w/impl=fastjson-2 	1	1 ns/op	 600.00 MB/s
BenchmarkMask/workload=w/impl=sonic-2 	1	1 ns/op	 300.00 MB/s
BenchmarkMask/workload=w/impl=jsonmask-valid-2 	1	1 ns/op	1000.00 MB/s
BenchmarkMask/workload=v/impl=jsonmask-2 	1	1 ns/op	 900.00 MB/s
BenchmarkMask/workload=v/impl=fastjson-2 	1	1 ns/op	 600.00 MB/s
`
	r, err := parse(strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	rows := r.askRows(r.beatPeersTarget(2).rows, 2)
	if len(rows) != 1 || rows[0].workload != "w" || rows[0].num != 1200 || rows[0].den != 1000 || rows[0].ratio != 1.2 {
		t.Errorf("askRows = %+v, want w only: (a) asks 2 × 600 = 1200 against 1000, ratio 1.2", rows)
	}
}
