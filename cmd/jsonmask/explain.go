package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

const explainUsage = `usage: jsonmask explain [mask flags] [-json] [FILE]

Masks FILE (standard input when none, or "-") and tells what the mask did to
it (SPEC D1): for every entry of the mask, how many members it matched, how
many objects lacked it, and how many scalars its nested mask met (kept as
they are, or dropped with -drop-mismatched); every place where an object that
had members became {}, which a mask should not do to the objects it keeps;
and the bytes in and out; with -tokens, the tokens in and out too, counted
exactly with the model layer's tokenizer (-encoding). The input is read whole
into memory.

exit status: 0 explained, 1 the input rejected or unreadable, 2 usage.
`

// runExplain is the explain subcommand.
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask explain")
	var mf maskFlags
	mf.register(fs, withStreaming)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	withTokens := fs.Bool("tokens", false, "count the tokens in and out, as a model would")
	encoding := fs.String("encoding", toolresult.DefaultEncoding, "the tokenizer for -tokens: o200k_base or cl100k_base")
	d := diagnosticArgs(fs, &mf, args, "jsonmask explain", explainUsage, stdout, stderr, false)
	if d.done {
		return d.status
	}
	doc, err := readInput(d.name, stdin, &mf)
	var x *jsonmask.Explanation
	if err == nil {
		x, err = d.m.Explain(doc)
	}
	if err != nil {
		return inputFailed(stderr, d.name, err)
	}
	var tc *tokenCounts
	if *withTokens {
		if tc, err = countTokens(d.m, doc, *encoding); err != nil {
			return usageError(stderr, "jsonmask explain", err)
		}
	}
	if *asJSON {
		return writeStatus(stderr, printExplanationJSON(stdout, x, tc))
	}
	return writeStatus(stderr, printExplanation(stdout, x, tc))
}

// diagnosis is what diagnosticArgs makes of the arguments.
type diagnosis struct {
	m      *jsonmask.Mask
	name   string // the input, "-" for standard input
	given  bool   // a mask was given
	status int    // with done: the command is over, with this exit status
	done   bool
}

// diagnosticArgs parses the arguments of explain and paths, compiles the
// mask ("*", keeping everything, when none is given and optional says it may
// be left out) and deals with -h and -print-mask.
func diagnosticArgs(fs *flag.FlagSet, mf *maskFlags, args []string, cmd, usage string, stdout, stderr io.Writer, optional bool) diagnosis {
	operands, status, done := parseCommand(fs, args, usage, stdout, stderr)
	switch {
	case done:
		return diagnosis{status: status, done: true}
	case len(operands) > 1:
		return diagnosis{status: usageError(stderr, cmd, fmt.Errorf("one input at a time, got %d", len(operands))), done: true}
	}
	d := diagnosis{name: "-", given: mf.given()}
	if len(operands) == 1 {
		d.name = operands[0]
	}
	if optional && !d.given {
		mf.fields = "*"
	}
	var err error
	if d.m, err = mf.compile(); err != nil {
		return diagnosis{status: usageError(stderr, cmd, err), done: true}
	}
	if status, done := mf.printMask(stdout, stderr, cmd, d.m); done {
		return diagnosis{status: status, done: true}
	}
	return d
}

// readInput reads the input name ("-": stdin) whole, and no more than one
// byte past -max-input, which the mask then rejects.
func readInput(name string, stdin io.Reader, mf *maskFlags) ([]byte, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	if mf.maxInput > 0 {
		in = io.LimitReader(in, mf.maxInput+1)
	}
	return io.ReadAll(in)
}

// tokenCounts are the tokens of the input and of the output (-tokens).
type tokenCounts struct {
	In       int64  `json:"in"`
	Out      int64  `json:"out"`
	Encoding string `json:"encoding"`
}

// countTokens counts the tokens of doc, which Explain accepted, and of what
// the mask makes of it, exactly (SPEC C1). Only a bad -encoding fails.
func countTokens(m *jsonmask.Mask, doc []byte, encoding string) (*tokenCounts, error) {
	tk, err := toolresult.NewTokenizer(encoding)
	if err != nil {
		return nil, &located{"-encoding", err}
	}
	out, err := m.Append(nil, doc)
	if err != nil {
		return nil, err
	}
	return &tokenCounts{In: int64(tk.Count(doc, -1)), Out: int64(tk.Count(out, -1)), Encoding: encoding}, nil
}

// printExplanation writes x, and the token counts when there are some, as
// a table for people.
func printExplanation(w io.Writer, x *jsonmask.Explanation, tc *tokenCounts) error {
	fmt.Fprintf(w, "bytes: %d in, %d out (%s)\n", x.BytesIn, x.BytesOut, percent(x.BytesOut, x.BytesIn))
	if tc != nil {
		fmt.Fprintf(w, "tokens: %d in, %d out (%s), %s\n", tc.In, tc.Out, percent(tc.Out, tc.In), tc.Encoding)
	}
	if !x.Masked {
		fmt.Fprintln(w, "the input is not a JSON object: it passes through unmasked (SPEC B3)")
	}
	fmt.Fprintln(w)
	var mw, aw, sw int // widths of the number columns
	for _, e := range x.Entries {
		mw, aw, sw = max(mw, digits(e.Matched)), max(aw, digits(e.Absent)), max(sw, digits(e.Scalars))
	}
	mw, aw, sw = max(mw, len("matched")), max(aw, len("absent")), max(sw, len("scalars"))
	fmt.Fprintf(w, "%*s  %*s  %*s  entry\n", mw, "matched", aw, "absent", sw, "scalars")
	for _, e := range x.Entries {
		note := ""
		switch {
		case x.Masked && e.Matched == 0:
			note = "  (never matched)"
		case e.Scalars > 0 && e.Nested:
			note = "  (its nested mask met scalars)"
		}
		fmt.Fprintf(w, "%*d  %*d  %*d  %s%s\n", mw, e.Matched, aw, e.Absent, sw, e.Scalars, displayPath(e.Pointer), note)
	}
	if len(x.Emptied) == 0 {
		_, err := fmt.Fprintln(w, "\nno object that had members became {}")
		return err
	}
	fmt.Fprintln(w, "\nobjects that had members and became {} (keep a field of each, or drop them):")
	cw := len("count")
	for _, e := range x.Emptied {
		cw = max(cw, digits(e.Count))
	}
	fmt.Fprintf(w, "%*s  path\n", cw, "count")
	for _, e := range x.Emptied {
		fmt.Fprintf(w, "%*d  %s\n", cw, e.Count, displayPath(e.Path))
	}
	return nil
}

// digits is the width of n printed in decimal.
func digits(n int64) int { return len(strconv.FormatInt(n, 10)) }

// printExplanationJSON writes x as one JSON object and a newline.
func printExplanationJSON(w io.Writer, x *jsonmask.Explanation, tc *tokenCounts) error {
	type entry struct {
		Entry    string `json:"entry"`
		Wildcard bool   `json:"wildcard,omitempty"`
		Nested   bool   `json:"nested,omitempty"`
		Matched  int64  `json:"matched"`
		Absent   int64  `json:"absent"`
		Scalars  int64  `json:"scalars"`
	}
	type emptied struct {
		Path  string `json:"path"`
		Count int64  `json:"count"`
	}
	type inOut struct {
		In  int64 `json:"in"`
		Out int64 `json:"out"`
	}
	out := struct {
		Masked  bool         `json:"masked"`
		Bytes   inOut        `json:"bytes"`
		Tokens  *tokenCounts `json:"tokens,omitempty"`
		Entries []entry      `json:"entries"`
		Emptied []emptied    `json:"emptied"`
	}{Masked: x.Masked, Bytes: inOut{x.BytesIn, x.BytesOut}, Tokens: tc, Entries: []entry{}, Emptied: []emptied{}}
	for _, e := range x.Entries {
		out.Entries = append(out.Entries, entry{e.Pointer, e.Wildcard, e.Nested, e.Matched, e.Absent, e.Scalars})
	}
	for _, e := range x.Emptied {
		out.Emptied = append(out.Emptied, emptied{e.Path, e.Count})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// displayPath is how a table shows a JSON Pointer: "(root)" for "", quoted
// when it holds what a terminal would not show as it is.
func displayPath(p string) string {
	if p == "" {
		return "(root)"
	}
	if q := strconv.Quote(p); q[1:len(q)-1] != p {
		return q
	}
	return p
}

// percent is part of whole, as a percentage with one decimal.
func percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return share(float64(part) / float64(whole))
}

// share is a fraction as a percentage with one decimal.
func share(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }
