// Package regfile opens files that must be regular files: every file
// clawvault-tui reads from the state dir, a workspace or the vault, which
// agents and other tools write (a planted FIFO must not hang us, a device
// must not be read). A file is checked before it is opened and again
// through the open descriptor, and the open itself never blocks.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError says a file is something other than a regular file. It
// comes wrapped in an *fs.PathError naming the path, as the OS's own
// reasons do.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	if e.Mode.IsDir() {
		return "is a directory" // the OS's words for the same refusal
	}
	return fmt.Sprintf("is %s, not a regular file", kindOf(e.Mode))
}

// kindOf names a file type in words a user knows.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// ErrNotRegular matches every NotRegularError with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Check returns a NotRegularError in a *fs.PathError unless fi describes
// a regular file.
func Check(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: fi.Mode()}}
}

// Open opens path for reading if it is a regular file (following symbolic
// links, as os.Open does). Anything else is refused with a
// NotRegularError before it is opened, or, if it was swapped in between,
// through the descriptor, which is opened without blocking.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := Check(path, fi); err != nil {
		return nil, err
	}
	return checked(openNonBlocking(path))
}

// OpenNoFollow is Open without following a symbolic link in the last
// component: a link there is refused (a writer that swaps a file for a
// link to a secret must not get us to read it).
func OpenNoFollow(path string) (*os.File, error) {
	return checked(openNoFollow(path))
}

// checked checks through the descriptor that what was opened is a regular
// file, and closes it if not.
func checked(f *os.File, err error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = Check(f.Name(), fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the whole of a regular file, as os.ReadFile does.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}

// ReadFileLimit reads a regular file of at most limit bytes; a larger one
// is an error naming both sizes, and is not read.
func ReadFileLimit(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d this file may hold", path, fi.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		return nil, fmt.Errorf("%s grew past the %d bytes this file may hold while it was read", path, limit)
	}
	return b, err
}

// readAll reads f to its end, sized from its Stat as os.ReadFile is.
func readAll(f *os.File) ([]byte, error) {
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<40 {
		size = int(fi.Size())
	}
	b := make([]byte, 0, size+512)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
