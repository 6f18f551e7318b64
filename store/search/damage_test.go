package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"clawvault-tui/store/regfile"
	"clawvault-tui/store/regfile/regfiletest"
)

// segments are the index's segment files.
func segments(t *testing.T, dir string) []string {
	t.Helper()
	segs, err := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("no segment in %s: %v", dir, err)
	}
	return segs
}

// rewrite changes a file's bytes by change.
func rewrite(t *testing.T, path string, change func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, change(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// damages are the ways an index on disk goes bad, each applied to the
// closed index in dir.
var damages = map[string]func(t *testing.T, dir string){
	"a truncated segment": func(t *testing.T, dir string) {
		rewrite(t, segments(t, dir)[0], func(b []byte) []byte { return b[:len(b)/2] })
	},
	"a segment cut to 10 bytes": func(t *testing.T, dir string) {
		rewrite(t, segments(t, dir)[0], func(b []byte) []byte { return b[:10] })
	},
	"a zeroed segment": func(t *testing.T, dir string) {
		rewrite(t, segments(t, dir)[0], func(b []byte) []byte { clear(b); return b })
	},
	"a bit flipped in a segment": func(t *testing.T, dir string) {
		rewrite(t, segments(t, dir)[0], func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b })
	},
	"a bit flipped in a segment's footer": func(t *testing.T, dir string) {
		rewrite(t, segments(t, dir)[0], func(b []byte) []byte { b[len(b)-20] ^= 0x01; return b })
	},
	"a FIFO in place of a segment": func(t *testing.T, dir string) { regfiletest.FIFO(t, segments(t, dir)[0]) },
	"a segment gone":               func(t *testing.T, dir string) { os.Remove(segments(t, dir)[0]) },
	"a FIFO in place of the root":  func(t *testing.T, dir string) { regfiletest.FIFO(t, filepath.Join(dir, "store", "root.bolt")) },
	"a zeroed root": func(t *testing.T, dir string) {
		rewrite(t, filepath.Join(dir, "store", "root.bolt"), func(b []byte) []byte { clear(b); return b })
	},
	"a FIFO in place of the metadata": func(t *testing.T, dir string) { regfiletest.FIFO(t, filepath.Join(dir, "index_meta.json")) },
	"damaged metadata": func(t *testing.T, dir string) {
		rewrite(t, filepath.Join(dir, "index_meta.json"), func([]byte) []byte { return []byte("{") })
	},
	"no store": func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, "store")) },
	"a damaged manifest": func(t *testing.T, dir string) {
		rewrite(t, manifestFiles(t, dir)[0], func([]byte) []byte { return []byte("garbage") })
	},
	"a manifest cut short": func(t *testing.T, dir string) {
		rewrite(t, manifestFiles(t, dir)[0], func(b []byte) []byte { return b[:len(b)-3] })
	},
	"a FIFO in place of the manifest": func(t *testing.T, dir string) { regfiletest.FIFO(t, manifestFiles(t, dir)[0]) },
	// Not damage: the list of segments checked is read only if it is a
	// regular file, and written anew (all are checked again).
	"a FIFO in place of the checklist": func(t *testing.T, dir string) { regfiletest.FIFO(t, filepath.Join(dir, checkedSegmentsFile)) },
}

// entryPoints open and search an index as the search command, search
// --reindex and the Search screen do; note is what they tell the user.
var entryPoints = map[string]func(t *testing.T, opt Options) (hits []Hit, note string){
	"search": func(t *testing.T, opt Options) ([]Hit, string) {
		opt.ReadOnlyUntilWrite = true
		return openSyncSearch(t, opt, false)
	},
	"search --reindex": func(t *testing.T, opt Options) ([]Hit, string) {
		opt.ReadOnlyUntilWrite = true
		return openSyncSearch(t, opt, true)
	},
	"the Search screen": func(t *testing.T, opt Options) ([]Hit, string) { return openSyncSearch(t, opt, false) },
}

// openSyncSearch opens the index, syncs (or rebuilds) it and searches it
// for "survivor", as the entry points do, and returns the hits and every
// note: the open's, the sync's problems.
func openSyncSearch(t *testing.T, opt Options, rebuild bool) ([]Hit, string) {
	t.Helper()
	ix, err := Open(opt)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer ix.Close()
	notes := []string{ix.RebuildReason()}
	sync := ix.Sync
	if rebuild {
		sync = ix.Rebuild
	}
	st, err := sync(context.Background(), nil)
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	notes = append(notes, st.Problems...)
	res, err := ix.Search(context.Background(), "survivor", SearchOptions{AsYouType: !opt.ReadOnlyUntilWrite})
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	return res.Hits, strings.TrimSpace(strings.Join(notes, "\n"))
}

// everyEntryPoint are the damages each entry point meets; the others
// meet the search command's.
var everyEntryPoint = map[string]bool{"a truncated segment": true, "a zeroed segment": true,
	"a bit flipped in a segment": true, "a damaged manifest": true}

// pristine is an index of twenty notes, built once per test binary, that
// the damage tests copy (removed by TestMain).
var pristine struct {
	once       sync.Once
	dir        string
	vault, idx string
	err        error
}

// pristineCopy copies the pristine index into a new folder, and returns
// the options of the copy over the pristine vault (which it only reads).
func pristineCopy(t *testing.T) Options {
	t.Helper()
	pristine.once.Do(func() {
		if pristine.dir, pristine.err = os.MkdirTemp("", "clawvault-tui-search-damage-"); pristine.err != nil {
			return
		}
		pristine.vault, pristine.idx = filepath.Join(pristine.dir, "vault"), filepath.Join(pristine.dir, "idx")
		for i := range 20 {
			p := filepath.Join(pristine.vault, fmt.Sprintf("n%02d.md", i))
			os.MkdirAll(pristine.vault, 0o755)
			if pristine.err = os.WriteFile(p, fmt.Appendf(nil, "# N%d\nsurvivor n%dword %s\n", i, i, strings.Repeat("filler ", 40)), 0o644); pristine.err != nil {
				return
			}
		}
		ix, err := Open(Options{Dir: pristine.idx, Roots: []Root{{ID: "vault", Kind: VaultRoot, Dir: pristine.vault}}})
		if pristine.err = err; err == nil {
			_, pristine.err = ix.Sync(context.Background(), nil)
			ix.Close()
		}
	})
	if pristine.err != nil {
		t.Fatalf("the pristine index: %v", pristine.err)
	}
	opt := Options{Dir: filepath.Join(t.TempDir(), "idx"), Roots: []Root{{ID: "vault", Kind: VaultRoot, Dir: pristine.vault}}, BusyTimeout: 200 * time.Millisecond}
	if err := os.CopyFS(opt.Dir, os.DirFS(pristine.idx)); err != nil {
		t.Fatal(err)
	}
	return opt
}

// A damaged index, whatever the damage, is found before it is trusted:
// set aside (its folder renamed, the damaged file in it) and built
// again, with one line saying so, by each entry point; never a panic,
// never a hang.
func TestADamagedIndexIsSetAsideAndBuiltAgain(t *testing.T) {
	t.Parallel()
	for damage, apply := range damages {
		for entry, run := range entryPoints {
			if entry != "search" && !everyEntryPoint[damage] {
				continue
			}
			t.Run(damage+", "+entry, func(t *testing.T) {
				t.Parallel()
				opt := pristineCopy(t)
				apply(t, opt.Dir)
				var hits []Hit
				var note string
				regfiletest.Within(t, entry, func() { hits, note = run(t, opt) })
				if len(hits) != 20 {
					t.Fatalf("%d hits after the damage, want 20", len(hits))
				}
				aside, _ := filepath.Glob(opt.Dir + ".damaged-*")
				if strings.Contains(damage, "checklist") {
					if note != "" || len(aside) != 0 {
						t.Fatalf("note %q, set aside %v", note, aside)
					}
					return
				}
				if len(aside) != 1 || strings.Count(note, "\n") != 0 || !strings.Contains(note, "was damaged") || !strings.Contains(note, "set aside as "+aside[0]) {
					t.Fatalf("note %q, set aside %v", note, aside)
				}
			})
		}
	}
}

// panicky is an index whose searches and batches panic, as bleve's do on
// a segment damaged in a way no check on open sees.
type panicky struct{ bleveIndex }

// bleveIndex names bleve.Index for embedding (a field named Index would
// hide its method Index).
type bleveIndex = bleve.Index

func (panicky) SearchInContext(context.Context, *bleve.SearchRequest) (*bleve.SearchResult, error) {
	panic("runtime error: slice bounds out of range")
}

func (panicky) Batch(*bleve.Batch) error { panic("runtime error: index out of range") }

// A panic of the search library's in a search is a DamagedError, and the
// next sync sets the index aside and builds it again; one in a sync
// does that at once.
func TestAPanicOfTheLibraryIsDamage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nsurvivor\n")
	ix := e.open()
	ix.idx = panicky{ix.idx}
	_, err := ix.Search(context.Background(), "survivor", SearchOptions{})
	var d *DamagedError
	if !errors.As(err, &d) || !errors.Is(err, ErrDamaged) || d.SetAside != "" || !strings.Contains(err.Error(), "slice bounds") {
		t.Fatalf("search: %v", err)
	}
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || st.Indexed != 1 || len(st.Problems) != 1 || !strings.Contains(st.Problems[0], "set aside as "+e.opt.Dir+".damaged-") {
		t.Fatalf("sync after: %+v %v", st, err)
	}
	if hits := find(t, ix, "survivor"); len(hits) != 1 {
		t.Fatalf("after the rebuild: %v", where(hits))
	}
	// In a sync: a batch panics.
	ix.idx = panicky{ix.idx}
	e.write("vault/b.md", "# B\nsurvivor too\n")
	st, err = ix.Sync(context.Background(), nil)
	if err != nil || st.Indexed != 2 || len(st.Problems) != 1 || !strings.Contains(st.Problems[0], "index out of range") {
		t.Fatalf("a sync that panics: %+v %v", st, err)
	}
	if hits := find(t, ix, "survivor"); len(hits) != 2 {
		t.Fatalf("after the rebuild: %v", where(hits))
	}
	aside, _ := filepath.Glob(e.opt.Dir + ".damaged-*")
	if len(aside) != 2 {
		t.Fatalf("set aside: %v", aside)
	}
}

// Only the newest keepSetAside copies of a damaged index are kept.
func TestSetAsideCopiesArePruned(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "idx")
	for i := range keepSetAside + 2 {
		if err := os.MkdirAll(fmt.Sprintf("%s.damaged-2026112%dT000000.000Z", dir, i), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	pruneSetAside(dir)
	left, _ := filepath.Glob(dir + ".damaged-*")
	want := []string{dir + ".damaged-20261122T000000.000Z", dir + ".damaged-20261123T000000.000Z", dir + ".damaged-20261124T000000.000Z"}
	if !slices.Equal(left, want) {
		t.Fatalf("left %v, want %v", left, want)
	}
}

// A segment is checked once per version of its file: the checklist
// names it after the first open, and a segment changed later is checked
// again.
func TestSegmentsAreCheckedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nsurvivor\n")
	e.open().Close()
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	checked := ix.readCheckedSegments()
	seg := segments(t, e.opt.Dir)[0]
	if _, ok := checked[filepath.Base(seg)]; !ok || len(checked) != 1 {
		t.Fatalf("checklist %v, segment %s", checked, seg)
	}
	// Damaged after it was checked, its old mtime put back: the change
	// time tells (Linux; elsewhere the size and mtime only).
	if runtime.GOOS != "linux" {
		return
	}
	fi, _ := os.Stat(seg)
	rewrite(t, seg, func(b []byte) []byte { b[len(b)/2] ^= 1; return b })
	os.Chtimes(seg, fi.ModTime(), fi.ModTime())
	if reason := ix.checkStore(); !strings.Contains(reason, "fails its checksum") {
		t.Fatalf("a segment changed after its check: %q", reason)
	}
}

// No file the index reads hangs it when a FIFO is in its place: memory
// files, transcripts, a SQLite-era store and its log, the folder's lock.
// Each is refused (as not a regular file, with its path) or passed over,
// and the rest is indexed.
func TestFIFOsInPlaceOfFilesDoNotHang(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nsurvivor\n")
	regfiletest.FIFO(t, e.path("vault/fifo.md"))
	regfiletest.FIFO(t, e.path("workspace/MEMORY.md"))
	regfiletest.FIFO(t, e.path("workspace/memory/2026-11-20.md"))
	regfiletest.FIFO(t, e.path("sessions/s1.jsonl"))
	store := e.path("state/agents/ops/agent/openclaw-agent.sqlite")
	os.MkdirAll(filepath.Dir(store), 0o700)
	regfiletest.FIFO(t, store)
	e.opt.Roots = append(e.opt.Roots, Root{ID: "sqlite/ops", Kind: SQLiteRoot, Agent: "ops", Dir: filepath.Dir(store), Store: store})
	regfiletest.FIFO(t, e.opt.Dir+".lock")
	var st Stats
	regfiletest.Within(t, "a sync over FIFOs", func() {
		ix, err := Open(e.opt)
		if err != nil {
			t.Errorf("open: %v", err)
			return
		}
		defer ix.Close()
		if st, err = ix.Sync(context.Background(), nil); err != nil {
			t.Errorf("sync: %v", err)
		}
		if hits := find(t, ix, "survivor"); len(hits) != 1 {
			t.Errorf("hits %v", where(hits))
		}
	})
	if problems := strings.Join(st.Problems, "\n"); !strings.Contains(problems, "open "+store+": is a named pipe (FIFO), not a regular file") {
		t.Errorf("problems:\n%s", problems)
	}
	// A file swapped for a FIFO after the listing saw a regular file.
	ix := e.open()
	regfiletest.Within(t, "reading FIFOs", func() {
		_, err := readFile(e.path("vault/fifo.md"), 10)
		if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), e.path("vault/fifo.md")) {
			t.Errorf("a vault file: %v", err)
		}
		err = ix.newWriter(&Stats{}).indexTranscript(fileRef{root: &ix.opt.Roots[2], rel: "s1.jsonl"})
		if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), e.path("sessions/s1.jsonl")) {
			t.Errorf("a transcript: %v", err)
		}
	})
}

// FuzzCheckedSegments: any list of checked segments on disk reads without
// a panic, and only names of segments are taken from it.
func FuzzCheckedSegments(f *testing.F) {
	f.Add([]byte("000000000001.zap 100 1 2 3\n000000000002.zap 5 6 7 8\n"))
	f.Add([]byte("root.bolt 1 2 3 4\n../x.zap\n\x00\xff.zap 1"))
	dir := f.TempDir()
	ix := &Index{opt: Options{Dir: dir}}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, checkedSegmentsFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
		for name := range ix.readCheckedSegments() {
			if !strings.HasSuffix(name, ".zap") || strings.ContainsAny(name, " \n") {
				t.Fatalf("took %q as a segment", name)
			}
		}
	})
}
