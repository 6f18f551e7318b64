package model

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCompareMemoryIndex(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	ms := func(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }
	indexed := []IndexedFile{
		{Rel: "MEMORY.md", Hash: "h1", MTimeMs: ms(at), Size: 10},       // unchanged
		{Rel: "memory/a.md", Hash: "h2", MTimeMs: ms(at), Size: 10},     // grew
		{Rel: "memory/b.md", Hash: "h3", MTimeMs: ms(at), Size: 10},     // touched, same content
		{Rel: "memory/c.md", Hash: "h4", MTimeMs: ms(at), Size: 10},     // rewritten, same size
		{Rel: "memory/gone.md", Hash: "h5", MTimeMs: ms(at), Size: 10},  // deleted
		{Rel: "USER.md", Hash: "h6", MTimeMs: ms(at) + 0.4567, Size: 3}, // Node's fractional mtime
	}
	disk := []DiskMemoryFile{
		{Rel: "MEMORY.md", Size: 10, ModTime: at},
		{Rel: "memory/a.md", Size: 12, ModTime: at.Add(time.Hour)},
		{Rel: "memory/b.md", Size: 10, ModTime: at.Add(time.Hour)},
		{Rel: "memory/c.md", Size: 10, ModTime: at.Add(time.Hour)},
		{Rel: "memory/new.md", Size: 5, ModTime: at},
		{Rel: "USER.md", Size: 3, ModTime: at},
	}
	toHash := MemoryFilesToHash(indexed, disk)
	if !slices.Equal(toHash, []string{"memory/b.md", "memory/c.md"}) {
		t.Errorf("files to hash %v: only same-size files with another mtime need their content read", toHash)
	}
	h := CompareMemoryIndex(indexed, disk, map[string]string{"memory/b.md": "h3", "memory/c.md": "other"})
	if !slices.Equal(h.Changed, []string{"memory/a.md", "memory/c.md"}) || !slices.Equal(h.NeverIndexed, []string{"memory/new.md"}) ||
		!slices.Equal(h.Gone, []string{"memory/gone.md"}) || !h.Stale() || h.Indexed != 6 {
		t.Errorf("health %+v", h)
	}
	d := h.Diagnosis()
	if d == nil || d.Code != CodeMemoryIndexStale || !strings.Contains(d.Message, "2 changed since indexed (memory/a.md, memory/c.md); 1 never indexed (memory/new.md); 1 indexed but gone (memory/gone.md)") {
		t.Errorf("diagnosis %+v", d)
	}
	fresh := CompareMemoryIndex(indexed[:1], disk[:1], nil)
	if fresh.Stale() || fresh.Diagnosis() != nil {
		t.Errorf("an index that matches: %+v", fresh)
	}
}
