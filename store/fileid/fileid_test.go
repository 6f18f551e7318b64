package fileid

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSameAndSameFile(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	v1 := ID{Dev: 2049, Inode: 100, Size: 10, ModTime: t0}
	tests := []struct {
		name     string
		a, b     ID
		sameFile bool
		same     bool
	}{
		{"identical", v1, v1, true, true},
		{"the same instant in another zone", v1, ID{Dev: 2049, Inode: 100, Size: 10, ModTime: t0.In(time.FixedZone("x", 3600))}, true, true},
		{"grew", v1, ID{Dev: 2049, Inode: 100, Size: 20, ModTime: t0.Add(time.Second)}, true, false},
		{"rewritten in place, same size", v1, ID{Dev: 2049, Inode: 100, Size: 10, ModTime: t0.Add(time.Nanosecond)}, true, false},
		{"replaced by a rename (rotation)", v1, ID{Dev: 2049, Inode: 101, Size: 10, ModTime: t0}, false, false},
		{"same inode on another device", v1, ID{Dev: 2050, Inode: 100, Size: 10, ModTime: t0}, false, false},
		{"a record without device or inode", v1, ID{Size: 10, ModTime: t0}, true, true},
		{"a record without device, other inode", v1, ID{Inode: 7, Size: 10, ModTime: t0}, false, false},
		{"a record without inode, other size", v1, ID{Size: 11, ModTime: t0}, true, false},
		{"both without device or inode (Windows)", ID{Size: 10, ModTime: t0}, ID{Size: 10, ModTime: t0}, true, true},
		{"no file, then a file", ID{}, v1, true, false},
		{"no file both times", ID{}, ID{}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, pair := range [][2]ID{{tt.a, tt.b}, {tt.b, tt.a}} {
				if got := pair[0].SameFile(pair[1]); got != tt.sameFile {
					t.Errorf("%+v.SameFile(%+v) = %v, want %v", pair[0], pair[1], got, tt.sameFile)
				}
				if got := pair[0].Same(pair[1]); got != tt.same {
					t.Errorf("%+v.Same(%+v) = %v, want %v", pair[0], pair[1], got, tt.same)
				}
			}
		})
	}
}

// Of on real files: a file keeps its identity while untouched, a new
// version differs, and a file renamed over the path is another file
// wherever the system gives inodes.
func TestOf(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stat := func() ID {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return Of(fi)
	}
	first := stat()
	if first.Size != 4 || first.ModTime.IsZero() || first == (ID{}) {
		t.Fatalf("Of = %+v", first)
	}
	if again := stat(); !again.Same(first) {
		t.Errorf("an untouched file changed identity: %+v then %+v", first, again)
	}

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("two\n")
	f.Close()
	grown := stat()
	if grown.Same(first) || !grown.SameFile(first) || grown.Size != 8 {
		t.Errorf("after an append: %+v, was %+v", grown, first)
	}

	other := filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(other, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, grown.ModTime, grown.ModTime); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	replaced := stat()
	if knowsInodes := grown.Inode != 0; knowsInodes == replaced.SameFile(grown) {
		t.Errorf("a file renamed over the path: SameFile = %v with inodes known = %v (%+v, was %+v)",
			replaced.SameFile(grown), knowsInodes, replaced, grown)
	}
}
