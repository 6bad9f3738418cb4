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

// processCPU is the CPU time that all of this process's threads have used so
// far, or 0 where the clock cannot be read. A peer that parses on two
// goroutines (minio/simdjson-go runs its stage 2 beside stage 1 for inputs over
// 8 KiB) or whose garbage is collected on other threads is charged for all of
// it here, and only for the calling thread's part by threadCPU.
func processCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
