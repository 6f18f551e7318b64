//go:build linux

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// readDirFast must list as os.ReadDir does: names, order, types.
func TestReadDirFastIsOSReadDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 2000 { // more names than one 64 KiB read holds, in no order on disk
		name := fmt.Sprintf("%04d-%x.jsonl", (i*7919)%2000, i)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("0000-0.jsonl", filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readDirFast(OS, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, os.ReadDir has %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
			t.Errorf("entry %d: %v, os.ReadDir says %v", i, got[i], want[i])
		}
	}
	gi, err := got[0].Info()
	if err != nil || gi.Name() != want[0].Name() {
		t.Errorf("Info of %s: %v, %v", want[0].Name(), gi, err)
	}
}

func TestReadDirFastErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := readDirFast(OS, filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing folder: %v, want not-exist", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, want := os.ReadDir(file)
	if _, err := readDirFast(OS, file); err == nil || err.Error() != want.Error() {
		t.Errorf("a file: %v, os.ReadDir says %v", err, want)
	}
}
