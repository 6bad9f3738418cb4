// Command jsonmask masks JSON documents with a response_mask: it keeps the
// fields the mask names and drops the rest, streaming, in flat memory.
//
// Usage:
//
//	jsonmask [-mask JSON | -mask-file FILE] [-arrays] [-drop-mismatched] [-trusted] [-max-depth N] [-ndjson] [FILE ...]
//	jsonmask demo
//
// Each FILE (standard input when there is none) is masked and written to
// standard output followed by one newline (with -ndjson, every line already
// ends with one). The exit status is 0 when every input was masked, 1 when an
// input was rejected or could not be read, and 2 for a usage or mask error.
//
// "jsonmask demo" masks an embedded sample document and shows what the mask
// saves.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jsonmask/jsonmask"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: jsonmask [-mask JSON | -mask-file FILE] [-arrays] [-drop-mismatched] [-trusted] [-max-depth N] [-ndjson] [FILE ...]
       jsonmask demo

Masks each FILE (standard input when none) with the mask and writes the result
to standard output, each followed by one newline.
`

// run is the whole command, with its streams as arguments so that tests can
// drive it; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo" {
		if len(args) > 1 {
			fmt.Fprint(stderr, usage)
			return 2
		}
		if err := demo(stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}

	fs := flag.NewFlagSet("jsonmask", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	var (
		maskText       = fs.String("mask", "", "the mask, as JSON text")
		maskFile       = fs.String("mask-file", "", "read the mask from `FILE`")
		arrays         = fs.Bool("arrays", false, "mask bodies whose root is an array too (SPEC B4)")
		dropMismatched = fs.Bool("drop-mismatched", false, "drop scalars where the mask expects an object (SPEC A6)")
		trusted        = fs.Bool("trusted", false, "skip dropped values checking only quoting and nesting (SPEC V4)")
		maxDepth       = fs.Int("max-depth", jsonmask.DefaultMaxDepth, "reject documents nested deeper than `N` (SPEC V2)")
		ndjson         = fs.Bool("ndjson", false, "treat the input as newline-delimited JSON: one document per line (SPEC S3)")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	maskJSON, err := readMask(*maskText, *maskFile)
	if err != nil {
		fmt.Fprintln(stderr, "jsonmask:", err)
		fs.Usage()
		return 2
	}
	m, err := jsonmask.Compile(maskJSON,
		jsonmask.WithArrays(*arrays), jsonmask.WithDropMismatched(*dropMismatched),
		jsonmask.WithTrustedInput(*trusted), jsonmask.WithMaxDepth(*maxDepth), jsonmask.WithNDJSON(*ndjson))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}

	out := bufio.NewWriterSize(stdout, 64<<10)
	status := 0
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if err := maskFile1(m, out, name, stdin, *ndjson); err != nil {
			fmt.Fprintf(stderr, "jsonmask: %s: %s\n", displayName(name), strings.TrimPrefix(err.Error(), "jsonmask: "))
			status = 1
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintln(stderr, "jsonmask:", err)
		return 1
	}
	return status
}

// readMask returns the mask from -mask or -mask-file, exactly one of which
// must be given.
func readMask(text, file string) ([]byte, error) {
	switch {
	case text != "" && file != "":
		return nil, errors.New("give -mask or -mask-file, not both")
	case text != "":
		return []byte(text), nil
	case file != "":
		return os.ReadFile(file)
	}
	return nil, errors.New("a mask is required: -mask JSON or -mask-file FILE")
}

// maskFile1 streams one input through the mask to out. A document ends with
// one newline, an NDJSON stream's lines already do; an input rejected after
// some output still gets its newline, so that the next one starts a line.
func maskFile1(m *jsonmask.Mask, out *bufio.Writer, name string, stdin io.Reader, ndjson bool) error {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	n, err := m.Copy(out, in)
	if !ndjson && (err == nil || n > 0) {
		out.WriteByte('\n')
	}
	if err == nil {
		err = out.Flush()
	}
	return err
}

func displayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}
