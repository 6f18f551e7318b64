//go:build unix

package observer

import "syscall"

// mkfifo plants a named pipe at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
