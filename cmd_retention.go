package main

import (
	"errors"
	"io"
)

func cmdRetention(args []string, stdout io.Writer) error {
	return exitError{2, errors.New("retention plans are not built yet")}
}
