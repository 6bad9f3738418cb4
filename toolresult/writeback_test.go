package toolresult_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/jsonmask/jsonmask/toolresult"
)

// TestDirStoreWriteback: a DirStore's draft large enough for its file to be
// written out as it grows (writeback.go) holds, once committed, exactly the
// bytes written; discarded, it leaves no file; and neither leaves a
// goroutine behind.
func TestDirStoreWriteback(t *testing.T) {
	defer goleak.VerifyNone(t)
	data := bytes.Repeat([]byte(`{"id":"item_00001","text":"some words of text"},`), (18<<20)/48)
	for _, tc := range []struct {
		name   string
		commit bool
	}{
		{"Committed", true},
		{"Discarded", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			st, err := toolresult.NewDirStore(dir)
			if err != nil {
				t.Fatal(err)
			}
			d, err := st.Create()
			if err != nil {
				t.Fatal(err)
			}
			for p := data; len(p) > 0; {
				n := min(len(p), 64<<10)
				if _, err := d.Write(p[:n]); err != nil {
					t.Fatal(err)
				}
				p = p[n:]
			}
			if !tc.commit {
				if err := d.Discard(); err != nil {
					t.Fatal(err)
				}
				if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
					t.Fatalf("files left: %v", left)
				}
				return
			}
			path, err := d.Commit("var_writeback")
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("the file holds %d bytes, not the %d written", len(got), len(data))
			}
		})
	}
}
