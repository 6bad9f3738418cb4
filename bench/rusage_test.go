package bench

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time, user and system, that this process has used so
// far: benchmarks report CPU per operation beside wall time, which on a
// shared machine says more.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
