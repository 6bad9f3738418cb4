// Command jsonmask masks JSON documents with a response_mask: it keeps the
// fields the mask names and drops the rest, streaming, in flat memory.
//
// Usage:
//
//	jsonmask [flags] [FILE ...]
//	jsonmask demo
//	jsonmask context [flags] [FILE]
//	jsonmask query [flags] NAME PROGRAM
//	jsonmask explain [mask flags] [-json] [FILE]
//	jsonmask paths [mask flags] [-json | -html] [FILE]
//	jsonmask studio [-mask JSON | -fields TEXT] [-listen ADDR] FILE...
//
// Each FILE (standard input when there is none, or "-") is masked and written
// to standard output, each document ended by one newline (SPEC section 7).
// Flags may stand before or after the files; "--" ends them. The exit status
// is 0 when every input was masked, 1 when an input was rejected or could not
// be read, and 2 for a usage or mask error.
//
// "jsonmask demo" masks an embedded sample document and shows what the mask
// saves. "jsonmask explain" tells what a mask did to a document, entry by
// entry, and where it left objects empty; "jsonmask paths" lists where a
// document's bytes are, and which of them a mask keeps. "jsonmask -h" lists
// the flags and the subcommands.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/jsonmask/jsonmask"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// A command is a subcommand's whole program: its arguments after its name,
// its streams, and the exit status it returns.
type command func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// commands are the subcommands (SPEC L4), by name.
var commands = map[string]command{
	"demo":    runDemo,
	"context": runContext,
	"query":   runQuery,
	"explain": runExplain,
	"paths":   runPaths,
	"serve":   runServe,
	"mcp":     runMCP,
	"studio":  runStudio,
}

const usage = `usage: jsonmask [flags] [FILE ...]
       jsonmask demo
       jsonmask context [flags] [FILE]
       jsonmask query [-store URL] [-budget N] [-pointer P] NAME PROGRAM
       jsonmask explain [mask flags] [-json] [FILE]
       jsonmask paths [mask flags] [-json | -html] [FILE]
       jsonmask serve -config FILE
       jsonmask mcp [-config FILE] -- COMMAND [ARG ...]
       jsonmask studio [-mask JSON | -fields TEXT] [-listen ADDR] FILE...

Masks each FILE (standard input when none, or "-") with the mask and writes
the result to standard output, each document ended by one newline. Flags may
come before or after the files; "--" ends them.

exit status: 0 every input masked, 1 an input rejected or unreadable, 2 usage.
`

// run is the whole command, with its streams as arguments so that tests can
// drive it; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if cmd, ok := commands[args[0]]; ok {
			return cmd(args[1:], stdin, stdout, stderr)
		}
	}
	return runMask(args, stdin, stdout, stderr)
}

// runMask is the main command: mask every input to standard output.
func runMask(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask")
	var (
		mf         maskFlags
		unbuffered = fs.Bool("unbuffered", false, "write each document, or NDJSON line, as soon as it is masked")
		version    = fs.Bool("version", false, "print the version and exit")
	)
	mf.register(fs, withStreaming)
	files, status, done := parseCommand(fs, args, usage, stdout, stderr)
	switch {
	case done:
		return status
	case *version:
		fmt.Fprintln(stdout, "jsonmask", moduleVersion())
		return 0
	}
	m, err := mf.compile()
	if err != nil {
		return usageError(stderr, "jsonmask", err)
	}
	if status, done := mf.printMask(stdout, stderr, "jsonmask", m); done {
		return status
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := &docWriter{}
	if *unbuffered {
		out.w = stdout
	} else {
		buf := bufio.NewWriterSize(stdout, 64<<10)
		out.w, out.flush = buf, buf.Flush
	}
	status = 0
	for _, name := range files {
		if err := maskInput(m, out, name, stdin); err != nil {
			status = inputFailed(stderr, name, err)
		}
		if out.err != nil {
			break
		}
	}
	if err := out.Flush(); err != nil && out.err == nil {
		out.err = err
	}
	if out.err != nil {
		return writeStatus(stderr, out.err)
	}
	return status
}

// maskInput streams one input through the mask to out, and ends what it
// wrote at a line start (SPEC L2): one newline is added unless the output
// already ends with one, also after a rejection, so that the next input
// starts a line; an empty output gets none. An error of out is left in
// out.err, not returned: it is not the input's fault.
func maskInput(m *jsonmask.Mask, out *docWriter, name string, stdin io.Reader) error {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	out.start()
	_, err := m.Copy(out, in)
	if out.err != nil {
		return nil
	}
	out.endLine()
	if err != nil && out.err == nil {
		out.err = out.Flush() // what was masked goes out before the error is told
	}
	return err
}

// docWriter is standard output as the command writes it: it remembers the
// last byte of the current input's output, so that each ends with exactly
// one newline, and the first write error, after which it writes nothing.
type docWriter struct {
	w     io.Writer
	flush func() error // nil when w is not buffered (-unbuffered)
	n     int64        // bytes written for the current input
	last  byte
	err   error
}

func (d *docWriter) start() { d.n, d.last = 0, 0 }

func (d *docWriter) Write(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.w.Write(p)
	if n > 0 {
		d.n += int64(n)
		d.last = p[n-1]
	}
	if err != nil {
		d.err = err
	}
	return n, err
}

// endLine adds the newline that ends the current input's output, unless it
// is empty or already ends with one.
func (d *docWriter) endLine() {
	if d.n > 0 && d.last != '\n' {
		d.Write([]byte{'\n'})
	}
}

// Flush writes what is buffered.
func (d *docWriter) Flush() error {
	if d.flush == nil || d.err != nil {
		return d.err
	}
	return d.flush()
}

// moduleVersion is the version the binary was built from, as the Go
// toolchain recorded it.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v + " " + info.GoVersion
}
