//go:build linux

package tokenizer

import (
	"strings"
	"testing"
)

// TestSkipStringChainsGuardPage checks that the member chains and the \u
// runs read nothing at or past src[n]: documents of short members, spaced
// members and escape runs that end where an unreadable page begins, cut at
// every length, are skipped and copied (a read past the end faults).
func TestSkipStringChainsGuardPage(t *testing.T) {
	var docs []string
	for n := 0; n <= 34; n++ {
		s := strings.Repeat("s", n)
		docs = append(docs,
			`{"`+s+`":"`+s+`","a":"`+s+`"}`,
			`{"`+s+`": "`+s+`", "a": 1}`,
			`["`+s+`","`+s+`"]`,
			`["`+s+strings.Repeat(`\u00e9`, n%7+1)+`"]`,
		)
	}
	checkGuarded(t, docs)
}
