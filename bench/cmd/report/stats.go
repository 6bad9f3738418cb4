package main

import (
	"math"
	"slices"
)

// median returns the median of xs, or NaN if xs is empty. With -count runs
// the median, unlike the mean, is not moved by one run that a noisy
// neighbour slowed down.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// geomean returns the geometric mean of xs, the right mean for ratios, or NaN
// if xs is empty or holds a value that is not positive.
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs)))
}

// medianMB returns the median throughput of c, or NaN if it did not run or
// reported no throughput.
func (r *results) medianMB(c cell) float64 {
	var xs []float64
	for _, rn := range r.runs[c] {
		if rn.hasMB {
			xs = append(xs, rn.mbPerSec)
		}
	}
	return median(xs)
}

// medianAllocs returns the median allocs/op of c, or NaN.
func (r *results) medianAllocs(c cell) float64 {
	var xs []float64
	for _, rn := range r.runs[c] {
		if rn.hasAllocs {
			xs = append(xs, rn.allocsPerOp)
		}
	}
	return median(xs)
}

// maxAllocs returns the largest allocs/op of any run of c, or NaN.
func (r *results) maxAllocs(c cell) float64 {
	m := math.NaN()
	for _, rn := range r.runs[c] {
		if rn.hasAllocs && (math.IsNaN(m) || rn.allocsPerOp > m) {
			m = rn.allocsPerOp
		}
	}
	return m
}
