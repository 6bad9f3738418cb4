package archtest

import (
	"bytes"
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/jsonmask/jsonmask"

// arrows are DESIGN.md's arrows, package by package (paths below the
// module; "." is the root package): what each may import of this module,
// in its non-test files. Packages that do not exist yet (config, studio,
// toolresult/blobstore) are here as DESIGN.md places them, so that the test
// passes once they land. Every package may import internal/jsonwire and
// internal/errs.
var arrows = map[string][]string{
	"tokenizer":            {},            // the leaf
	"internal/jsonwire":    {},            // below the leaf: imports nothing of ours
	"internal/errs":        {},            // the module's errors: imports nothing of ours
	"compile":              {"tokenizer"}, // one JSON reader in the whole project
	"stream":               {"tokenizer", "compile"},
	"fallback":             {"compile", "tokenizer"},
	".":                    {"stream", "compile", "fallback", "tokenizer"},
	"schema":               {"tokenizer"},
	"gateway":              {"."},
	"toolresult":           {".", "schema", "tokenizer"},
	"toolresult/blobstore": {"toolresult"},
	// mcpproxy imports toolresult, and what it reads messages with.
	"mcpproxy": {"toolresult", ".", "schema", "tokenizer"},
	// config holds the config files of serve, the Envoy server, Caddy's
	// JSON and mcp: the gateway's routes, and mcp's.
	"config": {"gateway", ".", "toolresult", "mcpproxy"},
	// studio: the root, and toolresult's token counting.
	"studio":       {".", "toolresult", "tokenizer"},
	"cmd/jsonmask": {"*"}, // what it serves: any package but the tests' helpers
	// internal/: the reference maskers and test helpers.
	"internal/reference": {"compile", "fallback", "tokenizer"},
	"internal/reportlog": {"gateway"},
	"internal/s3test":    {}, // starts the S3-compatible server the store tests use
	"internal/archtest":  {},
	// Test helpers that the contrib modules use too, so public: the corpus,
	// and the codings the gateway serves, coded as an upstream would.
	"corpus":             {},
	"gateway/codingtest": {},
	"fuzz":               {}, // test files only
}

// testOnly are the packages only tests may import.
var testOnly = []string{"internal/reference", "corpus", "gateway/codingtest", "internal/s3test"}

// otherModules are the modules that import this one through a replace:
// they may import its public packages, not internal/ ones. outsiders are
// the imports of internal/ that are allowed all the same (none today): a
// new one fails the test; one that is gone is logged, to be taken out of
// the list.
var (
	otherModules = []string{"contrib/caddy", "contrib/extproc", "bench"}
	outsiders    = map[string]bool{}
)

// pkg is what the test reads of `go list -json`.
type pkg struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
	Error                              *struct{ Err string }
}

// list runs go list -e -json ./... in dir, below the module's root.
func list(t *testing.T, dir string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	var pkgs []pkg
	for d := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pkg
		if err := d.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list in %s: %v", dir, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// rel returns path below the module, "." for its root, and false for a
// path outside it.
func rel(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// TestArrows: every import of one of this module's packages by another is
// an arrow of DESIGN.md, and every package has a place in the house.
func TestArrows(t *testing.T) {
	for _, p := range list(t, ".") {
		from, _ := rel(p.ImportPath)
		if p.Error != nil {
			t.Errorf("%s: %s", from, p.Error.Err)
		}
		allowed, placed := arrows[from]
		if !placed {
			t.Errorf("package %s is not in DESIGN.md's house (add it there, and to arrows here)", from)
			continue
		}
		for _, imp := range p.Imports {
			to, ours := rel(imp)
			switch {
			case !ours || to == "internal/jsonwire" || to == "internal/errs":
			case slices.Contains(testOnly, to):
				t.Errorf("%s imports %s, which only tests may import", from, to)
			case slices.Contains(allowed, "*") || slices.Contains(allowed, to):
			default:
				t.Errorf("%s imports %s: not an arrow of DESIGN.md (allowed: %s)", from, to, strings.Join(allowed, ", "))
			}
		}
	}
}

// TestOtherModules: the contrib modules and bench import this module's
// public packages, not its internal ones (DESIGN.md), but for the imports
// listed in outsiders. It reads their import lines with go/parser, not go
// list: go list would load (and on a clean machine download) their
// dependencies, Caddy's and Envoy's among them.
func TestOtherModules(t *testing.T) {
	seen := map[string]bool{}
	for _, mod := range otherModules {
		root := filepath.Join("..", "..", mod)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			dir, _ := filepath.Rel(filepath.Join("..", ".."), filepath.Dir(path))
			from := filepath.ToSlash(dir)
			if strings.HasSuffix(path, "_test.go") {
				from += " (test)"
			}
			for _, spec := range f.Imports {
				imp, _ := strconv.Unquote(spec.Path.Value)
				to, ours := rel(imp)
				if !ours || !strings.HasPrefix(to, "internal/") {
					continue
				}
				arrow := from + " -> " + to
				if seen[arrow] {
					continue
				}
				seen[arrow] = true
				if !outsiders[arrow] {
					t.Errorf("%s: another module imports the library's internal/ (DESIGN.md: public packages only)", arrow)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for arrow := range outsiders {
		if !seen[arrow] {
			t.Logf("%s is gone: take it out of outsiders", arrow)
		}
	}
}
