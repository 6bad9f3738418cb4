package toolresult

import "os"

// writeback starts the writing to disk of a draft's file while the data is
// still being written, so that the fsync of Commit (SPEC C5: a variable
// appears whole or not at all, and survives a crash once named) waits only
// for the last pages instead of the whole file. On this machine's disk the
// fsync of 100 MiB written at once took 32 to 160 ms (dd); started a few
// MiB at a time beside the writes, it is mostly done when Commit comes
// (bench/REPORT.md, run 4).
//
// Every writebackStep bytes, Write hands the range written since the last
// step to a goroutine of its own, which asks the kernel to start writing it
// out (sync_file_range with SYNC_FILE_RANGE_WRITE, which does not wait for
// the disk, where there is one; see writeback_linux.go). The handoff never
// blocks: when the goroutine is still busy with an earlier range, the range
// goes with the next step. Nothing here is needed for correctness: Commit
// still syncs the file, whatever was started.
type writeback struct {
	f       *os.File
	written int64 // bytes written to f
	from    int64 // the start of the range not handed over yet
	ranges  chan [2]int64
	done    chan struct{}
}

// writebackStep is how many bytes are written between two starts.
const writebackStep = 4 << 20

// wrote records n more bytes written to the file.
func (w *writeback) wrote(n int) {
	w.written += int64(n)
	if !canWriteback || w.written-w.from < writebackStep {
		return
	}
	if w.ranges == nil {
		w.ranges, w.done = make(chan [2]int64, 1), make(chan struct{})
		go w.run(w.f)
	}
	select {
	case w.ranges <- [2]int64{w.from, w.written - w.from}:
		w.from = w.written
	default: // busy: the range grows until the next step
	}
}

// run starts the writing out of each range handed over.
func (w *writeback) run(f *os.File) {
	defer close(w.done)
	for r := range w.ranges {
		startWriteback(f, r[0], r[1])
	}
}

// stop ends the goroutine, if any, and waits for it: before the file is
// synced and closed.
func (w *writeback) stop() {
	if w.ranges != nil {
		close(w.ranges)
		<-w.done
		w.ranges = nil
	}
}
