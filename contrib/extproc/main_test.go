package extproc

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any leaves a goroutine behind: a
// stream's Process, a coded body's decoder, a connection.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
