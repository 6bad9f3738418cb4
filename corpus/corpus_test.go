package corpus

import (
	"encoding/json"
	"testing"
)

// TestWorkloads: the workloads read from this package's directory, two
// levels below the repository's root, and each names a document of the
// corpus and a mask.
func TestWorkloads(t *testing.T) {
	ws := Workloads(t)
	if len(ws) == 0 {
		t.Fatal("no workloads")
	}
	for _, w := range ws {
		if w.Name == "" || w.File == "" || !json.Valid(w.Mask) || w.Mask[0] != '{' {
			t.Errorf("workload %+v", w)
		}
		if len(File(t, w.File)) == 0 {
			t.Errorf("%s: empty %s", w.Name, w.File)
		}
	}
	if w := Find(t, ws[len(ws)-1].Name); w.File != ws[len(ws)-1].File {
		t.Errorf("Find: %+v", w)
	}
	if got := (Workload{Name: "github/issues"}).SubName(); got != "github-issues" {
		t.Errorf("SubName %q", got)
	}
}
