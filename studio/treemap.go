package studio

import "sort"

// The treemap's drawing area, in SVG user units.
const (
	mapWidth  = 960
	mapHeight = 540
	mapHeader = 16 // the label strip of an open node, above its children
	mapPad    = 2
)

// tile is one rectangle of the treemap: a path, where it is drawn, and what
// the mask does there.
type tile struct {
	Path  string  `json:"path"`
	Label string  `json:"label"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	W     float64 `json:"w"`
	H     float64 `json:"h"`
	Mask  string  `json:"mask"` // kept, masked, dropped
	Kept  float64 `json:"kept"` // the part of its bytes the mask keeps
	Open  bool    `json:"open"` // its children are drawn inside it
	Share float64 `json:"share"`
}

// mapNode is a node of the tree the treemap draws.
type mapNode struct {
	row    *row
	weight float64
	kids   []*mapNode
}

// layoutTreemap lays the nodes out, nested: each node's area is its weight's
// share of its siblings', and an open node's children share its area below
// its label strip. Siblings are placed by the squarified algorithm (Bruls,
// Huizing, van Wijk), which keeps rectangles near square.
func layoutTreemap(nodes []*mapNode) []tile {
	var tiles []tile
	type job struct {
		nodes      []*mapNode
		x, y, w, h float64
	}
	jobs := []job{{nodes, 0, 0, mapWidth, mapHeight}}
	for len(jobs) > 0 {
		j := jobs[len(jobs)-1]
		jobs = jobs[:len(jobs)-1]
		for _, r := range squarify(j.nodes, j.x, j.y, j.w, j.h) {
			n := r.node
			t := tile{Path: n.row.Path, Label: n.row.Name, X: r.x, Y: r.y, W: r.w, H: r.h,
				Mask: n.row.Mask, Open: len(n.kids) > 0, Share: n.row.Share}
			if n.row.Bytes > 0 {
				t.Kept = float64(n.row.KeptBytes) / float64(n.row.Bytes)
			}
			tiles = append(tiles, t)
			if len(n.kids) > 0 && r.w > 4*mapPad && r.h > mapHeader+2*mapPad {
				jobs = append(jobs, job{n.kids, r.x + mapPad, r.y + mapHeader, r.w - 2*mapPad, r.h - mapHeader - mapPad})
			}
		}
	}
	return tiles
}

type placed struct {
	node       *mapNode
	x, y, w, h float64
}

// squarify places nodes in the rectangle (x, y, w, h) by weight, the
// heaviest first; nodes of weight 0 get no area.
func squarify(nodes []*mapNode, x, y, w, h float64) []placed {
	var sorted []*mapNode
	total := 0.0
	for _, n := range nodes {
		if n.weight > 0 {
			sorted = append(sorted, n)
			total += n.weight
		}
	}
	if total == 0 || w <= 0 || h <= 0 {
		return nil
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].weight > sorted[j].weight })
	scale := w * h / total // area per unit of weight
	var out []placed
	for len(sorted) > 0 {
		side := min(w, h)
		// Grow the row while its worst aspect ratio improves.
		n, sum := 1, sorted[0].weight*scale
		for n < len(sorted) {
			next := sum + sorted[n].weight*scale
			if worst(sorted[:n+1], next, side, scale) > worst(sorted[:n], sum, side, scale) {
				break
			}
			n, sum = n+1, next
		}
		thick := sum / side // the row's thickness across the short side
		off := 0.0
		for _, m := range sorted[:n] {
			length := m.weight * scale / thick
			if w >= h { // a column at the left
				out = append(out, placed{m, x, y + off, thick, length})
			} else { // a row at the top
				out = append(out, placed{m, x + off, y, length, thick})
			}
			off += length
		}
		if w >= h {
			x, w = x+thick, w-thick
		} else {
			y, h = y+thick, h-thick
		}
		sorted = sorted[n:]
	}
	return out
}

// worst is the largest aspect ratio of a row of nodes of total area sum
// laid along side.
func worst(row []*mapNode, sum, side, scale float64) float64 {
	maxA, minA := 0.0, row[0].weight*scale
	for _, n := range row {
		a := n.weight * scale
		maxA, minA = max(maxA, a), min(minA, a)
	}
	s2, sum2 := side*side, sum*sum
	return max(s2*maxA/sum2, sum2/(s2*minA))
}
