package jsonwire

import (
	"errors"
	"io"
	"testing"
)

func TestProgress(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name      string
		n         int
		err       error
		empty     int
		wantEmpty int
		wantErr   error
	}{
		{"Bytes", 5, nil, 7, 0, nil},
		{"Error", 0, boom, 7, 0, boom},
		{"EOF", 0, io.EOF, 99, 0, io.EOF},
		{"FirstEmpty", 0, nil, 0, 1, nil},
		{"LastAllowed", 0, nil, MaxEmptyReads - 2, MaxEmptyReads - 1, nil},
		{"GivenUp", 0, nil, MaxEmptyReads - 1, MaxEmptyReads, io.ErrNoProgress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			empty, err := Progress(tc.n, tc.err, tc.empty)
			if empty != tc.wantEmpty || err != tc.wantErr {
				t.Fatalf("Progress(%d, %v, %d) = %d, %v; want %d, %v", tc.n, tc.err, tc.empty, empty, err, tc.wantEmpty, tc.wantErr)
			}
		})
	}
}
