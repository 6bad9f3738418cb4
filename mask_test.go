package jsonmask_test

import (
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestCompileByteOrderMark: a mask file saved with a UTF-8 byte-order mark
// compiles and masks as without it (SPEC M8).
func TestCompileByteOrderMark(t *testing.T) {
	m, err := jsonmask.Compile([]byte("\xEF\xBB\xBF{\"id\":true}"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Append(nil, []byte(`{"id":1,"secret":"CANARY"}`))
	if err != nil || string(out) != `{"id":1}` {
		t.Fatalf("Append = %q, %v; want {\"id\":1}", out, err)
	}
}
