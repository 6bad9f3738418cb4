// Command report turns the raw output of the BenchmarkMask run by run.sh into
// REPORT.md, a markdown summary with the medians of every implementation and
// workload, the allocations of jsonmask, and whether the project's
// performance targets are met; and into chart.svg, a bar chart of the
// throughputs. It has no dependencies outside the standard library.
//
// Everything after the line keptMarker in the report it replaces is kept, at
// the end of the new one: sections written by hand or by other scripts, such
// as the measurements of toolresult (context.sh).
//
// Usage, from the bench directory:
//
//	go run ./cmd/report [-in results/latest.txt] [-benchstat results/benchstat.txt] [-out REPORT.md] [-chart chart.svg] [-cmd "command line"] [-unit MB/s|cpu-MB/s|proc-MB/s]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	in := flag.String("in", "results/latest.txt", "raw `file` written by go test -bench")
	statFile := flag.String("benchstat", "results/benchstat.txt", "benchstat output `file` to embed, if it exists")
	out := flag.String("out", "REPORT.md", "markdown report `file` to write")
	chart := flag.String("chart", "chart.svg", "SVG chart `file` to write")
	command := flag.String("cmd", "./run.sh", "the command that produced the results, for the report")
	flag.StringVar(&throughputUnit, "unit", throughputUnit, "throughput `unit` of the medians: MB/s (wall time), cpu-MB/s (the benchmark thread's CPU time) or proc-MB/s (the process's CPU time, all threads)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("report: ")

	f, err := os.Open(*in)
	if err != nil {
		log.Fatal(err)
	}
	res, err := parse(f)
	f.Close()
	if err != nil {
		log.Fatalf("%s: %v", *in, err)
	}
	if len(res.runs) == 0 {
		log.Fatalf("%s: no BenchmarkMask results", *in)
	}

	m := meta{goVersion: goVersion(), command: *command, chart: relTo(*out, *chart)}
	// The date of the results, not of the report, which may be rebuilt later.
	if st, err := os.Stat(*in); err == nil {
		m.date = st.ModTime().UTC().Format("2006-01-02 15:04 MST")
	}
	switch stat, err := os.ReadFile(*statFile); {
	case err == nil:
		m.benchstat = string(stat)
	case !errors.Is(err, fs.ErrNotExist):
		log.Fatal(err)
	}

	if err := os.WriteFile(*chart, chartSVG(res), 0o644); err != nil {
		log.Fatal(err)
	}
	// Sections after the marker in the report as it is (hand-written, or
	// written by other scripts) are kept.
	old, err := os.ReadFile(*out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, keepTail(markdown(res, m), old), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s and %s (%d workloads, %d implementations)\n", *out, *chart, len(res.workloads), len(res.impls))
}

// goVersion returns what `go version` prints, which names the toolchain that
// go test used; if the go command cannot be run it falls back to the version
// this program was built with, which go run makes the same one.
func goVersion() string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := exec.CommandContext(ctx, "go", "version").Output()
	if err != nil {
		return fmt.Sprintf("go version %s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	return strings.TrimSpace(string(b))
}

// relTo returns target's path relative to the directory of from, for a link
// from one file to the other.
func relTo(from, target string) string {
	rel, err := filepath.Rel(filepath.Dir(from), target)
	if err != nil {
		return target
	}
	return filepath.ToSlash(rel)
}
