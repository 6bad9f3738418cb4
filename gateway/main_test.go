package gateway

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any leaves a goroutine behind: a
// coroutine of a coded body, a proxy's connection, a handler.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
