package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
)

// Chart geometry, in SVG user units (pixels).
const (
	chartWidth  = 1000
	labelWidth  = 270 // left column: workload names
	valueWidth  = 70  // right margin: the value printed after the longest bar
	barHeight   = 11
	barGap      = 2
	groupGap    = 16
	legendItemW = 150
	legendRowH  = 20
	fontFamily  = "Helvetica, Arial, sans-serif"
)

// implColors gives jsonmask's modes shades of blue, the peers distinct hues
// and the limits greys, so that the eye groups them; other implementations
// take colours from fallbackColors.
var implColors = map[string]string{
	"jsonmask":         "#1f77b4",
	"jsonmask-trusted": "#6baed6",
	"jsonmask-stream":  "#08306b",
	"stdlib":           "#d62728",
	"sonic":            "#ff7f0e",
	"fastjson":         "#2ca02c",
	"jsontext":         "#9467bd",
	"jx":               "#8c564b",
	"simdjson-go":      "#e377c2",
	"sonic-valid":      "#7f7f7f",
	"jsonmask-valid":   "#a3a3a3",
	"limit:simdjson":   "#525252",
	"copy":             "#c7c7c7",
}

var fallbackColors = []string{"#e377c2", "#8c564b", "#bcbd22", "#17becf"}

func colorOf(impl string, i int) string {
	if c, ok := implColors[impl]; ok {
		return c
	}
	return fallbackColors[i%len(fallbackColors)]
}

// chartSVG draws a horizontal grouped bar chart of median throughput: a group
// per workload, a bar per implementation. The scale is logarithmic because
// the implementations span three orders of magnitude, from encoding/json to
// memcpy; on a linear scale the slow ones would be invisible.
func chartSVG(r *results) []byte {
	// The scale's range: whole decades around every value.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, w := range r.workloads {
		for _, im := range r.impls {
			if v := r.medianMB(cell{w, im}); v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) { // no data: draw an empty frame
		lo, hi = 1, 10
	}
	dLo, dHi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if dHi == dLo {
		dHi++
	}
	plotL, plotR := float64(labelWidth), float64(chartWidth-valueWidth)
	x := func(v float64) float64 {
		return plotL + (math.Log10(v)-dLo)/(dHi-dLo)*(plotR-plotL)
	}

	legendCols := (chartWidth - 20) / legendItemW
	legendRows := (len(r.impls) + legendCols - 1) / legendCols
	plotTop := 40 + legendRows*legendRowH + 24
	groupH := len(r.impls)*(barHeight+barGap) - barGap
	plotBottom := plotTop + len(r.workloads)*(groupH+groupGap)
	height := plotBottom + 50

	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s">`+"\n",
		chartWidth, height, chartWidth, height, fontFamily)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p(`<text x="%d" y="24" font-size="16" font-weight="bold">JSON masking throughput per workload (median %s of input, higher is better)</text>`+"\n", 10, throughputUnit)

	// Legend.
	for i, im := range r.impls {
		lx := 10 + (i%legendCols)*legendItemW
		ly := 40 + (i/legendCols)*legendRowH
		p(`<rect x="%d" y="%d" width="14" height="14" fill="%s"/>`, lx, ly, colorOf(im, i))
		p(`<text x="%d" y="%d" font-size="13">%s</text>`+"\n", lx+20, ly+12, esc(im))
	}

	// Alternate group shading, so that a bar is easy to match to its workload.
	for gi := range r.workloads {
		if gi%2 == 1 {
			gy := plotTop + gi*(groupH+groupGap) - groupGap/2
			p(`<rect x="0" y="%d" width="%d" height="%d" fill="#f3f3f3"/>`+"\n", gy, chartWidth, groupH+groupGap)
		}
	}

	// Grid: a line per decade, fainter ones at 2× and 5×, labelled on both axes.
	for d := dLo; d <= dHi; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if d == dHi && m > 1 {
				break
			}
			gx := x(v)
			stroke, width := "#dddddd", 0.7
			if m == 1 {
				stroke, width = "#999999", 1
				for _, ty := range []int{plotTop - 8, plotBottom + 14} {
					p(`<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#444">%s</text>`+"\n", gx, ty, siLabel(v))
				}
			}
			p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="%.1f"/>`+"\n",
				gx, plotTop-4, gx, plotBottom-groupGap/2, stroke, width)
		}
	}
	p(`<text x="%.1f" y="%d" font-size="12" text-anchor="middle" fill="#222">throughput, MB/s (log scale)</text>`+"\n",
		(plotL+plotR)/2, plotBottom+34)

	// Bars.
	for gi, w := range r.workloads {
		gy := plotTop + gi*(groupH+groupGap)
		p(`<text x="%d" y="%d" font-size="12" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n",
			labelWidth-10, gy+groupH/2, esc(w))
		for i, im := range r.impls {
			v := r.medianMB(cell{w, im})
			if !(v > 0) {
				continue // did not run: no bar rather than a misleading stub
			}
			by := gy + i*(barHeight+barGap)
			bx := x(v)
			p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s / %s: %s MB/s</title></rect>`,
				plotL, by, math.Max(bx-plotL, 1), barHeight, colorOf(im, i), esc(w), esc(im), formatMB(v))
			p(`<text x="%.1f" y="%d" font-size="9" dominant-baseline="middle" fill="#333">%s</text>`+"\n",
				bx+3, by+barHeight/2+1, formatMB(v))
		}
	}
	p("</svg>\n")
	return b.Bytes()
}

// siLabel formats a power-of-ten throughput for an axis: 1, 10, 100, 1k, 10k.
func siLabel(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%gk", v/1e3)
	default:
		return fmt.Sprintf("%g", v)
	}
}

// esc escapes text for an SVG text node or attribute.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s)) // writes to a bytes.Buffer cannot fail
	return b.String()
}
