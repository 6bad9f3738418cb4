//go:build linux

package tokenizer

import (
	"strings"
	"testing"
)

// TestSkipMantissaGuardPage checks that the mantissa by masks reads nothing
// at or past src[n]: arrays of numbers from 1 to 34 bytes long, and a
// pretty-printed one, that end where an unreadable page begins, cut at
// every length (so that a number ends at the page's last byte and the 32
// bytes from its start reach past it), are skipped and copied (a read past
// the end faults).
func TestSkipMantissaGuardPage(t *testing.T) {
	digits := strings.Repeat("2718281828", 4)
	var docs []string
	for n := 1; n <= 34; n++ {
		d := digits[:n]
		docs = append(docs,
			"[-"+d+","+d+".5,0."+d+"]",
			"[\n        "+d+", \n        -1."+d+"\n    ]",
		)
	}
	checkGuarded(t, docs)
}
