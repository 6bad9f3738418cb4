package errs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestErrors(t *testing.T) {
	_, statErr := os.Stat("/no/such/file")
	wrapped := Errorf("store %s: %w", "/x", statErr)
	for _, c := range []struct {
		name            string
		err             error
		message, detail string
	}{
		{"New", New("budget must be at least 0"), "jsonmask: budget must be at least 0", "budget must be at least 0"},
		{"Errorf", Errorf("store %s: not a directory", "/x"), "jsonmask: store /x: not a directory", "store /x: not a directory"},
		{"Wraps", wrapped, "jsonmask: store /x: " + statErr.Error(), "store /x: " + statErr.Error()},
		{"Outside", statErr, statErr.Error(), statErr.Error()},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.err.Error(); got != c.message {
				t.Errorf("Error() = %q, want %q", got, c.message)
			}
			if got := Detail(c.err); got != c.detail {
				t.Errorf("Detail = %q, want %q", got, c.detail)
			}
		})
	}
	if !errors.Is(wrapped, fs.ErrNotExist) {
		t.Error("errors.Is does not see through Errorf's %w")
	}
	var pe *fs.PathError
	if !errors.As(wrapped, &pe) {
		t.Error("errors.As does not see through Errorf's %w")
	}
}

// TestUnwrap: what Errorf wrapped is what errors.Unwrap returns, as for
// fmt.Errorf, so that a layer can name the fault inside.
func TestUnwrap(t *testing.T) {
	inner := errors.New("route 0 has no mask")
	if got := errors.Unwrap(Errorf("gateway: %w", inner)); got != inner {
		t.Errorf("Unwrap = %v, want the wrapped error", got)
	}
	if got := errors.Unwrap(New("no wrap")); got != nil {
		t.Errorf("Unwrap of New = %v, want nil", got)
	}
}

// TestOneHome: the module's packages make their errors here (or as typed
// errors with a Detail), never with a "jsonmask: " of their own, so that
// no layer has to cut a prefix off to say where an error happened. The CLI
// (cmd/), which writes lines, and the contrib modules, which may not import
// internal/, are outside the rule.
func TestOneHome(t *testing.T) {
	own := regexp.MustCompile("(errors\\.New|fmt\\.Errorf)\\([\"`]jsonmask: |return [\"`]jsonmask: ")
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "cmd", "contrib", "bench", "testdata", filepath.Join("internal", "errs"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if own.MatchString(line) {
				t.Errorf("%s:%d: an error with its own \"jsonmask: \" (use internal/errs): %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
