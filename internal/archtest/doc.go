// Package archtest holds no code, only the test that keeps the house as
// docs/DESIGN.md draws it: which package may import which (its arrows), and
// that the contrib modules and bench use the library's public packages, not
// its internal ones. The test reads `go list -json`, so it sees what the
// compiler sees; an arrow that appears without being added to DESIGN.md and
// to the table here fails it.
package archtest
