//go:build linux

package tokenizer

import (
	"strings"
	"testing"
)

// TestSkipTokenFormsGuardPage checks that strShort and strStopLong read
// nothing at or past src[n]: the forms of TestSkipTokenLimits with strings
// around one and two blocks long (32 and 64 bytes), ending where an unreadable page begins,
// cut at every length, are skipped and copied (a read past the end faults).
func TestSkipTokenFormsGuardPage(t *testing.T) {
	var docs []string
	for _, f := range tokenForms {
		for _, n := range []int{0, 29, 30, 31, 32, 33, 62, 63, 64, 65, 126, 127, 128, 129} {
			docs = append(docs, f.doc(strings.Repeat("p", n%7+1), strings.Repeat("s", n)))
		}
	}
	checkGuarded(t, docs)
}
