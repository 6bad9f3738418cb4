package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// implSimdjson is simdjson's DOM parse in C++ (the build tag simdjson).
const implSimdjson = "limit:simdjson"

// simdjsonLeast is what issue 25 (figure 2) asks of jsonmask against
// simdjson's DOM parse: 0.8 on the string- and structure-heavy workloads,
// whose names begin with these, and 1.0 (ahead) on the rest.
var heavyPrefixes = []string{"twitter", "citm", "github", "apache", "google", "update-center", "conversation-items", "flow"}

func simdjsonLeast(workload string) float64 {
	for _, p := range heavyPrefixes {
		if strings.HasPrefix(workload, p) {
			return 0.8
		}
	}
	return 1.0
}

// limitsSection writes the figures of issue 25 that the run measured:
// per workload, jsonmask against simdjson's DOM parse (figure 2), against
// sonic.Valid (figure 3) and against the fastest Go peer (figure 4), and
// their summaries.
func (r *results) limitsSection(b *bytes.Buffer) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	simd := r.ratiosBy(implJSONMask, implSimdjson, simdjsonLeast)
	valid := r.ratios(implJSONMask, implValid, 1.0)
	peer := r.beatPeersTarget(peerRatio)
	if len(simd) == 0 && len(valid) == 0 {
		return
	}
	p("\n## Limits (issue 25, figures 2 to 4)\n\n")
	p("jsonmask's default mode over simdjson's DOM parse (`%s`: ≥ 0.8 asked on the string- and ", implSimdjson)
	p("structure-heavy workloads, ≥ 1.0 on the rest), over sonic.Valid (≥ 1.0 on every workload, ")
	p("≥ 1.5 in geometric mean) and over the fastest Go peer (≥ %.1f).\n\n", peerRatio)
	p("| workload | jsonmask / simdjson | asked | jsonmask / sonic.Valid | jsonmask / fastest peer (which) |\n|---|---:|---:|---:|---:|\n")
	byW := func(rows []ratioRow) map[string]ratioRow {
		m := make(map[string]ratioRow, len(rows))
		for _, row := range rows {
			m[row.workload] = row
		}
		return m
	}
	s, v, f := byW(simd), byW(valid), byW(peer.rows)
	cellOf := func(row ratioRow, ok bool) string {
		if !ok {
			return "n/a"
		}
		if row.status == fail {
			return fmt.Sprintf("**%.2f**", row.ratio)
		}
		return fmt.Sprintf("%.2f", row.ratio)
	}
	for _, w := range r.workloads {
		sr, sok := s[w]
		vr, vok := v[w]
		fr, fok := f[w]
		which := ""
		if fok {
			which = " (" + fr.denName + ")"
		}
		p("| %s | %s | %.1f | %s | %s%s |\n", w, cellOf(sr, sok), simdjsonLeast(w), cellOf(vr, vok), cellOf(fr, fok), which)
	}
	summary := func(rows []ratioRow) string {
		if len(rows) == 0 {
			return "n/a"
		}
		xs := make([]float64, len(rows))
		failed := 0
		lo := math.Inf(1)
		for i, row := range rows {
			xs[i] = row.ratio
			lo = math.Min(lo, row.ratio)
			if row.status == fail {
				failed++
			}
		}
		return fmt.Sprintf("geomean %.2f, worst %.2f, %d of %d below what is asked", geomean(xs), lo, failed, len(rows))
	}
	p("\n- jsonmask / simdjson: %s\n", summary(simd))
	p("- jsonmask / sonic.Valid: %s\n", summary(valid))
	p("- jsonmask / fastest Go peer: %s\n", summary(peer.rows))
}

// ratiosBy is ratios with a threshold per workload.
func (r *results) ratiosBy(num, den string, least func(string) float64) []ratioRow {
	var rows []ratioRow
	for _, w := range r.workloads {
		n, d := r.medianMB(cell{w, num}), r.medianMB(cell{w, den})
		if math.IsNaN(n) || math.IsNaN(d) || d == 0 {
			continue
		}
		rows = append(rows, ratioRow{workload: w, num: n, den: d, denName: den, ratio: n / d, status: check(n/d >= least(w))})
	}
	return rows
}
