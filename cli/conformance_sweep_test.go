package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// copyTree copies a folder (files and modes; symlinks as links).
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
}

// sweepFixture is conformance/sweep-fixture.mjs: the listed sessions'
// transcripts and a sessions.json with their rows.
func sweepFixture(t *testing.T, demoSessions, to string) {
	t.Helper()
	list, err := os.ReadFile(filepath.Join("..", "conformance", "sweep-sessions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(demoSessions, "sessions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows map[string]json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(to, 0o755)
	out := map[string]json.RawMessage{}
	for _, key := range strings.Split(string(list), "\n") {
		if key = strings.TrimSpace(key); key == "" || strings.HasPrefix(key, "#") {
			continue
		}
		var row struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(rows[key], &row); err != nil || row.SessionID == "" {
			t.Fatalf("the demo has no session %s", key)
		}
		out[key] = rows[key]
		src := filepath.Join(demoSessions, row.SessionID+".jsonl")
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, row.SessionID+".jsonl"), b, 0o644)
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	os.WriteFile(filepath.Join(to, "sessions.json"), b, 0o644)
}

// TestConformanceClawVaultSweep: with ClawVault's behaviour (no fixes) and
// the same clock, a sweep of the listed demo sessions writes exactly the
// files ClawVault 3.5.2 wrote (testdata/conformance/clawvault-sweep), and
// changes no other file of the vault.
func TestConformanceClawVaultSweep(t *testing.T) {
	t.Parallel()
	demoDir := conformanceDemo(t)
	goldens := filepath.Join(conformanceDir(), "clawvault-sweep")
	work := t.TempDir()
	sessions := filepath.Join(work, "sessions")
	sweepFixture(t, filepath.Join(demoDir, "state", "agents", "main", "sessions"), sessions)
	vault := filepath.Join(work, "vault")
	copyTree(t, filepath.Join(demoDir, "vault"), vault)

	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: work, Cwd: work},
		store.LocateOptions{SessionsDir: sessions, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	now := conformanceNow(t)
	report, err := observer.Sweep(context.Background(), observer.SweepOptions{Workspace: ws, MinNewBytes: 1,
		Fixes: &observer.Fixes{}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Observed) < 5 || len(report.Failed) > 0 {
		t.Fatalf("observed %d, failed %+v", len(report.Observed), report.Failed)
	}

	want := map[string]string{}
	filepath.WalkDir(goldens, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(goldens, p)
			b, _ := os.ReadFile(p)
			want[rel] = string(b)
		}
		return err
	})
	if len(want) < 10 {
		t.Fatalf("only %d golden files", len(want))
	}
	orig := filepath.Join(demoDir, "vault")
	filepath.WalkDir(vault, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(vault, p)
		got, _ := os.ReadFile(p)
		if w, ok := want[rel]; ok {
			if string(got) != w {
				t.Errorf("%s differs from ClawVault's:\n%s", rel, firstDiff(string(got), w))
			}
			delete(want, rel)
			return nil
		}
		if before, err := os.ReadFile(filepath.Join(orig, rel)); err != nil || string(before) != string(got) {
			t.Errorf("%s was written, ClawVault leaves it alone", rel)
		}
		return nil
	})
	for rel := range want {
		t.Errorf("ClawVault writes %s, we do not", rel)
	}
}

// firstDiff shows where two texts part.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  ours:      %s\n  ClawVault: %s", i+1, a, b)
		}
	}
	return "(same lines)"
}

// TestConformanceNothingLeftAfterOurSweep: after our sweep of the whole demo
// (fixes on, ClawVault's thresholds), ClawVault's dry run finds nothing
// (testdata/conformance/clawvault/after-our-sweep.txt, made live by
// conformance/run.sh), and neither does ours.
func TestConformanceNothingLeftAfterOurSweep(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	now := conformanceNow(t).Format(time.RFC3339)
	if _, errOut, code := runCLI(t, "observe", "--state-dir", state, "-v", vault, "--now", now); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	want, err := os.ReadFile(filepath.Join(conformanceDir(), "clawvault", "after-our-sweep.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// ClawVault's dry run takes agent main; ours, every agent unless told.
	out, errOut, code := runCLI(t, "observe", "--dry-run", "--agent", "main", "--state-dir", state, "-v", vault)
	if code != 0 || out != string(want) {
		t.Errorf("after our sweep we print %q (exit %d, %s); ClawVault prints %q", out, code, errOut, want)
	}
}
