package store

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/transcript"
)

// importCasesDir holds the leftover-JSONL cases and the stores the real
// importers made of them (conformance/openclaw-import.sh).
const importCasesDir = "testdata/import"

// importedDir holds the real importers' stores of the cases: the committed
// ones, or those `make conformance` just made (CONFORMANCE_IMPORT_DIR).
func importedDir() string {
	if dir := os.Getenv("CONFORMANCE_IMPORT_DIR"); dir != "" {
		return dir
	}
	return importCasesDir
}

// importedStore writes the store openclaw@version's importer made of the
// cases into dir's agents/main/agent/, and opens it.
func importedStore(t *testing.T, dir, version string) *agentdb.DB {
	t.Helper()
	z, err := os.ReadFile(filepath.Join(importedDir(), "openclaw-"+version+".sqlite.zst"))
	if err != nil {
		t.Fatal(err)
	}
	dec, _ := zstd.NewReader(nil)
	data, err := dec.DecodeAll(z, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agents", "main", "agent", "openclaw-agent.sqlite")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := agentdb.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// importCase is one case file and the session the importers made of it.
type importCase struct {
	name, path, sessionID, key string
}

func importCases(t *testing.T) []importCase {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(importCasesDir, "[0-9][0-9]-*.jsonl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	var out []importCase
	for _, p := range names {
		n := filepath.Base(p)[:2]
		out = append(out, importCase{name: strings.TrimSuffix(filepath.Base(p), ".jsonl"), path: p,
			sessionID: "7e1c0000-0000-4000-8000-0000000000" + n, key: "agent:main:direct:import-" + n})
	}
	return out
}

// loader loads a store's ids into the events of the check.
func loader(db *agentdb.DB) func(*model.ImportEvents) error {
	return func(e *model.ImportEvents) error { return db.LoadImportIDs(context.Background(), e) }
}

func checkCase(t *testing.T, db *agentdb.DB, c importCase, path string, cursor int64) model.ImportCheck {
	t.Helper()
	key := ""
	windows, err := db.Windows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range windows {
		if w.SessionID == c.sessionID {
			key = w.Key
		}
	}
	events, err := db.ImportEvents(context.Background(), c.sessionID, key, 0)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := CompareImport(context.Background(), OS, path, path, events, loader(db), cursor, transcript.DefaultMaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// wantImport is each case's verdict against the store its importer made,
// for both versions, and the line it names.
var wantImport = map[string]struct {
	code model.DiagnosisCode
	line int
}{
	"05-duplicates": {model.CodeImportDiffers, 5},    // the importer kept line 2's e0000001, not line 5's
	"08-malformed":  {model.CodeImportIncomplete, 4}, // the importer stopped at line 3
	"15-utf8":       {model.CodeImportIncomplete, 1}, // ... and at the first chunk: nothing
	"19-repeats":    {model.CodeImportDiffers, 5},    // line 5 has line 4's id, other content
}

// TestImportCheckAgainstTheRealImporter: every case file, compared with
// the store the real importer of 2026.9.6 and of 2026.9.5 made of it, is
// import-verified, but for the entries the importer never read and those
// whose id an earlier line holds with other content (the importer keeps
// the first: the store lacks what the later one says).
func TestImportCheckAgainstTheRealImporter(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2026.9.6", "2026.9.5"} {
		db := importedStore(t, t.TempDir(), v)
		for _, c := range importCases(t) {
			ch := checkCase(t, db, c, c.path, -1)
			want, ok := wantImport[c.name]
			if !ok {
				want.code = model.CodeImportVerified
			}
			line := ch.FirstAbsentLine + ch.FirstDiffersLine
			if ch.Verdict != want.code || line != want.line || ch.Err != "" {
				d := ch.Diagnosis("openclaw-agent.sqlite")
				t.Errorf("%s, %s: %s at line %d, want %s at line %d: %s", v, c.name, ch.Verdict, line, want.code, want.line, d.Message)
			}
		}
	}
}

// TestImportNormalizerMakesTheStoredEvents: the events the normalizer
// makes of each case, with the importer's other rules (a falsy value
// skipped, reading stopped at the first line that does not parse or the
// first 64 KiB chunk that is not UTF-8, an event identical to one stored
// or of an id one holds not stored again), are the store's events, byte
// for byte and in order.
func TestImportNormalizerMakesTheStoredEvents(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2026.9.6", "2026.9.5"} {
		db := importedStore(t, t.TempDir(), v)
		for _, c := range importCases(t) {
			var stored []string
			err := db.Events(context.Background(), c.sessionID, -1, 0, func(ev agentdb.Event) bool {
				stored = append(stored, string(ev.Text))
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			events, err := db.ImportEvents(context.Background(), c.sessionID, c.key, 0)
			if err == nil {
				err = db.LoadImportIDs(context.Background(), events)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := simulateImport(t, c.path, c.sessionID, events.V1Prefix())
			if strings.Join(got, "\n") != strings.Join(stored, "\n") {
				t.Errorf("%s, %s: the normalizer makes\n%s\nthe importer stored\n%s", v, c.name, strings.Join(got, "\n"), strings.Join(stored, "\n"))
			}
		}
	}
}

// simulateImport is the importer's reading of a file, with the normalizer.
func simulateImport(t *testing.T, path, sessionID, v1Prefix string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bad := firstInvalidUTF8(data); bad >= 0 {
		data = data[:bad/65536*65536]
		data = data[:bytes.LastIndexByte(data, '\n')+1]
	}
	var records []*jscompat.Value
	for _, line := range bytes.Split(data, []byte("\n")) {
		text := model.TrimJSSpaceBytes(line)
		if len(text) == 0 {
			continue
		}
		v, err := jscompat.ParseJSON(text)
		if err != nil {
			break
		}
		if v.Truthy() {
			records = append(records, v)
		}
	}
	plan := model.ImportPlan{SessionID: sessionID, HeaderIndex: -1, Version: 1, V1Prefix: v1Prefix}
	for i, v := range records {
		if plan.PlanRecord(i, v) {
			break
		}
	}
	n := model.ImportNormalizer{Plan: plan}
	var out []string
	seen, ids := map[string]bool{}, map[string]bool{}
	for i, v := range records {
		event, id := n.Normalize(i, v)
		if seen[string(event)] || id != "" && ids[id] {
			continue
		}
		seen[string(event)], ids[id] = true, id != ""
		out = append(out, string(event))
	}
	return out
}

// firstInvalidUTF8 is the offset of the first byte that is not UTF-8, -1
// for none.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// The bytes of each table and index of the stores the real importers
// wrote are what SQLite's dbstat in Node 24's node:sqlite counted
// (conformance/openclaw-import.sh), read from the file itself.
func TestSpaceAgreesWithNodesDbstat(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2026.9.6", "2026.9.5"} {
		var want map[string]int64
		data, err := os.ReadFile(filepath.Join(importedDir(), "openclaw-"+v+".dbstat.json"))
		if err == nil {
			err = json.Unmarshal(data, &want)
		}
		if err != nil {
			t.Fatal(err)
		}
		db := importedStore(t, t.TempDir(), v)
		sp, err := db.Space(context.Background(), 5)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, o := range sp.Objects {
			got[o.Name] = o.Bytes
		}
		if !maps.Equal(got, want) {
			for name, n := range want {
				if got[name] != n {
					t.Errorf("%s, %s: %d bytes, dbstat %d", v, name, got[name], n)
				}
			}
			t.Errorf("%s: %d objects, dbstat %d", v, len(got), len(want))
		}
	}
}
