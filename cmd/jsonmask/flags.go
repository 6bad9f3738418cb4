package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/jsonmask/jsonmask"
)

// maskFlags are the flags that choose a mask and its options (SPEC L1): every
// subcommand that masks registers them, so that they mean the same everywhere.
type maskFlags struct {
	text, file     string
	fields         string // a text mask (SPEC T1)
	wildcards      bool   // "*" in a JSON mask is the wildcard (T2)
	print          bool   // -print-mask: print the mask as JSON, mask nothing (T4)
	arrays         bool
	dropMismatched bool
	strict         bool
	trusted        bool
	ndjson         bool
	maxDepth       int
	maxInput       int64
	maxToken       int
	buffer         int
	stream         bool // -ndjson and -buffer are registered
}

// The groups of mask flags that register adds to a command's flag set.
type flagGroup int

const (
	maskOnly      flagGroup = iota // the mask and its options
	withStreaming                  // and -ndjson and -buffer, for a command that streams a whole input
)

// register adds the mask flags of group to fs.
func (f *maskFlags) register(fs *flag.FlagSet, group flagGroup) {
	fs.StringVar(&f.text, "mask", "", "the mask, as JSON `text`")
	fs.StringVar(&f.file, "mask-file", "", "read the mask from `FILE`")
	fs.StringVar(&f.fields, "fields", "", "the mask in the text syntax, such as 'id,items(id,price),owner/name' (SPEC T1)")
	fs.BoolVar(&f.wildcards, "wildcards", false, `read the key "*" of a JSON mask as every other key (SPEC T2; always so in -fields)`)
	fs.BoolVar(&f.print, "print-mask", false, "print the mask as JSON, and mask nothing (SPEC T4)")
	fs.BoolVar(&f.arrays, "arrays", false, "mask bodies whose root is an array too (SPEC B4)")
	fs.BoolVar(&f.dropMismatched, "drop-mismatched", false, "drop scalars where the mask expects an object (SPEC A6)")
	fs.BoolVar(&f.strict, "strict", false, "reject bodies that would pass through unmasked (SPEC B5)")
	fs.BoolVar(&f.trusted, "trusted", false, "skip dropped values checking only quoting and nesting (SPEC V4)")
	fs.IntVar(&f.maxDepth, "max-depth", jsonmask.DefaultMaxDepth, "reject documents nested deeper than `N` (SPEC V2)")
	fs.Int64Var(&f.maxInput, "max-input", 0, "reject an input longer than `BYTES` (0: no limit)")
	fs.IntVar(&f.maxToken, "max-token", 0, "reject a string or number longer than `BYTES` (0: no limit)")
	if f.stream = group == withStreaming; f.stream {
		fs.BoolVar(&f.ndjson, "ndjson", false, "newline-delimited JSON: mask each line on its own (SPEC S3)")
		fs.IntVar(&f.buffer, "buffer", jsonmask.DefaultBufferSize, "read and mask `BYTES` at a time")
	}
}

// options checks the flags' values, in the CLI's words, and returns them as
// library options.
func (f *maskFlags) options() ([]jsonmask.Option, error) {
	switch {
	case f.maxDepth < 1:
		return nil, fmt.Errorf("-max-depth must be at least 1, got %d", f.maxDepth)
	case f.maxInput < 0:
		return nil, fmt.Errorf("-max-input must be at least 0, got %d", f.maxInput)
	case f.maxToken < 0:
		return nil, fmt.Errorf("-max-token must be at least 0, got %d", f.maxToken)
	case f.stream && f.buffer < 1:
		return nil, fmt.Errorf("-buffer must be at least 1, got %d", f.buffer)
	}
	opts := []jsonmask.Option{
		jsonmask.WithArrays(f.arrays), jsonmask.WithDropMismatched(f.dropMismatched),
		jsonmask.WithStrict(f.strict), jsonmask.WithTrustedInput(f.trusted),
		jsonmask.WithMaxDepth(f.maxDepth), jsonmask.WithMaxInputSize(f.maxInput),
		jsonmask.WithMaxTokenSize(f.maxToken), jsonmask.WithNDJSON(f.ndjson),
		jsonmask.WithWildcards(f.wildcards),
	}
	if f.stream {
		opts = append(opts, jsonmask.WithBufferSize(f.buffer))
	}
	return opts, nil
}

// compile reads and compiles the mask. Every error is a usage error (exit 2).
func (f *maskFlags) compile() (*jsonmask.Mask, error) {
	opts, err := f.options()
	if err != nil {
		return nil, err
	}
	var src []byte
	switch {
	case countGiven(f.text, f.file, f.fields) > 1:
		return nil, errors.New("give one of -mask, -mask-file and -fields")
	case f.fields != "":
		m, err := jsonmask.CompileFields(f.fields, opts...)
		if err != nil {
			return nil, err // it names the fields mask
		}
		return m, nil
	case f.text != "":
		src = []byte(f.text)
	case f.file != "":
		if src, err = os.ReadFile(f.file); err != nil {
			return nil, &located{"-mask-file", err}
		}
	default:
		return nil, errors.New("a mask is required: -mask JSON, -mask-file FILE or -fields TEXT")
	}
	return jsonmask.Compile(src, opts...)
}

// given reports whether a mask flag was given.
func (f *maskFlags) given() bool { return f.text != "" || f.file != "" || f.fields != "" }

// printMask does what -print-mask asks, if it was given: it prints m as the
// JSON mask that compiles to it, on one line, and returns true with the exit
// status; the caller then masks nothing.
func (f *maskFlags) printMask(stdout, stderr io.Writer, cmd string, m *jsonmask.Mask) (int, bool) {
	if !f.print {
		return 0, false
	}
	b, err := m.MarshalJSON()
	if err != nil {
		return usageError(stderr, cmd, err), true // it says that the mask has no JSON form
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0, true
}

// countGiven returns how many of the flags' values are not empty.
func countGiven(values ...string) int {
	n := 0
	for _, v := range values {
		if v != "" {
			n++
		}
	}
	return n
}

// parseArgs parses flags wherever they stand among the operands (SPEC L1):
// before, between or after the files, up to a "--" after which every
// argument is a file. "-" alone is standard input, an operand.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(operands, rest...), nil
		}
		if len(rest) == 0 {
			return operands, nil
		}
		operands, args = append(operands, rest[0]), rest[1:]
	}
}

// parseCommand parses a command's arguments with parseArgs and answers
// what ends the command at once: -h prints the usage (exit 0), a bad flag is
// a usage error (exit 2, SPEC L3). done says that the command is over, with
// status.
func parseCommand(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (operands []string, status int, done bool) {
	operands, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout, fs, usage)
		return nil, 0, true
	case err != nil:
		return nil, usageError(stderr, fs.Name(), err), true
	}
	return operands, 0, false
}

// newFlagSet returns a flag set that reports nothing itself: usage errors
// are reported on one line by usageError, and -h by the caller.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// usageError reports a usage error on one line and says where help is, and
// returns the exit status for it (SPEC L3), "jsonmask: " said once (errorLine).
func usageError(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "%s\nrun '%s -h' for usage\n", errorLine("", err), cmd)
	return 2
}

// inputFailed reports an input that could not be read or was rejected, and
// returns the exit status for it (SPEC L3).
func inputFailed(stderr io.Writer, name string, err error) int {
	fmt.Fprintln(stderr, errorLine(displayName(name), err))
	return 1
}

// writeStatus reports err, an error in writing the output, if there is
// one, and returns the exit status.
func writeStatus(stderr io.Writer, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, errorLine("write", err))
		return 1
	}
	return 0
}

// printUsage writes a command's usage and its flags to w.
func printUsage(w io.Writer, fs *flag.FlagSet, usage string) {
	fs.SetOutput(w)
	fmt.Fprint(w, usage)
	fmt.Fprintln(w, "\nflags:")
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// displayName is how messages name an input.
func displayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}
