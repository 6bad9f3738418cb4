//go:build unix

package toolresult

import (
	"os"
	"syscall"
)

// stampOf is what says a file is unchanged: its size, modification time and
// inode.
func stampOf(st os.FileInfo) fileStamp {
	s := fileStamp{size: st.Size(), modTime: st.ModTime().UnixNano()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		s.ino = uint64(sys.Ino)
	}
	return s
}

// ownedByOther reports whether the file is owned by a user other than this
// process's.
func ownedByOther(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) != os.Geteuid()
}
