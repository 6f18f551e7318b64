package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
)

func TestResolveSessionGenerations(t *testing.T) {
	t.Parallel()
	state, vault, current, old := sqliteFixture(t)
	sessions := filepath.Join(state, "agents", "main", "sessions")
	live, archived := "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"
	header := func(id string) string {
		return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}` + "\n"
	}
	mkfile(t, filepath.Join(sessions, live+".jsonl"), header(live)+string(event("c0000001", "", 1, "live"))+"\n")
	mkfile(t, filepath.Join(sessions, archived+".jsonl.reset.2026-11-19T05-47-00.000Z"), header(archived)+string(event("c0000002", "", 1, "before /new"))+"\n")
	mkfile(t, filepath.Join(sessions, "sessions.json"), `{"agent:main:main": {"sessionId": "`+live+`", "updatedAt": 2}}`)
	mkfile(t, filepath.Join(vault, ".clawvault", "observe-cursors.json"),
		`{"`+archived+`": {"lastObservedOffset": 10, "lastObservedAt": "2026-11-18T00:00:00.000Z", "sessionKey": "agent:main:main", "lastFileSize": 10}}`)
	snap := scanAt(t, state, vault)
	for _, c := range []struct {
		arg, want string
		others    []string
	}{
		// A key with a /new archive beside its live file: the live one.
		{"agent:main:main", live, []string{archived}},
		// A SQLite-era key with two generations: the current one.
		{"agent:ops:main", current, []string{old}},
		// A session id names that generation, current or not.
		{old, old, nil},
		{archived[:13], archived, nil},
	} {
		target, err := ResolveSession(snap, c.arg)
		if err != nil {
			t.Errorf("%s: %v", c.arg, err)
			continue
		}
		var others []string
		for _, o := range target.Others {
			others = append(others, o.SessionID)
		}
		if target.Row.SessionID != c.want || strings.Join(others, " ") != strings.Join(c.others, " ") {
			t.Errorf("%s: %s, others %v; want %s, %v", c.arg, target.Row.SessionID, others, c.want, c.others)
		}
	}
	if _, err := ResolveSession(snap, "agent:main:nobody"); err == nil || !strings.Contains(err.Error(), "no file and no session") {
		t.Errorf("an unknown key: %v", err)
	}

	// Each resolves to a transcript that opens: a file, a SQLite session.
	for _, arg := range []string{"agent:main:main", "agent:ops:main", archived} {
		target, _ := ResolveSession(snap, arg)
		ix, err := OpenTranscript(context.Background(), transcript.NewCache(), target.Row, transcript.Options{})
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if ix.Tree.Nodes == 0 || ix.Tree.Leaf < 0 {
			t.Errorf("%s: %d entries, leaf %d", arg, ix.Tree.Nodes, ix.Tree.Leaf)
		}
		if target.Row.Origin == model.OriginSQLite && (ix.Tree.Rules != model.RulesOpenClaw || ix.Tree.Nodes != 59 || !strings.HasSuffix(ix.Path, "#"+current)) {
			t.Errorf("the SQLite session: %s, rules %v, %d entries", ix.Path, ix.Tree.Rules, ix.Tree.Nodes)
		}
	}
}

// TestZstdArchiveReads: a .jsonl.deleted.<ts>.zst archive (OpenClaw 2026.9
// derives them from its store) is a status row that opens as a transcript.
func TestZstdArchiveReads(t *testing.T) {
	t.Parallel()
	state, vault := workspaceFixture(t)
	id := "cccccccc-0000-4000-8000-000000000003"
	data := `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}` + "\n" + string(event("d0000001", "", 1, "deleted words")) + "\n"
	enc, _ := zstd.NewWriter(nil)
	mkfile(t, filepath.Join(state, "agents", "main", "sessions", id+".jsonl.deleted.2026-11-19T05-47-00.000Z.zst"), string(enc.EncodeAll([]byte(data), nil)))
	enc.Close()
	snap := scanAt(t, state, vault)
	target, err := ResolveSession(snap, id)
	if err != nil {
		t.Fatal(err)
	}
	r := TranscriptReader(transcript.NewCache(), target.Row)
	ix, err := r.Index(context.Background(), transcript.Options{})
	if err != nil || ix.Tree.LeafID() != "d0000001" {
		t.Fatalf("index %v", err)
	}
	if b, err := r.Body(context.Background(), ix.Entries[1]); err != nil || b.Text() != "deleted words" {
		t.Errorf("body %+v, %v", b, err)
	}
	mkfile(t, target.Row.File, "not zstd at all")
	if _, err := TranscriptReader(transcript.NewCache(), target.Row).Index(context.Background(), transcript.Options{}); err == nil || !strings.Contains(err.Error(), "does not decode") {
		t.Errorf("a damaged archive: %v", err)
	}
}

// OpenTranscript indexes a row's transcript through TranscriptReader.
func OpenTranscript(ctx context.Context, cache *transcript.Cache, r model.SessionRow, opt transcript.Options) (*transcript.Index, error) {
	if r.Origin == model.OriginSQLite && r.Generation == nil {
		return nil, fmt.Errorf("%s holds no session to show", r.File)
	}
	return TranscriptReader(cache, r).Index(ctx, opt)
}
