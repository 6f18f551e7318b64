package search

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// keptNotes is a vault of n notes with the word keptword, indexed (and
// the index closed).
func keptNotes(t *testing.T, n int) *testEnv {
	e := newEnv(t)
	for i := range n {
		e.write(fmt.Sprintf("vault/n%02d.md", i), fmt.Sprintf("# N%d\nkeptword n%dword\n", i, i))
	}
	e.open().Close()
	return e
}

// A rebuild builds beside the index, which stays searchable in this
// process and others meanwhile; a rebuild cancelled leaves it as it was.
func TestARebuildKeepsTheIndexSearchable(t *testing.T) {
	t.Parallel()
	e := keptNotes(t, 30)
	opt := e.opt
	opt.ReadOnlyUntilWrite = true
	ix, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	searched := false
	_, err = ix.Rebuild(ctx, func(p Progress) {
		if p.Files != 10 || searched {
			return
		}
		searched = true
		other, err := Open(opt) // another reader, as another process is
		if err != nil {
			t.Errorf("a second reader during the rebuild: %v", err)
			return
		}
		defer other.Close()
		for _, each := range []*Index{ix, other} {
			if res, err := each.Search(context.Background(), "keptword", SearchOptions{Limit: 100}); err != nil || res.Total != 30 {
				t.Errorf("during the rebuild: %+v %v", res, err)
			}
		}
		cancel()
	})
	if !errors.Is(err, context.Canceled) || !searched {
		t.Fatalf("rebuild: %v (searched %v)", err, searched)
	}
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || st.Unchanged != 30 || st.Docs != 30 {
		t.Fatalf("after the cancelled rebuild: %+v %v", st, err)
	}
	if st, err := ix.Rebuild(context.Background(), nil); err != nil || st.Indexed != 30 || st.Docs != 30 {
		t.Fatalf("rebuild: %+v %v", st, err)
	}
	if !ix.readOnly {
		t.Error("the rebuilt index is open to write: other processes would wait")
	}
	// A rebuild of a vault with no file left leaves an empty index.
	for i := range 30 {
		os.Remove(e.path(fmt.Sprintf("vault/n%02d.md", i)))
	}
	if st, err := ix.Rebuild(context.Background(), nil); err != nil || st.Docs != 0 {
		t.Fatalf("rebuild of nothing: %+v %v", st, err)
	}
}

// A search that finds changed files while another process has the index
// open searches it all the same, and the error says how stale it is.
func TestASearchAnswersFromAnIndexOthersHold(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\noldword\n")
	e.backdate(time.Now().Add(-72 * time.Hour)) // folders old enough to be recorded
	e.open().Close()
	opt := e.opt
	opt.ReadOnlyUntilWrite = true
	holder, err := Open(opt) // holds bolt's shared lock, as another search does
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	ix, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// A folder's mtime moved, no file changed: only the folder records
	// would be written, and they wait; the index is current.
	moved := time.Now().Add(-48 * time.Hour)
	os.Chtimes(e.path("vault"), moved, moved)
	if st, err := ix.Sync(context.Background(), nil); err != nil || st.Unchanged != 1 {
		t.Fatalf("no file changed: %+v %v", st, err)
	}
	e.write("vault/a.md", "# A\nnewword\n")
	e.write("vault/b.md", "# B\nnewword\n")
	_, err = ix.Sync(context.Background(), nil)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Stale != 2 || busy.Building || !strings.Contains(err.Error(), "misses the changes to 2 files") {
		t.Fatalf("sync: %v", err)
	}
	if hits := find(t, ix, "oldword"); len(hits) != 1 {
		t.Fatalf("the last complete index is not searched: %v", where(hits))
	}
	holder.Close()
	if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 2 {
		t.Fatalf("once free: %+v %v", st, err)
	}
	if hits := find(t, ix, "newword"); len(hits) != 2 {
		t.Fatalf("after the sync: %v", where(hits))
	}
}

// A plain search while another process rebuilds the index answers from
// the last complete index (it said "index busy"): at once when no file
// changed, and with one line saying how stale it is when some did.
func TestASearchDuringAnotherProcesssRebuild(t *testing.T) {
	t.Parallel()
	e := keptNotes(t, 5)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRebuild$")
	cmd.Env = append(os.Environ(), "CVTUI_REBUILD_INDEX="+e.opt.Dir, "CVTUI_REBUILD_VAULT="+e.opt.Roots[0].Dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "building\n" {
		t.Fatalf("helper: %q %v", line, err)
	}
	opt := Options{Dir: e.opt.Dir, Roots: e.opt.Roots[:1], BusyTimeout: e.opt.BusyTimeout, ReadOnlyUntilWrite: true}
	search := func() ([]string, error) {
		ix, err := Open(opt)
		if err != nil {
			return nil, err
		}
		defer ix.Close()
		_, err = ix.Sync(context.Background(), nil)
		return where(find(t, ix, "keptword")), err
	}
	hits, err := search()
	if err != nil || len(hits) != 5 {
		t.Fatalf("no file changed: %v %v", hits, err)
	}
	e.write("vault/n00.md", "# N0\nchangedword\n")
	hits, err = search()
	var busy *BusyError
	if !errors.As(err, &busy) || !busy.Building || busy.Stale != 1 || !slices.Contains(hits, "n00.md:2") {
		t.Fatalf("a file changed: %v, hits %v", err, hits)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if hits, err := search(); err != nil || len(hits) != 4 {
		t.Fatalf("after the rebuild: %v %v", hits, err)
	}
	if _, err := os.Stat(e.opt.Dir + ".build.lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the build lock is left: %v", err)
	}
}

// TestHelperRebuild is the other process of
// TestASearchDuringAnotherProcesssRebuild: it rebuilds the index, and
// waits in the middle of the build until its stdin closes.
func TestHelperRebuild(t *testing.T) {
	dir := os.Getenv("CVTUI_REBUILD_INDEX")
	if dir == "" {
		t.Skip("run by TestASearchDuringAnotherProcesssRebuild")
	}
	opt := Options{Dir: dir, Roots: []Root{{ID: "vault", Kind: VaultRoot, Dir: os.Getenv("CVTUI_REBUILD_VAULT")}}, ReadOnlyUntilWrite: true, BusyTimeout: 10 * time.Second}
	ix, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	waited := false
	_, err = ix.Rebuild(context.Background(), func(p Progress) {
		if !waited && p.Path != "" {
			waited = true
			fmt.Println("building")
			bufio.NewReader(os.Stdin).ReadString('\n') // until stdin closes
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "store")); err != nil {
		t.Fatal(err)
	}
}
