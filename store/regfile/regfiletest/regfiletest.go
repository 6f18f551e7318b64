// Package regfiletest plants files that are not regular files (a FIFO, a
// link to a device, a link loop) where a reader expects a file, and runs
// the reader under a deadline, so that a reader that hangs fails its test
// instead of running into the test binary's timeout.
package regfiletest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Deadline is how long a reader may take over a planted file. Every reader
// answers in milliseconds; the margin is for a machine under load.
const Deadline = 15 * time.Second

// Within runs fn and fails the test if it has not returned by Deadline. A
// reader still blocked then is released when the test's cleanup opens the
// FIFOs it planted for writing (see FIFO).
func Within(t testing.TB, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(Deadline):
		t.Fatalf("%s hung: no answer within %s", what, Deadline)
	}
}

// Plant puts a thing that is not a regular file at path (its folder
// created), of the kind named: "fifo", "dev-zero" (a link to /dev/zero,
// which reads forever), "loop" (a link to itself) or "dir".
func Plant(t testing.TB, kind, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var err error
	switch kind {
	case "fifo":
		FIFO(t, path)
	case "dev-zero":
		err = os.Symlink("/dev/zero", path)
	case "loop":
		err = os.Symlink(filepath.Base(path), path)
	case "dir":
		err = os.Mkdir(path, 0o755)
	default:
		t.Fatalf("regfiletest: no kind %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Kinds are the kinds Plant knows.
var Kinds = []string{"fifo", "dev-zero", "loop", "dir"}
