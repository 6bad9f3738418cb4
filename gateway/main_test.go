package gateway

import (
	"io"
	"log"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any leaves a goroutine behind: a
// coroutine of a coded body, a proxy's connection, a handler.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// quietLog is a server's error log that tests do not print: aborted
// responses are what some tests are about.
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
