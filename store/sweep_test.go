package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLockVault(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	owner := CurrentOwner("clawvault-tui observe", time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	unlock, err := LockVault(vault, owner)
	if err != nil {
		t.Fatal(err)
	}
	// The lock belongs to an open file: a second claim, even from this process, is busy.
	_, err = LockVault(vault, CurrentOwner("second", time.Now()))
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Owner.PID != os.Getpid() || !strings.Contains(err.Error(), "is busy") ||
		!strings.Contains(err.Error(), "clawvault-tui observe") {
		t.Fatalf("second sweep: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(SweepLockFile(vault)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file stays after unlock: %v", err)
	}
	unlock, err = LockVault(vault, owner)
	if err != nil {
		t.Fatalf("after unlock the vault is free: %v", err)
	}
	unlock()
}

// A lock file left by a process that died holds no lock: it is taken over.
func TestLockVaultStaleFile(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	os.MkdirAll(filepath.Dir(SweepLockFile(vault)), 0o755)
	os.WriteFile(SweepLockFile(vault), []byte(`{"pid":999999,"host":"gone"}`), 0o644)
	unlock, err := LockVault(vault, CurrentOwner("x", time.Now()))
	if err != nil {
		t.Fatalf("a stale lock file blocks: %v", err)
	}
	unlock()
}

func TestPendingAppend(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "raw", "21.jsonl")
	mkfile(t, log, "old line\n")
	a, err := BeginAppend(OSWriter, OS, log)
	if err != nil {
		t.Fatal(err)
	}
	a.Write([]byte("one\n"))
	mark := a.Mark()
	a.Write([]byte("a session that failed\n"))
	if err := a.Rollback(mark); err != nil {
		t.Fatal(err)
	}
	a.Write([]byte("two\n"))
	if data, _ := os.ReadFile(log); string(data) != "old line\n" {
		t.Errorf("the log changed before the commit: %q", data)
	}
	if err := a.Prepare(); err != nil {
		t.Fatal(err)
	}
	off, n, crc := a.Region()
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(log); string(data) != "old line\none\ntwo\n" {
		t.Errorf("log = %q", data)
	}
	if ok, err := RegionHolds(OS, log, off, n, crc); !ok || err != nil {
		t.Errorf("the journal check does not find the append: %v %v", ok, err)
	}
	if ok, _ := RegionHolds(OS, log, off, n, crc+1); ok {
		t.Error("the journal check accepts other bytes")
	}
	if entries, _ := os.ReadDir(filepath.Dir(log)); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

// Another writer (ClawVault) appends while our append is pending: its
// lines are kept, ours follow.
func TestPendingAppendConcurrentWriter(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "21.jsonl")
	mkfile(t, log, "a\n")
	p, err := BeginAppend(OSWriter, OS, log)
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("ours\n"))
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("theirs\n")
	f.Close()
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	off, n, crc := p.Region()
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(log); string(data) != "a\ntheirs\nours\n" {
		t.Errorf("log = %q", data)
	}
	if ok, _ := RegionHolds(OS, log, off, n, crc); !ok {
		t.Error("the region moved with the rebuild but the journal data did not")
	}
}

func TestPendingAppendDiskFull(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "21.jsonl")
	mkfile(t, log, "kept\n")
	a, err := BeginAppend(&failingWriter{WriteFS: OSWriter, budget: 8}, OS, log)
	if err != nil {
		t.Fatal(err)
	}
	a.Write([]byte(strings.Repeat("x", 2<<20)))
	if err := a.Prepare(); err == nil {
		t.Fatal("a full disk went unnoticed")
	}
	a.Abort()
	if data, _ := os.ReadFile(log); string(data) != "kept\n" {
		t.Errorf("the log was damaged: %q", data)
	}
	if entries, _ := os.ReadDir(filepath.Dir(log)); len(entries) != 1 {
		t.Errorf("a torn temp file was left: %v", entries)
	}
}

func TestJournal(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	if j, err := LoadJournal(OS, vault); j != nil || err != nil {
		t.Fatalf("no journal: %v %v", j, err)
	}
	j := &Journal{Version: 1, Appends: []JournalAppend{{Path: "p", Offset: 1, Length: 2, CRC32C: 3}},
		Cursors: []JournalCursor{{SessionID: "s", LastObservedOffset: 10, Append: 0}}}
	if err := SaveJournal(OSWriter, vault, j); err != nil {
		t.Fatal(err)
	}
	got, err := LoadJournal(OS, vault)
	if err != nil || got.Appends[0].CRC32C != 3 || got.Cursors[0].SessionID != "s" {
		t.Fatalf("got %+v, %v", got, err)
	}
	os.WriteFile(JournalFile(vault), []byte("{torn"), 0o644)
	_, err = LoadJournal(OS, vault)
	if refused, ok := errors.AsType[*JournalRefusedError](err); !ok || !strings.Contains(refused.Reason, "does not parse") {
		t.Errorf("a corrupt journal: %v", err)
	}
	if err := RemoveJournal(OSWriter, vault); err != nil {
		t.Fatal(err)
	}
	if err := RemoveJournal(OSWriter, vault); err != nil {
		t.Errorf("removing twice: %v", err)
	}
}

func TestLLMConfigDuration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte("[llm]\nprovider = \"openai\"\nbase_url = \"http://localhost:11434/v1\"\ntimeout = \"2m30s\"\nretries = 0\n"), 0o644)
	cfg, err := LoadConfig(path)
	if err != nil || time.Duration(cfg.LLM.Timeout) != 150*time.Second || cfg.LLM.Retries != 0 || cfg.LLM.ChunkTokens != 30000 {
		t.Fatalf("cfg = %+v, %v", cfg.LLM, err)
	}
	os.WriteFile(path, []byte("[llm]\ntimeout = \"soon\"\n"), 0o644)
	if _, err := LoadConfig(path); err == nil || !strings.Contains(err.Error(), "not a duration") {
		t.Errorf("a bad duration: %v", err)
	}
}
