package serve

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"clawvault-tui/store"
)

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func readAudit(t *testing.T, path string) []AuditRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []AuditRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("an audit line that is not JSON: %q", sc.Text())
		}
		out = append(out, r)
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// An action records, through the seams the store writes by, each file it
// changed: an atomic write, a new file, a move (link and unlink), a file
// removed; its own temp files and lock files are not changes.
func TestActionRecordsWritesAndMoves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := OpenAuditLog(filepath.Join(dir, "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.now = func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }
	memory, fresh := filepath.Join(dir, "MEMORY.md"), filepath.Join(dir, "new.md")
	moved, archived := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "archive", "old.jsonl")
	os.WriteFile(memory, []byte("before\n"), 0o644)
	os.WriteFile(moved, []byte("transcript\n"), 0o644)
	who := Who{Key: Key{Fingerprint: "SHA256:abc", Comment: "bo@desk", Role: RoleCurate}, Remote: "127.0.0.1:5555"}
	a := l.Begin(who, "retention-apply", []string{"retention", "--apply"})
	w, m := a.WriteFS(store.OSWriter), a.MoveFS(store.OSMover)
	if err := store.WriteFileAtomic(w, memory, []byte("after\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := store.WriteFileAtomic(w, fresh, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := store.MoveFile(m, moved, archived); err != nil {
		t.Fatal(err)
	}
	release, err := store.LockSessionStore(m, filepath.Join(dir, "sessions.json"))
	if err != nil {
		t.Fatal(err)
	}
	release()
	if err := a.End(errors.New("stopped")); err != nil {
		t.Fatal(err)
	}
	recs := readAudit(t, l.Path())
	if len(recs) != 1 {
		t.Fatalf("%d lines, want 1", len(recs))
	}
	r := recs[0]
	if r.Time != "2026-11-21T12:00:00Z" || r.Fingerprint != "SHA256:abc" || r.Comment != "bo@desk" || r.Role != "curate" ||
		r.Remote != "127.0.0.1:5555" || r.Action != "retention-apply" || strings.Join(r.Command, " ") != "retention --apply" || r.Error != "stopped" {
		t.Errorf("the record: %+v", r)
	}
	want := []string{
		memory + " " + sha("before\n") + " " + sha("after\n"),
		fresh + " null " + sha("new\n"),
		archived + " null " + sha("transcript\n"),
		moved + " " + sha("transcript\n") + " null",
	}
	var got []string
	for _, f := range r.Files {
		got = append(got, f.Path+" "+str(f.Before)+" "+str(f.After))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestConcurrentActionsWriteWholeLines(t *testing.T) {
	t.Parallel()
	l, err := OpenAuditLog(filepath.Join(t.TempDir(), "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := l.Begin(Who{Key: Key{Comment: strings.Repeat("x", 5000+i)}}, "save", nil)
			if err := a.End(nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(readAudit(t, l.Path())); n != 16 {
		t.Errorf("%d lines, want 16", n)
	}
}

func TestLoginLimiter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLoginLimiter(3, time.Minute)
	l.now = func() time.Time { return now }
	for _, step := range []struct {
		advance time.Duration
		fail    string
		allowed map[string]bool
	}{
		{0, "a", map[string]bool{"a": true, "b": true}},
		{10 * time.Second, "a", map[string]bool{"a": true}},
		{10 * time.Second, "a", map[string]bool{"a": false, "b": true}},
		{30 * time.Second, "", map[string]bool{"a": false}}, // 50 s after the first
		{11 * time.Second, "", map[string]bool{"a": true}},  // the first left the window
		{0, "a", map[string]bool{"a": false}},
		{2 * time.Minute, "", map[string]bool{"a": true}},
	} {
		now = now.Add(step.advance)
		if step.fail != "" {
			l.failed(step.fail)
		}
		for host, want := range step.allowed {
			if got := l.allowed(host); got != want {
				t.Errorf("at %s: %s allowed %v, want %v", now.Format(time.TimeOnly), host, got, want)
			}
		}
	}
}
