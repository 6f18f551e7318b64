package model

import (
	"math"
	"slices"
	"testing"
	"time"

	"clawvault-tui/jscompat"
)

func TestThresholdBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		size, want int64
	}{
		{0, 51200},
		{MiB - 1, 51200},
		{MiB, 153600},
		{5 * MiB, 153600},
		{5*MiB + 1, 307200},
		{14 * MiB, 307200},
	}
	for _, tt := range tests {
		if got := ThresholdBytes(tt.size); got != tt.want {
			t.Errorf("ThresholdBytes(%d) = %d, want %d", tt.size, got, tt.want)
		}
	}
}

func TestSelect(t *testing.T) {
	t.Parallel()
	cur := func(off float64) *Cursor {
		return &Cursor{LastObservedOffset: off, LastObservedAt: "2026-11-20T00:00:00.000Z", SessionKey: "k", LastFileSize: off}
	}
	tests := []struct {
		name      string
		size      int64
		cursor    *Cursor
		minNew    int64
		want      Selection
		candidate bool
	}{
		{"never observed, big", 14 * MiB, nil, 0, Selection{StartOffset: 0, NewBytes: 14 * MiB, ThresholdBytes: 307200, Candidate: true}, true},
		{"never observed, small", 20000, nil, 0, Selection{NewBytes: 20000, ThresholdBytes: 51200}, false},
		{"exactly at threshold", 51200, nil, 0, Selection{NewBytes: 51200, ThresholdBytes: 51200, Candidate: true}, true},
		{"one byte short", 61200, cur(10001), 0, Selection{StartOffset: 10001, NewBytes: 51199, ThresholdBytes: 51200}, false},
		{"cursor at end", 80000, cur(80000), 0, Selection{StartOffset: 80000, ThresholdBytes: 51200}, false},
		{"cursor past end re-reads", 80000, cur(120000), 0, Selection{NewBytes: 80000, ThresholdBytes: 51200, Candidate: true, PastEOF: true}, true},
		{"min-new 1", 758, cur(700), 1, Selection{StartOffset: 700, NewBytes: 58, ThresholdBytes: 1, Candidate: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Select(tt.size, tt.cursor, tt.minNew); got != tt.want {
				t.Errorf("Select = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestIsStale(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	c := func(age time.Duration, size float64) *Cursor {
		return &Cursor{LastObservedOffset: size, LastObservedAt: jscompat.FormatISOTime(now.Add(-age)), SessionKey: "k", LastFileSize: size}
	}
	tests := []struct {
		name   string
		cursor *Cursor
		size   int64
		want   bool
	}{
		{"no cursor is never stale", nil, 1000, false},
		{"old and grown", c(13*time.Hour, 500), 1000, true},
		{"exactly 12h is not stale", c(12*time.Hour, 500), 1000, false},
		{"old but unchanged", c(48*time.Hour, 1000), 1000, false},
		{"recent and grown", c(time.Hour, 500), 1000, false},
		{"unparsable time", &Cursor{LastObservedAt: "yesterday", LastFileSize: 1, SessionKey: "k"}, 1000, false},
	}
	for _, tt := range tests {
		if got := IsStale(tt.cursor, tt.size, now); got != tt.want {
			t.Errorf("%s: IsStale = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	files := []DirFile{
		{Name: "a.jsonl", IsFile: true},
		{Name: "b.jsonl", IsFile: true},
		{Name: "c-topic-42.jsonl", IsFile: true},
		{Name: "d.jsonl.reset.2026-11-19T08-30-00.000Z", IsFile: true},
		{Name: "e.jsonl.deleted.2026-11-19T08-30-00.000Z", IsFile: true},
		{Name: "notes (copy).jsonl", IsFile: true},
		{Name: "old.backup.jsonl", IsFile: true},
		{Name: "s.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3.jsonl", IsFile: true},
		{Name: "sessions.json", IsFile: true},
		{Name: "z.jsonl", IsFile: false},
	}
	rows := []IndexRow{
		{Key: "agent:main:telegram:group:1:topic:42", SessionID: "c", UpdatedAt: 300},
		{Key: "agent:main:main", SessionID: "b", UpdatedAt: 200},
		{Key: "agent:main:direct:x", SessionID: "a", UpdatedAt: 100},
		{Key: "agent:main:dup", SessionID: "a", UpdatedAt: 50},
		{Key: "agent:main:bad", SessionID: "bad id", UpdatedAt: 400},
		{Key: "agent:main:nan", SessionID: "missing", UpdatedAt: math.NaN()},
	}
	got := Discover("main", rows, files)
	want := []Descriptor{
		{SessionID: "b", SessionKey: "agent:main:main", FileName: "b.jsonl", FromIndex: true},
		{SessionID: "a", SessionKey: "agent:main:direct:x", FileName: "a.jsonl", FromIndex: true},
		{SessionID: "c-topic-42", SessionKey: "agent:main:unknown:c-topic-42", FileName: "c-topic-42.jsonl"},
		{SessionID: "s.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3", SessionKey: "agent:main:unknown:s.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3", FileName: "s.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3.jsonl"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Discover =\n%+v\nwant\n%+v", got, want)
	}
}

func TestDiscoverTiesKeepFileOrder(t *testing.T) {
	t.Parallel()
	files := []DirFile{{Name: "x.jsonl", IsFile: true}, {Name: "y.jsonl", IsFile: true}}
	rows := []IndexRow{{Key: "k1", SessionID: "y"}, {Key: "k2", SessionID: "x"}}
	got := Discover("main", rows, files)
	if got[0].SessionID != "y" || got[1].SessionID != "x" {
		t.Errorf("a stable sort keeps rows with equal updatedAt in file order, got %+v", got)
	}
}

func TestSourceLabel(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"agent:main:main":                               "main",
		"agent:main:telegram:dm:123":                    "telegram-dm",
		"agent:main:telegram:direct:123":                "telegram",
		"agent:main:telegram:group:-100123:topic:42":    "telegram-group",
		"agent:main:discord:channel:998877":             "discord",
		"agent:main:discord:channel:9:thread:5":         "discord",
		"agent:main:slack:channel:C0123":                "slack",
		"agent:main:cron:nightly-digest":                "cron",
		"agent:main:cron:nightly-digest:run:9a3e":       "cron",
		"agent:main:hook:2f0e":                          "hook",
		"agent:main:subagent:77aa":                      "subagent",
		"agent:main:unknown:abc":                        "unknown",
		"agent:main:direct:peer":                        "direct",
		"agent:main:whatsapp:default:direct:+155512345": "whatsapp",
		"agent:main:":                                   "session",
		"agent:main":                                    "session",
		"global":                                        "session",
		"main":                                          "session",
		"":                                              "session",
	}
	for key, want := range tests {
		if got := SourceLabel(key); got != want {
			t.Errorf("SourceLabel(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestClassifyFileName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want FileName
	}{
		{"0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3.jsonl", FileName{Kind: FilePrimary, SessionID: "0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3"}},
		{"c41f-topic-42.jsonl", FileName{Kind: FileTopic, SessionID: "c41f", Topic: "42"}},
		{"2026-04-12T10-02-00-000Z_5d2f8e61.jsonl", FileName{Kind: FileFork, SessionID: "5d2f8e61", Stamp: "2026-04-12T10-02-00-000Z"}},
		{"abc.jsonl.reset.2026-11-19T08-30-00.000Z", FileName{Kind: FileResetArchive, SessionID: "abc", Stamp: "2026-11-19T08-30-00.000Z"}},
		{"abc.jsonl.deleted.2026-11-19T08-30-00Z.zst", FileName{Kind: FileDeletedArchive, SessionID: "abc", Stamp: "2026-11-19T08-30-00Z", Compressed: true}},
		{"c41f-topic-42.jsonl.reset.2026-11-19T08-30-00.000Z", FileName{Kind: FileResetArchive, SessionID: "c41f", Topic: "42", Stamp: "2026-11-19T08-30-00.000Z"}},
		{"abc.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3.jsonl", FileName{Kind: FileCheckpoint, SessionID: "abc", Stamp: "0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3"}},
		{"abc.trajectory.jsonl", FileName{Kind: FileTrajectory, SessionID: "abc"}},
		{"abc.trajectory-path.json", FileName{Kind: FileTrajectoryPath, SessionID: "abc"}},
		{"abc.jsonl.corrupt-2026-11-19T08-30-00Z-0a1b2c3d.jsonl", FileName{Kind: FileCorrupt, SessionID: "abc", Stamp: "2026-11-19T08-30-00Z"}},
		{"abc.jsonl.backup-20261119-083000", FileName{Kind: FileRepairBackup, SessionID: "abc", Stamp: "20261119-083000"}},
		{"abc.jsonl.lock", FileName{Kind: FileLock, SessionID: "abc"}},
		{"sessions.json", FileName{Kind: FileStore}},
		{"sessions.json.bak.1775892604120", FileName{Kind: FileStoreBackup, Stamp: "1775892604120"}},
		{"notes.txt", FileName{Kind: FileOther}},
	}
	for _, tt := range tests {
		if got := ClassifyFileName(tt.name); got != tt.want {
			t.Errorf("ClassifyFileName(%q) =\n%+v\nwant\n%+v", tt.name, got, tt.want)
		}
	}
}
