package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"

	"github.com/jsonmask/jsonmask"
)

// The demo's document is one flow from the benchmark corpus: 75 keys, members
// and blocks; the mask is the one from the conformance seed cases.
var (
	//go:embed demo/flow.json
	demoDoc []byte
	//go:embed demo/mask.json
	demoMask []byte
)

const demoUsage = `usage: jsonmask demo

Masks an embedded sample document (one flow of 75 top-level keys) with the
mask of the conformance seed cases, and shows the sizes before and after.
`

// runDemo is the demo subcommand.
func runDemo(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask demo")
	operands, status, done := parseCommand(fs, args, demoUsage, stdout, stderr)
	switch {
	case done:
		return status
	case len(operands) > 0:
		return usageError(stderr, "jsonmask demo", fmt.Errorf("demo takes no arguments, got %q", operands[0]))
	}
	if err := demo(stdout); err != nil {
		fmt.Fprintln(stderr, errorLine("", err))
		return 1
	}
	return 0
}

// demo masks the embedded document with the embedded mask and shows the mask,
// the sizes before and after, and the output.
func demo(w io.Writer) error {
	m, err := jsonmask.Compile(demoMask)
	if err != nil {
		return err
	}
	out, err := m.Append(nil, demoDoc)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "mask:\n%s\n", demoMask)
	fmt.Fprintf(w, "document: %d bytes, %d top-level keys (cmd/jsonmask/demo/flow.json)\n", len(demoDoc), topLevelKeys(demoDoc))
	fmt.Fprintf(w, "masked:   %d bytes, %.1f%% of the original\n\n", len(out), 100*float64(len(out))/float64(len(demoDoc)))
	fmt.Fprintf(w, "%s\n", out)
	return nil
}

// topLevelKeys counts the root object's members.
func topLevelKeys(doc []byte) int {
	var members map[string]json.RawMessage
	if json.Unmarshal(doc, &members) != nil {
		return 0
	}
	return len(members)
}
