package main

import (
	"errors"
	"io"
)

func cmdSearch(args []string, stdout io.Writer) error {
	return exitError{2, errors.New("search is not built yet")}
}
