package observer

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// The plan says, per file, how much no sweep has observed; an apply keeps
// such transcripts, and their rows, until a sweep has observed them
// (before, it moved stale sessions with everything they still held out of
// every sweep's reach); --include-unobserved moves them and says how much.
func TestApplyKeepsWhatNoSweepObserved(t *testing.T) {
	t.Parallel()
	m, ws := retentionDemo(t)
	p := planDemo(t, ws, func(o *RetentionOptions) { o.FixMissing = true })
	var held []model.FilePlan
	for _, mp := range p.Maintenance {
		for _, f := range mp.Files {
			if f.Held() {
				held = append(held, f)
			}
		}
	}
	if len(held) == 0 {
		t.Fatal("the demo's plan moves no unobserved transcript")
	}
	archive := t.TempDir()
	man, _, err := ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: archive, Now: retentionNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range held {
		if _, err := os.Stat(f.Path); err != nil {
			t.Errorf("%s (%d bytes unobserved) was moved", f.Name, f.Unobserved)
		}
		for _, s := range man.Stores {
			if f.Key != "" && slices.Contains(s.RemovedKeys, f.Key) {
				t.Errorf("the row %s of a kept transcript was removed", f.Key)
			}
		}
	}
	if n, b := man.KeptBytes(); n != len(held) || b == 0 {
		t.Errorf("kept %d files, %d bytes; want %d files", n, b, len(held))
	}

	// A second plan: the kept ones are still there to move; with
	// --include-unobserved they go, and the manifest says what they held.
	p = planDemo(t, planWorkspace(t, m), func(o *RetentionOptions) { o.FixMissing = true })
	man, _, err = ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: archive, Now: retentionNow.Add(time.Hour), IncludeUnobserved: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range held {
		if _, err := os.Stat(f.Path); err == nil {
			t.Errorf("%s stays with --include-unobserved", f.Name)
		}
	}
	if man.UnobservedMoved == 0 || len(man.Kept) != 0 {
		t.Errorf("unobserved moved %d, kept %v", man.UnobservedMoved, man.Kept)
	}
}

// Apply and undo take the vault's sweep lock: while a sweep holds it they
// refuse at once (or wait, saying so, until it is free). Before, an apply
// archived transcripts in the middle of a sweep.
func TestApplyAndUndoTakeTheSweepLock(t *testing.T) {
	t.Parallel()
	m, ws := retentionDemo(t)
	p := planDemo(t, ws, func(o *RetentionOptions) { o.FixMissing = true })
	archive := t.TempDir()
	unlock, err := store.LockVault(m.VaultDir, store.CurrentOwner("clawvault-tui observe", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	var busy *store.BusyError
	if _, _, err := ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: archive, IncludeUnobserved: true}); !errors.As(err, &busy) || busy.Owner.PID != os.Getpid() {
		t.Fatalf("apply while a sweep runs: %v", err)
	}
	if entries, _ := os.ReadDir(archive); len(entries) != 0 {
		t.Fatalf("a busy apply wrote %v", entries)
	}
	// Waiting: the sweep ends while the apply waits.
	waited := make(chan store.LockOwner, 1)
	go func() {
		owner := <-waited
		if owner.Command != "clawvault-tui observe" {
			t.Errorf("waits for %+v", owner)
		}
		unlock()
	}()
	man, path, err := ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: archive, IncludeUnobserved: true,
		Wait: time.Minute, OnWait: func(o store.LockOwner) { waited <- o }})
	if err != nil || man.Status != model.ManifestApplied {
		t.Fatalf("apply after waiting: %v", err)
	}
	// Undo, the same.
	unlock, err = store.LockVault(m.VaultDir, store.CurrentOwner("clawvault-tui observe", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UndoRetention(context.Background(), path, ApplyOptions{Workspace: ws}); !errors.As(err, &busy) || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("undo while a sweep runs: %v", err)
	}
	unlock()
	if _, err := UndoRetention(context.Background(), path, ApplyOptions{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
}
