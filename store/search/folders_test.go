package search

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// backdate sets the mtime of every file and folder of the vault to at,
// as if nothing had changed since then.
func (e *testEnv) backdate(at time.Time) {
	e.t.Helper()
	err := filepath.WalkDir(e.path("vault"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

// A sync lists a vault folder whose mtime is as recorded from the
// manifest, without a stat of its files; a folder whose mtime moved (a
// file created, removed, renamed over) is read again; a file modified
// within hotWindow is stat'ed whatever its folder says.
func TestSyncTrustsUnchangedFolders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/people/ana.md", "# Ana\nanaword\n")
	e.write("vault/people/bo.md", "# Bo\nboword\n")
	e.write("vault/ledger/observations/2026/11/20.md", "## 2026-11-20\n- [fact|c=0.7|i=0.5] 10:00 oldword\n")
	e.backdate(time.Now().Add(-72 * time.Hour))
	day := e.path("vault/ledger/observations/2026/11/20.md")
	hour := time.Now().Add(-time.Hour)
	os.Chtimes(day, hour, hour) // today's ledger: hot
	ix := e.open()              // a full sync: every file stat'ed, the folders recorded
	ctx := context.Background()
	if n := len(ix.folders.MTime); n == 0 {
		t.Fatal("no folder recorded")
	}

	st, err := ix.Sync(ctx, nil)
	if err != nil || st.Unchanged != 3 || st.Indexed != 0 {
		t.Fatalf("quiet sync: %+v %v", st, err)
	}

	// A new file: its folder's mtime moves.
	e.write("vault/people/cy.md", "# Cy\ncyword\n")
	// A day's ledger appended in place (its folder's mtime stays), hot.
	f, err := os.OpenFile(day, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("- [fact|c=0.7|i=0.5] 11:00 appendedword\n")
	f.Close()
	if st, err = ix.Sync(ctx, nil); err != nil || st.Indexed != 2 {
		t.Fatalf("sync after a new file and an append: %+v %v", st, err)
	}
	for _, w := range []string{"cyword", "appendedword"} {
		if len(find(t, ix, w)) != 1 {
			t.Errorf("%s not found", w)
		}
	}

	// A removed file: its folder's mtime moves.
	os.Remove(e.path("vault/people/bo.md"))
	if st, err = ix.Sync(ctx, nil); err != nil || st.Removed != 1 {
		t.Fatalf("sync after a removal: %+v %v", st, err)
	}
	if hits := find(t, ix, "boword"); len(hits) != 0 {
		t.Errorf("removed file still found: %v", where(hits))
	}
}

// A cold file (not modified within hotWindow) rewritten in place leaves
// its folder's mtime alone: the next sync takes it as unchanged, and the
// full check (fullCheckEvery) finds it. This is the documented limit of
// the folder records; the TUI's watcher and search --reindex see it at
// once.
func TestFullCheckFindsAColdFileRewrittenInPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.write("vault/people/ana.md", "# Ana\nanaword\n")
	e.backdate(time.Now().Add(-72 * time.Hour))
	ix := e.open()
	ctx := context.Background()
	// In place (O_TRUNC): the folder's mtime does not move.
	if err := os.WriteFile(p, []byte("# Ana\nrewrittenword\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := ix.Sync(ctx, nil); err != nil || st.Unchanged != 1 {
		t.Fatalf("sync trusting the folder: %+v %v", st, err)
	}
	ix.fullCheckEvery = 0 // the full check is due
	if st, err := ix.Sync(ctx, nil); err != nil || st.Indexed != 1 {
		t.Fatalf("full check: %+v %v", st, err)
	}
	if got := where(find(t, ix, "rewrittenword")); !slices.Equal(got, []string{"people/ana.md:2"}) {
		t.Errorf("rewrittenword: %v", got)
	}
}

// The records survive a reopen, written with the manifest; damaged ones
// are not trusted (every file is stat'ed) and are not an error.
func TestFolderRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	rec := folderRecords{CheckedAt: 12345, Flags: 3, MTime: map[string]int64{"vault:": 7, "vault:people": -1, "vault:a/b": 1 << 60}}
	got, err := decodeFolders(rec.encode())
	if err != nil || !got.equal(rec) {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	enc := rec.encode()
	for n := range len(enc) {
		if _, err := decodeFolders(enc[:n]); err == nil {
			t.Errorf("a record cut at %d bytes decoded", n)
		}
	}

	e := newEnv(t)
	e.write("vault/people/ana.md", "# Ana\nanaword\n")
	e.backdate(time.Now().Add(-72 * time.Hour))
	ix := e.open()
	want := ix.folders
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = e.open()
	if !ix.folders.equal(want) || len(want.MTime) == 0 {
		t.Errorf("after a reopen: %+v, want %+v", ix.folders, want)
	}
}

// With ReadOnlyUntilWrite an up-to-date index is searched without a
// write (scorch would save its snapshot again on a writable open); the
// first sync with something to write reopens it, and indexes the change.
// Two such processes may search at once.
func TestReadOnlyUntilWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/people/ana.md", "# Ana\nanaword\n")
	e.backdate(time.Now().Add(-72 * time.Hour))
	e.open().Close()
	bolt := filepath.Join(e.opt.Dir, "store", "root.bolt")
	before, err := os.Stat(bolt)
	if err != nil {
		t.Fatal(err)
	}
	e.opt.ReadOnlyUntilWrite = true
	ix := e.open() // Open and a sync with nothing to write
	other, err := Open(e.opt)
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	other.Close()
	if !ix.readOnly || len(find(t, ix, "anaword")) != 1 {
		t.Fatalf("read-only %v", ix.readOnly)
	}
	if after, err := os.Stat(bolt); err != nil || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Errorf("a quiet sync wrote the index: %v → %v (%v)", before.ModTime(), after.ModTime(), err)
	}
	e.write("vault/people/bo.md", "# Bo\nboword\n")
	if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 1 {
		t.Fatalf("sync after a new file: %+v %v", st, err)
	}
	if ix.readOnly || len(find(t, ix, "boword")) != 1 {
		t.Errorf("after a write: read-only %v", ix.readOnly)
	}
}

// A sync of everything on an index just opened answers "nothing changed"
// without decoding the manifest (quickSync) when that is so, and
// otherwise syncs as before: each change a quiet sync must see is found,
// and indexed, through the usual path.
func TestQuickSync(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(e *testEnv)
		quick  bool
		want   func(st Stats) bool
	}{
		{"nothing", func(*testEnv) {}, true, func(st Stats) bool { return st.Unchanged == 6 && st.Files == 6 && st.Docs == 7 }},
		// The documented limit of the folder records (see the top of
		// folders.go): found by the full check, not by a quick sync.
		{"a cold file rewritten in place", func(e *testEnv) {
			p := e.path("vault/people/ana.md")
			fi, _ := os.Stat(p)
			os.WriteFile(p, []byte("# Ana\nanaword!\n"), 0o644)
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
		}, true, func(st Stats) bool { return st.Unchanged == 6 && st.Indexed == 0 }},
		{"a new vault file", func(e *testEnv) { e.write("vault/people/cy.md", "# Cy\ncyword\n") }, false, func(st Stats) bool { return st.Indexed == 1 }},
		{"a hot file appended to", func(e *testEnv) {
			f, _ := os.OpenFile(e.path("vault/ledger/today.md"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("- [fact|c=0.7|i=0.5] 11:00 appendedword\n")
			f.Close()
		}, false, func(st Stats) bool { return st.Indexed == 1 }},
		{"a hot file removed", func(e *testEnv) {
			// Its folder's mtime put back: only the stat of the hot file sees it.
			dir := e.path("vault/ledger")
			fi, _ := os.Stat(dir)
			os.Remove(e.path("vault/ledger/today.md"))
			os.Chtimes(dir, fi.ModTime(), fi.ModTime())
		}, false, func(st Stats) bool { return st.Removed == 1 }},
		{"a vault folder removed", func(e *testEnv) { os.RemoveAll(e.path("vault/people")) }, false, func(st Stats) bool { return st.Removed == 2 }},
		{"a vault folder modified just now", func(e *testEnv) {
			now := time.Now()
			os.Chtimes(e.path("vault/people"), now, now)
		}, false, func(st Stats) bool { return st.Unchanged == 6 && st.Indexed == 0 }},
		{"a workspace file changed", func(e *testEnv) { e.write("workspace/MEMORY.md", "# Memory\nchangedword\n") }, false, func(st Stats) bool { return st.Indexed == 1 }},
		{"a workspace file removed", func(e *testEnv) { os.Remove(e.path("workspace/memory/2026-11-20.md")) }, false, func(st Stats) bool { return st.Removed == 1 }},
		{"a new workspace file", func(e *testEnv) { e.write("workspace/memory/2026-11-21.md", "# Day\nnewword\n") }, false, func(st Stats) bool { return st.Indexed == 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			for rel, text := range map[string]string{
				"vault/people/ana.md":            "# Ana\nanaword\n",
				"vault/people/bo.md":             "# Bo\nboword\n",
				"vault/notes.md":                 "# Notes\nnoteword\n",
				"vault/ledger/today.md":          "## 2026-11-20\n- [fact|c=0.7|i=0.5] 10:00 todayword\n",
				"workspace/MEMORY.md":            "# Memory\nmemoryword\n",
				"workspace/memory/2026-11-20.md": "# Day\ndayword\n",
			} {
				e.write(rel, text)
			}
			e.backdate(time.Now().Add(-72 * time.Hour))
			hour := time.Now().Add(-time.Hour)
			os.Chtimes(e.path("vault/ledger/today.md"), hour, hour) // hot
			e.open().Close()

			ix, err := Open(e.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			tc.change(e)
			st, err := ix.Sync(context.Background(), nil)
			if err != nil || !tc.want(st) {
				t.Fatalf("sync: %+v %v", st, err)
			}
			if quick := ix.man == nil; quick != tc.quick {
				t.Errorf("the manifest was decoded: %v, want %v", !quick, !tc.quick)
			}
			// The next sync finds nothing more to do, however it goes.
			if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed+st.Removed != 0 {
				t.Errorf("the sync after: %+v %v", st, err)
			}
		})
	}
}

// manifestFiles lists the manifest files in the index's folder.
func manifestFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, manifestFilePrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The manifest lives in one file beside the store, named by the index
// (manifestfile.go): a build and each write leave exactly the one named;
// a stray file is removed by the next write; an index whose file is gone
// or damaged is built again; one holding its manifest inline is read as
// it is and takes the file form at its next write.
func TestManifestFile(t *testing.T) {
	t.Parallel()
	reopen := func(t *testing.T, e *testEnv) *Index {
		t.Helper()
		ix, err := Open(e.opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	setup := func(t *testing.T) *testEnv {
		e := newEnv(t)
		e.write("vault/a.md", "# A\naword\n")
		e.write("vault/b.md", "# B\nbword\n")
		e.open().Close()
		return e
	}
	t.Run("one file, named", func(t *testing.T) {
		t.Parallel()
		e := setup(t)
		files := manifestFiles(t, e.opt.Dir)
		if len(files) != 1 {
			t.Fatalf("after a build: %v", files)
		}
		os.WriteFile(filepath.Join(e.opt.Dir, manifestFilePrefix+"0123"), []byte("stray"), 0o600)
		ix := reopen(t, e)
		if ix.manMap == nil || filepath.Base(files[0]) != manifestFilePrefix+ix.manID {
			t.Fatalf("reopened: mapped %v, id %q, files %v", ix.manMap != nil, ix.manID, files)
		}
		e.write("vault/c.md", "# C\ncword\n")
		if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 1 {
			t.Fatalf("sync: %+v %v", st, err)
		}
		if got := manifestFiles(t, e.opt.Dir); len(got) != 1 || got[0] == files[0] || filepath.Base(got[0]) != manifestFilePrefix+ix.manID {
			t.Fatalf("after a write: %v (id %q), was %v", got, ix.manID, files)
		}
		ix.Close()
		ix = reopen(t, e)
		if st, err := ix.Sync(context.Background(), nil); err != nil || st.Unchanged != 3 || st.Indexed != 0 {
			t.Fatalf("reopened after the write: %+v %v", st, err)
		}
	})
	for name, damage := range map[string]func(path string){
		"file gone":      func(path string) { os.Remove(path) },
		"file cut short": func(path string) { os.Truncate(path, 40) },
		"file garbage":   func(path string) { os.WriteFile(path, []byte("garbage"), 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := setup(t)
			damage(manifestFiles(t, e.opt.Dir)[0])
			ix := reopen(t, e)
			if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 2 {
				t.Fatalf("rebuilt: %+v %v", st, err)
			}
			if hits := find(t, ix, "aword"); len(hits) != 1 {
				t.Fatal(where(hits))
			}
		})
	}
	// inline makes the closed index hold its manifest inline, as an
	// earlier version wrote it, with entry appended to it if not nil.
	inline := func(t *testing.T, e *testEnv, entry []byte) {
		ix := reopen(t, e)
		if err := ix.loadManifest(); err != nil {
			t.Fatal(err)
		}
		m := ix.man
		ix.Close()
		encoded := m.encode()
		if entry != nil {
			encoded = append(append([]byte(manifestMagic), byte(len(m)+1)), encoded[len(manifestMagic)+1:]...)
			encoded = append(encoded, entry...)
		}
		idx, err := bleve.Open(e.opt.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := idx.SetInternal(keyManifest, encoded); err != nil {
			t.Fatal(err)
		}
		idx.Close()
		for _, f := range manifestFiles(t, e.opt.Dir) {
			os.Remove(f)
		}
	}
	t.Run("inline", func(t *testing.T) {
		t.Parallel()
		e := setup(t)
		inline(t, e, nil)
		ix := reopen(t, e)
		if st, err := ix.Sync(context.Background(), nil); err != nil || st.Unchanged != 2 || ix.manMap != nil || ix.manID != "" {
			t.Fatalf("inline: %+v %v", st, err)
		}
		e.write("vault/c.md", "# C\ncword\n")
		if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 1 {
			t.Fatalf("sync: %+v %v", st, err)
		}
		if got := manifestFiles(t, e.opt.Dir); len(got) != 1 || ix.manID == "" {
			t.Fatalf("after a write: %v", got)
		}
	})
	// A file listed twice is what the scan of a quiet sync lets by: the
	// first sync that decodes the manifest builds the index again.
	t.Run("a file listed twice", func(t *testing.T) {
		t.Parallel()
		e := setup(t)
		inline(t, e, manifest{"vault:a.md": {Size: 10, Indexed: 10, Docs: []docRef{}}}.encode()[len(manifestMagic)+1:])
		ix := reopen(t, e)
		e.write("vault/c.md", "# C\ncword\n")
		if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 3 || st.Files != 3 {
			t.Fatalf("sync: %+v %v", st, err)
		}
	})
}
