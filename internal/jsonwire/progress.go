package jsonwire

import "io"

// MaxEmptyReads is how many reads in a row may give 0 bytes and no error
// before a body's source is given up with io.ErrNoProgress, as bufio.Reader
// does: asked again for ever (io.ReadFull does), it would hold a goroutine
// at 100 % CPU.
const MaxEmptyReads = 100

// Progress counts a read of n bytes with error err in empty, the reads in a
// row that gave nothing, and returns the new count and the read's error:
// io.ErrNoProgress for the last empty read allowed.
func Progress(n int, err error, empty int) (int, error) {
	if n > 0 || err != nil {
		return 0, err
	}
	if empty++; empty >= MaxEmptyReads {
		err = io.ErrNoProgress
	}
	return empty, err
}
