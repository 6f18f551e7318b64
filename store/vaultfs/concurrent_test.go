//go:build linux

package vaultfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Other writers are normal. Two write MEMORY.md every 2 ms while we save
// it over and over: one appends (through a descriptor it sometimes keeps
// open across two writes), the other is an editor that renames a new
// version in. They take turns with each other (a lock of their own),
// never with us, and the editor notes what it throws away itself, so
// every other line of theirs that goes missing was lost by us.

// stressTime is how long each stress test runs.
const stressTime = 2 * time.Second

type foreignWriters struct {
	path  string
	mu    sync.Mutex // the two writers' turns; we never take it
	lines []string   // every line they wrote
	// thrownAway are lines the editor itself threw away, renaming over
	// a version it had not read (see renameVersions).
	thrownAway []string
}

func (f *foreignWriters) appendLines(ctx context.Context, t *testing.T) {
	for n := 0; ctx.Err() == nil; n++ {
		f.mu.Lock()
		fh, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			f.mu.Unlock()
			t.Error(err)
			return
		}
		f.write(t, fh, fmt.Sprintf("- A%d appended", n))
		if n%4 == 0 {
			// Still open: this one may land in a file we displaced.
			time.Sleep(time.Millisecond)
			f.write(t, fh, fmt.Sprintf("- A%d appended late", n))
		}
		fh.Close()
		f.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
}

func (f *foreignWriters) write(t *testing.T, fh *os.File, line string) {
	if _, err := fh.WriteString(line + "\n"); err != nil {
		t.Error(err)
	}
	f.lines = append(f.lines, line)
}

// renameVersions is an editor that saves by rename, as editors do: it
// reads the file, writes its new version beside it, checks that the file
// is still the one it read (vim's and VS Code's "changed since it was
// read") and renames its version over it; if the file changed, it reads
// it again. Between its check and its rename, another writer can still
// slip in, and the editor then throws that writer's version away: no
// writer can prevent that. So that the test can tell those lines (lost by
// the editor) from lines lost by us, the editor puts its version in with
// an exchange instead of a rename, which keeps what it replaced, and
// notes the lines it threw away.
func (f *foreignWriters) renameVersions(ctx context.Context, t *testing.T) {
	tmp := filepath.Join(filepath.Dir(f.path), "editor-swap.tmp")
	for n := 0; ctx.Err() == nil; n++ {
		line := fmt.Sprintf("- R%d renamed in", n)
		f.mu.Lock()
		if err := f.renameOnce(tmp, line); err != nil {
			f.mu.Unlock()
			t.Error(err)
			return
		}
		f.lines = append(f.lines, line)
		f.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
}

func (f *foreignWriters) renameOnce(tmp, line string) error {
	for {
		before, err := os.Stat(f.path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		mine := append(data, line+"\n"...)
		if err := os.WriteFile(tmp, mine, 0o644); err != nil {
			return err
		}
		if now, err := os.Stat(f.path); err != nil || !os.SameFile(before, now) {
			continue // changed since it was read
		}
		if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, f.path, unix.RENAME_EXCHANGE); err != nil {
			return err
		}
		// What it replaced is what it read unless another writer slipped
		// in (compared by content: an inode number is reused at once).
		if gone, _ := os.ReadFile(tmp); !bytes.Equal(gone, data) {
			for _, l := range strings.SplitAfter(string(gone), "\n") {
				if l != "" && !strings.Contains(string(mine), l) {
					f.thrownAway = append(f.thrownAway, strings.TrimSuffix(l, "\n"))
				}
			}
		}
		return os.Remove(tmp)
	}
}

// stress runs the two writers and ours (one save per call of save, which
// says what it added) for stressTime, then checks that every line of
// theirs is in the file once, and ours at most once.
func stress(t *testing.T, f *fixture, save func(n int) (added string, err error)) {
	w := &foreignWriters{path: filepath.Join(f.ws, "MEMORY.md")}
	write(t, w.path, "# MEMORY.md\n\n## Decisions\n- Invoices are immutable.\n\n## Log\n")
	ctx, stop := context.WithTimeout(context.Background(), stressTime)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { w.appendLines(ctx, t) })
	wg.Go(func() { w.renameVersions(ctx, t) })
	var ours []string
	failed := 0
	for n := 0; ctx.Err() == nil; n++ {
		added, err := save(n)
		switch {
		case errors.Is(err, ErrConflict):
			failed++ // the editor's way: nothing written, try again
		case err != nil:
			t.Fatal(err)
		default:
			ours = append(ours, added)
		}
	}
	wg.Wait()
	text := read(t, w.path)
	lost := 0
	for _, l := range w.lines {
		c := strings.Count(text, l+"\n")
		if c == 0 && slices.Contains(w.thrownAway, l) {
			continue // the editor's doing
		}
		if c != 1 {
			lost++
			t.Errorf("%q is in the file %d times", l, c)
		}
	}
	kept := 0
	for _, l := range ours {
		c := strings.Count(text, l+"\n")
		if c > 1 {
			t.Errorf("ours %q is in the file %d times", l, c)
		}
		kept += c
	}
	// Ours can be lost by the editor too (it read the file before we
	// saved, or threw ours away): that is its doing, not ours.
	t.Logf("%d lines of the other writers, %d lost by us, %d thrown away by the editor; %d saves of ours, %d of them still there, %d conflicts",
		len(w.lines), lost, len(w.thrownAway), len(ours), kept, failed)
	if len(ours) == 0 {
		t.Error("no save of ours succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(f.ws, ".MEMORY.md.clawvault-tui-*")); len(left) > 0 {
		t.Errorf("left %v", left)
	}
	if len(w.thrownAway) > len(w.lines)/10 {
		t.Errorf("the editor threw away %d of %d lines: its window between check and rename is an instant, which ours hit far too often", len(w.thrownAway), len(w.lines))
	}
}

func TestPromoteLosesNoConcurrentLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	stress(t, f, func(n int) (string, error) {
		text := fmt.Sprintf("P%d promoted", n)
		_, err := f.space.Promote("main", "Decisions", text, false)
		return "- " + text, err
	})
}

func TestSaveLosesNoConcurrentLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	stress(t, f, func(n int) (string, error) {
		doc, err := f.space.Read(path)
		if err != nil {
			return "", err
		}
		line := fmt.Sprintf("- S%d saved", n)
		edited := strings.Replace(string(doc.Data), "## Decisions\n", "## Decisions\n"+line+"\n", 1)
		_, err = f.space.Save(path, []byte(edited), doc.Version)
		return line, err
	})
}
