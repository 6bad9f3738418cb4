//go:build linux

package tokenizer

import (
	"strings"
	"syscall"
	"testing"
)

// guarded returns a copy of doc that ends where a page the process may not
// read begins, so that a kernel that reads a byte at or past len(doc)
// faults; and the function that unmaps it.
func guarded(t *testing.T, doc string) ([]byte, func()) {
	t.Helper()
	page := syscall.Getpagesize()
	size := (len(doc)/page + 2) * page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	src := mem[size-page-len(doc) : size-page]
	copy(src, doc)
	return src, func() { _ = syscall.Munmap(mem) }
}

// TestSkipGuardPage checks that the kernels read nothing at or past
// src[n] (skipWholeAVX2's contract): values that end where an unreadable
// page begins, cut at every length, are skipped and copied, with
// whitespace runs and separators of every length up to 40 (the lengths
// the kernels predict by depth among them), strings of text and digit runs. A read
// past the end faults and the test crashes.
func TestSkipGuardPage(t *testing.T) {
	var docs []string
	for n := 1; n <= 40; n++ {
		run := "\n" + strings.Repeat(" ", n-1)
		docs = append(docs,
			"[1,"+run+"2,"+run+"3,"+run+"4"+run+"]",
			"[{},"+run+"{},"+run+"{}"+run+"]",
			`{"a":1,`+run+`"b":2,`+run+`"c":3`+run+"}",
			`["`+strings.Repeat("日本", n)+`"]`,
			"["+strings.Repeat("7", n)+".5e1"+strings.Repeat("0", n)+"]",
		)
	}
	checkGuarded(t, docs)
}

// checkGuarded skips and copies each of docs, cut at every length, ending
// where an unreadable page begins (see guarded).
func checkGuarded(t *testing.T, docs []string) {
	t.Helper()
	for _, doc := range docs {
		for cut := 1; cut <= len(doc); cut++ {
			src, free := guarded(t, doc[:cut])
			a := skipArgs{src: src, maxDepth: DefaultMaxDepth, maxToken: 1 << 30}
			checkSkip(t, a)
			checkCopy(t, a)
			free()
		}
	}
}
