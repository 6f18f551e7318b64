package model

import (
	"errors"
	"io/fs"
	"os"
)

// OSReason is the OS's words for an error, without the operation and path
// a *fs.PathError or *os.LinkError repeats: "permission denied", "is a
// directory", "input/output error". Messages name the file themselves.
func OSReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
