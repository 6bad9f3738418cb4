package bench

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessCPUSeesOtherThreads checks what BenchmarkMask's two clocks
// measure: work that another thread does is in processCPU (proc-MB/s) and not
// in the calling thread's threadCPU (cpu-MB/s), as with minio/simdjson-go's
// stage 2, which runs on a goroutine of its own.
func TestProcessCPUSeesOtherThreads(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := processCPU(), threadCPU()
	if p0 == 0 || t0 == 0 {
		t.Skip("no per-thread or per-process CPU clock here")
	}
	const work = 50 * time.Millisecond
	done := make(chan time.Duration)
	go func() {
		runtime.LockOSThread() // another thread than the test's
		start := threadCPU()
		for threadCPU()-start < work {
		}
		done <- threadCPU() - start
	}()
	spun := <-done // the test's thread sleeps in the receive
	proc, own := processCPU()-p0, threadCPU()-t0
	if proc < spun {
		t.Errorf("processCPU advanced %v while another thread spun %v: it misses other threads' work", proc, spun)
	}
	if own > spun/2 {
		t.Errorf("threadCPU advanced %v while only another thread worked (%v): it is not the calling thread's clock", own, spun)
	}
}
