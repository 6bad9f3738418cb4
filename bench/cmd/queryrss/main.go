// Command queryrss measures a jq query over a large stored variable (SPEC
// C13): its wall time and the process's peak resident set (VmHWM of
// /proc/self/status), for toolresult.Query against encoding/json and gojq on
// the same bytes. Run each measure as its own process, from the bench
// directory:
//
//	go run ./cmd/queryrss -make DIR [-size BYTES]         # writes DIR/expenses.json once
//	go run ./cmd/queryrss -dir DIR -impl jsonmask|stdlib [-pointer P] PROGRAM
//
// The variable is {"data": [expense, ...], "count": N}, each expense an
// object of six members (id, date, category, amount, merchant, note). It is
// stored under a name of its own (expenses), not one made from its hash, so
// that Query does not check its content first: that check is a pass of
// SHA-256 over the file the first time a process opens a content-named
// variable.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/itchyny/gojq"

	"github.com/jsonmask/jsonmask/toolresult"
)

func main() {
	makeDir := flag.String("make", "", "write the variable into `DIR` and exit")
	size := flag.Int64("size", 100<<20, "the variable's size in `bytes`, with -make")
	dir := flag.String("dir", "", "the store's `directory`")
	impl := flag.String("impl", "jsonmask", "jsonmask (toolresult.Query) or stdlib (os.ReadFile, encoding/json, gojq)")
	pointer := flag.String("pointer", "", "run the program over the value at this JSON `Pointer` (jsonmask only)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("queryrss: ")
	if *makeDir != "" {
		if err := write(*makeDir, *size); err != nil {
			log.Fatal(err)
		}
		return
	}
	if flag.NArg() != 1 || *dir == "" {
		log.Fatal("want -dir DIR and a PROGRAM")
	}
	prog := flag.Arg(0)
	start := time.Now()
	var out string
	switch *impl {
	case "jsonmask":
		st, err := toolresult.NewDirStore(*dir)
		if err != nil {
			log.Fatal(err)
		}
		p, err := toolresult.New(toolresult.WithStore(st), toolresult.WithQueryLimits(toolresult.QueryLimits{Time: time.Minute}))
		if err != nil {
			log.Fatal(err)
		}
		res, err := p.Query(context.Background(), toolresult.Query{Name: "expenses", Program: prog, Pointer: *pointer})
		if err != nil {
			log.Fatal(err)
		}
		out = res.Text
	case "stdlib":
		b, err := os.ReadFile(filepath.Join(*dir, "expenses.json"))
		if err != nil {
			log.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			log.Fatal(err)
		}
		b = nil
		q, err := gojq.Parse(prog)
		if err != nil {
			log.Fatal(err)
		}
		code, err := gojq.Compile(q)
		if err != nil {
			log.Fatal(err)
		}
		var outs []string
		iter := code.Run(v)
		for {
			o, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := o.(error); ok {
				log.Fatal(err)
			}
			j, _ := gojq.Marshal(o)
			outs = append(outs, string(j))
		}
		out = strings.Join(outs, "\n")
	default:
		log.Fatalf("unknown -impl %q", *impl)
	}
	took := time.Since(start)
	if len(out) > 200 {
		out = out[:200] + "…"
	}
	fmt.Printf("impl=%s pointer=%q program=%q wall=%.3fs peak_rss=%dMiB gomaxprocs=%d out=%s\n",
		*impl, *pointer, prog, took.Seconds(), peakRSS()>>20, runtime.GOMAXPROCS(0), out)
}

// write makes DIR/expenses.json of about size bytes.
func write(dir string, size int64) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "expenses.json"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	cats := []string{"travel", "meals", "software", "office", "hardware", "training", "rent", "legal"}
	n := int64(0)
	w.WriteString(`{"data":[`)
	i := 0
	for ; n < size-200; i++ {
		if i > 0 {
			w.WriteByte(',')
		}
		k, _ := fmt.Fprintf(w, `{"id":"exp-%08d","date":"2026-%02d-%02d","category":%q,"amount":%d.%02d,"merchant":"merchant %d","note":"expense %d of the generated list, with a few words"}`,
			i, i%12+1, i%28+1, cats[(i*i+3*i)%len(cats)], (i*7919)%900+5, (i*31)%100, i%97, i)
		n += int64(k) + 1
	}
	fmt.Fprintf(w, `],"count":%d}`, i)
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// peakRSS is VmHWM, in bytes.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "VmHWM:"), "kB")), &kb)
			return kb << 10
		}
	}
	return 0
}
