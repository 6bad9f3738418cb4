package toolresult_test

import (
	"crypto/sha256"
	"errors"
	"hash"
)

func shaNew() hash.Hash                   { return sha256.New() }
func errorsAs(err error, target any) bool { return errors.As(err, target) }
