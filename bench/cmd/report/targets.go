package main

import (
	"fmt"
	"math"
)

// Implementation names, as BenchmarkMask reports them.
const (
	implJSONMask = "jsonmask"
	implTrusted  = "jsonmask-trusted"
	implStream   = "jsonmask-stream"
	implValid    = "sonic-valid"
	implOwnValid = "jsonmask-valid"
)

// peerRatio is target (a): jsonmask's throughput over the fastest peer's, on
// every workload.
const peerRatio = 2.0

// peers are the maskers that jsonmask competes with.
var peers = []string{"stdlib", "sonic", "fastjson", "jsontext", "jx", "simdjson-go"}

// jsonmaskImpls are jsonmask's modes, whose allocations the report lists.
var jsonmaskImpls = []string{implJSONMask, implTrusted, implStream}

// status is the outcome of a target.
type status string

const (
	pass   status = "PASS"
	fail   status = "**FAIL**"
	noData status = "n/a" // an implementation it needs did not run (BENCH)
)

func check(ok bool) status {
	if ok {
		return pass
	}
	return fail
}

// ratioRow is one workload's ratio for a target.
type ratioRow struct {
	workload string
	num, den float64 // median MB/s
	denName  string  // for target (a): which peer was fastest
	ratio    float64
	status   status
}

// target is one line of the report's Targets section.
type target struct {
	id, what  string
	value     string // the measured value, formatted
	threshold string
	status    status
	rows      []ratioRow // per-workload detail, if any
}

// ratios returns num/den per workload, for the workloads where both ran.
func (r *results) ratios(num, den string, least float64) []ratioRow {
	var rows []ratioRow
	for _, w := range r.workloads {
		n, d := r.medianMB(cell{w, num}), r.medianMB(cell{w, den})
		if math.IsNaN(n) || math.IsNaN(d) || d == 0 {
			continue
		}
		rows = append(rows, ratioRow{workload: w, num: n, den: d, denName: den, ratio: n / d, status: check(n/d >= least)})
	}
	return rows
}

// geomeanTarget is a target on the geometric mean over workloads of num/den.
func (r *results) geomeanTarget(id, num, den string, least float64, detail bool) target {
	rows := r.ratios(num, den, least)
	t := target{
		id:        id,
		what:      fmt.Sprintf("geomean over workloads of %s / %s", num, den),
		threshold: fmt.Sprintf("≥ %.2f", least),
		value:     "n/a",
		status:    noData,
	}
	if len(rows) > 0 {
		xs := make([]float64, len(rows))
		for i, row := range rows {
			xs[i] = row.ratio
		}
		g := geomean(xs)
		t.value = fmt.Sprintf("%.2f (%d workloads)", g, len(rows))
		t.status = check(g >= least)
	}
	if detail {
		t.rows = rows
	}
	return t
}

// beatPeersTarget is target (a): on every workload, jsonmask's throughput
// divided by the fastest peer's is at least the given ratio.
func (r *results) beatPeersTarget(least float64) target {
	t := target{
		id:        "a",
		what:      "per workload, jsonmask / fastest of " + fmt.Sprint(peers),
		threshold: fmt.Sprintf("≥ %.1f on every workload", least),
		value:     "n/a",
		status:    noData,
	}
	worst := math.Inf(1)
	for _, w := range r.workloads {
		jm := r.medianMB(cell{w, implJSONMask})
		best, bestName := math.NaN(), ""
		for _, p := range peers {
			if v := r.medianMB(cell{w, p}); !math.IsNaN(v) && (math.IsNaN(best) || v > best) {
				best, bestName = v, p
			}
		}
		if math.IsNaN(jm) || math.IsNaN(best) || best == 0 {
			continue
		}
		row := ratioRow{workload: w, num: jm, den: best, denName: bestName, ratio: jm / best, status: check(jm/best >= least)}
		t.rows = append(t.rows, row)
		worst = math.Min(worst, row.ratio)
	}
	if len(t.rows) > 0 {
		failed := 0
		for _, row := range t.rows {
			if row.status != pass {
				failed++
			}
		}
		t.value = fmt.Sprintf("worst %.2f; %d of %d workloads below", worst, failed, len(t.rows))
		t.status = check(failed == 0)
	}
	return t
}

// askRows returns, for each workload of target (a)'s rows, what the target
// asks of jsonmask (least times the fastest peer) over jsonmask-valid's
// throughput, for the workloads where jsonmask-valid ran.
func (r *results) askRows(a []ratioRow, least float64) []ratioRow {
	var rows []ratioRow
	for _, row := range a {
		v := r.medianMB(cell{row.workload, implOwnValid})
		if math.IsNaN(v) || v == 0 {
			continue
		}
		ask := least * row.den
		rows = append(rows, ratioRow{workload: row.workload, num: ask, den: v, denName: implOwnValid, ratio: ask / v})
	}
	return rows
}

// zeroAllocTarget is target (e): the given implementations allocate nothing,
// in any run of any workload. It uses the largest allocs/op seen rather than
// the median: one allocating run is a finding.
func (r *results) zeroAllocTarget(impls ...string) (target, []string) {
	t := target{
		id:        "e",
		what:      fmt.Sprintf("allocs/op of %v, every run of every workload", impls),
		threshold: "= 0",
		value:     "n/a",
		status:    noData,
	}
	var offenders []string
	seen, worst := 0, 0.0
	for _, w := range r.workloads {
		for _, im := range impls {
			a := r.maxAllocs(cell{w, im})
			if math.IsNaN(a) {
				continue
			}
			seen++
			worst = math.Max(worst, a)
			if a != 0 {
				offenders = append(offenders, fmt.Sprintf("%s/%s: up to %g allocs/op", w, im, a))
			}
		}
	}
	if seen > 0 {
		t.value = fmt.Sprintf("max %g", worst)
		t.status = check(len(offenders) == 0)
	}
	return t, offenders
}
