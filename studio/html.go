package studio

import (
	_ "embed"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask"
)

//go:embed assets/paths.html.tmpl
var pathsTemplate string

var pathsPage = template.Must(template.New("paths").Funcs(template.FuncMap{
	"pct":  func(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" },
	"num":  func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
	"join": strings.Join,
	"show": func(p string) string {
		if p == "" {
			return "(root)"
		}
		return p
	},
	"label": func(t tile) bool { return t.W > 40 && t.H > 13 },
	"mul":   func(a, b float64) float64 { return a * b },
	"add":   func(a, b float64) float64 { return a + b },
}).Parse(pathsTemplate))

// WriteHTML writes the paths of a document (Mask.Paths), as `jsonmask paths
// -html` shows them (SPEC W6): one static HTML file, with no script and
// nothing fetched, holding the treemap of the bytes (kept and dropped
// apart when withMask) and the table. The title names the document.
func WriteHTML(w io.Writer, title string, stats []jsonmask.PathStats, withMask bool) error {
	var rows []*row
	for _, st := range stats {
		r := &row{Path: st.Path, Count: st.Count, Types: st.Types, Bytes: st.Bytes, Share: st.Share,
			Mask: st.Mask, KeptBytes: st.KeptBytes}
		if !withMask {
			r.Mask = "kept"
		}
		if keys := splitPointer(st.Path); len(keys) > 0 {
			r.Depth, r.Name = len(keys), keys[len(keys)-1]
			r.Parent = st.Path[:strings.LastIndexByte(st.Path, '/')]
		}
		rows = append(rows, r)
	}
	var top []*row
	for _, r := range treeOrder(rows) {
		if r.Path != "" {
			top = append(top, r)
		}
	}
	return pathsPage.Execute(w, struct {
		Title    string
		Stats    []jsonmask.PathStats
		WithMask bool
		Tiles    []tile
		Width    int
		Height   int
	}{title, stats, withMask, layoutTreemap(mapTree(top, false)), mapWidth, mapHeight})
}
