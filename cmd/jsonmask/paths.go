package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/studio"
)

const pathsUsage = `usage: jsonmask paths [mask flags] [-json | -html] [FILE]

Lists every path of FILE (standard input when none, or "-"), array elements
as "*" (SPEC D2): how often it occurs, the types seen, the bytes of its values
as compact JSON and their share of the document, the heaviest first. With a
mask, it also says what the mask does at each path (kept, masked, dropped)
and how many of its bytes are kept: where a mask's author finds the tokens.
With -html it writes one static HTML file instead, a treemap of the bytes
(kept and dropped apart with a mask) and the table (SPEC W6). The input is
read whole into memory.

exit status: 0 listed, 1 the input rejected, unreadable or not JSON, 2 usage.
`

// runPaths is the paths subcommand.
func runPaths(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask paths")
	var mf maskFlags
	mf.register(fs, withStreaming)
	asJSON := fs.Bool("json", false, "print the table as JSON, one array of rows")
	asHTML := fs.Bool("html", false, "write a static HTML page: the treemap of the bytes and the table")
	d := diagnosticArgs(fs, &mf, args, "jsonmask paths", pathsUsage, stdout, stderr, true)
	if d.done {
		return d.status
	}
	if *asJSON && *asHTML {
		return usageError(stderr, "jsonmask paths", errors.New("give one of -json and -html"))
	}
	doc, err := readInput(d.name, stdin, &mf)
	var rows []jsonmask.PathStats
	if err == nil {
		rows, err = d.m.Paths(doc)
	}
	if err != nil {
		return inputFailed(stderr, d.name, err)
	}
	switch {
	case *asJSON:
		return writeStatus(stderr, printPathsJSON(stdout, rows, d.given))
	case *asHTML:
		return writeStatus(stderr, studio.WriteHTML(stdout, displayName(d.name), rows, d.given))
	}
	return writeStatus(stderr, printPaths(stdout, rows, d.given))
}

// printPaths writes rows as a table for people: numbers right-aligned, the
// rest left-aligned.
func printPaths(w io.Writer, rows []jsonmask.PathStats, withMask bool) error {
	bw, cw, kw := len("bytes"), len("count"), len("kept")
	for _, r := range rows {
		bw, cw, kw = max(bw, digits(r.Bytes)), max(cw, digits(r.Count)), max(kw, digits(r.KeptBytes))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if withMask {
		fmt.Fprintf(tw, "%*s\t%6s\t%*s\ttypes\tmask\t%*s\tpath\n", bw, "bytes", "share", cw, "count", kw, "kept")
	} else {
		fmt.Fprintf(tw, "%*s\t%6s\t%*s\ttypes\tpath\n", bw, "bytes", "share", cw, "count")
	}
	for _, r := range rows {
		share, types := share(r.Share), strings.Join(r.Types, ",")
		if withMask {
			fmt.Fprintf(tw, "%*d\t%6s\t%*d\t%s\t%s\t%*d\t%s\n", bw, r.Bytes, share, cw, r.Count, types, r.Mask, kw, r.KeptBytes, displayPath(r.Path))
		} else {
			fmt.Fprintf(tw, "%*d\t%6s\t%*d\t%s\t%s\n", bw, r.Bytes, share, cw, r.Count, types, displayPath(r.Path))
		}
	}
	return tw.Flush()
}

// printPathsJSON writes rows as one JSON array and a newline; without a mask
// its rows have no "mask" and "kept_bytes".
func printPathsJSON(w io.Writer, rows []jsonmask.PathStats, withMask bool) error {
	type row struct {
		Path      string   `json:"path"`
		Count     int64    `json:"count"`
		Types     []string `json:"types"`
		Bytes     int64    `json:"bytes"`
		Share     float64  `json:"share"`
		Mask      string   `json:"mask,omitempty"`
		KeptBytes *int64   `json:"kept_bytes,omitempty"`
	}
	out := make([]row, 0, len(rows))
	for _, r := range rows {
		o := row{Path: r.Path, Count: r.Count, Types: r.Types, Bytes: r.Bytes, Share: r.Share}
		if withMask {
			o.Mask, o.KeptBytes = r.Mask, &r.KeptBytes
		}
		out = append(out, o)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
