//go:build !linux

package stream

import "time"

// threadCPU returns 0: the benchmarks report wall time only.
func threadCPU() time.Duration { return 0 }
