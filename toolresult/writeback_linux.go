package toolresult

import (
	"os"

	"golang.org/x/sys/unix"
)

const canWriteback = true

// startWriteback asks the kernel to start writing f's bytes [off, off+n) to
// disk, without waiting for it. An error only means that Commit's fsync
// does all of the work, as it would without this: it is ignored.
func startWriteback(f *os.File, off, n int64) {
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
		})
	}
}
