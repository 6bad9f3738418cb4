package bench

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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

// threadCPU is the CPU time that the calling thread has used so far, or 0
// where the clock cannot be read.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
