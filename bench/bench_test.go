package bench

import (
	"errors"
	"runtime"
	"testing"
)

// BenchmarkMask runs every implementation on every workload of
// testdata/workloads.json, as BenchmarkMask/workload=<name>/impl=<impl>, so
// that benchstat can put implementations side by side with -col /impl.
// Throughput (MB/s) is of the input: what a gateway receives.
func BenchmarkMask(b *testing.B) {
	workloads, err := LoadWorkloads(testdataDir)
	if err != nil {
		b.Fatal(err)
	}
	for i := range workloads {
		w := &workloads[i]
		doc, err := w.Input(testdataDir)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("workload="+w.benchName(), func(b *testing.B) {
			for _, im := range impls {
				b.Run("impl="+im.name, func(b *testing.B) {
					benchmarkImpl(b, im, w, doc)
				})
			}
		})
	}
}

func benchmarkImpl(b *testing.B, im impl, w *Workload, doc []byte) {
	m, err := im.new(w)
	if errors.Is(err, errUnsupported) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	if s, ok := m.(*streamMasker); ok {
		s.discard = true // measure the masking, not an extra copy of its output
	}
	// One run before timing: it checks the input and sizes dst, so that the
	// loop measures the steady state of a server that reuses its buffers.
	dst, err := m.Mask(nil, doc)
	if err != nil {
		b.Fatalf("%s on %s: %v", im.name, w.Name, err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	// Beside wall time, the CPU time of the thread that runs the loop: on a
	// machine shared with other work, wall time counts the minutes the
	// thread waited for a core, CPU time only those it ran (cpu-MB/s; the
	// report's -unit flag picks it). Work done on other threads is not in
	// it: the garbage collection of the peers that allocate, and the half of
	// minio/simdjson-go's parse that runs on a goroutine of its own. So the
	// CPU time of the whole process is reported too (proc-MB/s): what a server
	// pays for the masking on all its cores. The two agree for a masker that
	// runs on the caller's thread and does not allocate, as jsonmask does.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pstart, start := processCPU(), threadCPU()
	for b.Loop() { // the timer starts here, after the setup above
		if dst, err = m.Mask(dst[:0], doc); err != nil {
			b.Fatal(err)
		}
	}
	cpu, pcpu := threadCPU()-start, processCPU()-pstart
	if start > 0 && cpu > 0 {
		b.ReportMetric(float64(len(doc))*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
	if pstart > 0 && pcpu > 0 {
		b.ReportMetric(float64(len(doc))*float64(b.N)/pcpu.Seconds()/1e6, "proc-MB/s")
	}
}
