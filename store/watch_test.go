package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestWatcherReportsChangedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := Watch([]string{dir, filepath.Join(dir, "missing")}, 20*time.Millisecond, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	path := filepath.Join(dir, "s.jsonl")
	for i := range 5 { // several writes, one event
		f, _ := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		f.WriteString("line\n")
		f.Close()
		_ = i
	}
	select {
	case paths := <-w.Events():
		if !slices.Contains(paths, path) {
			t.Errorf("paths = %v, want %s", paths, path)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event for a written file")
	}
	w.Close()
	if _, open := <-w.Events(); open {
		// a last batch may still be delivered; the channel then closes
		for range w.Events() {
		}
	}
}
