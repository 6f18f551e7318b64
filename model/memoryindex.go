package model

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// IndexedFile is one file as OpenClaw's memory search index last saw it
// (a memory_index_sources row).
type IndexedFile struct {
	Rel     string // relative to the workspace, with /
	Hash    string // sha256 of the content, hex
	MTimeMs float64
	Size    int64
}

// DiskMemoryFile is one memory file as it is now.
type DiskMemoryFile struct {
	Rel     string
	Size    int64
	ModTime time.Time
}

// MemoryIndexHealth compares the memory search index with the files on
// disk: "why does memory_search not find what I wrote?"
type MemoryIndexHealth struct {
	Indexed int
	// NeverIndexed are memory files the index has no row for; Changed those
	// whose content changed since they were indexed; Gone the rows whose
	// file no longer exists.
	NeverIndexed, Changed, Gone []string
	Chunks                      int
	// Models counts chunks per embedding model.
	Models          map[string]int
	Provider, Model string
}

// Stale reports a difference between the index and the files.
func (h *MemoryIndexHealth) Stale() bool {
	return h != nil && len(h.NeverIndexed)+len(h.Changed)+len(h.Gone) > 0
}

// sameMTime compares Node's fractional mtimeMs with a file's mtime.
func sameMTime(ms float64, t time.Time) bool {
	return math.Abs(ms-float64(t.UnixNano())/1e6) < 1
}

// MemoryFilesToHash lists the files whose size matches their index row but
// whose mtime does not: only their content can tell whether they changed.
func MemoryFilesToHash(indexed []IndexedFile, disk []DiskMemoryFile) []string {
	rows := make(map[string]IndexedFile, len(indexed))
	for _, f := range indexed {
		rows[f.Rel] = f
	}
	var out []string
	for _, f := range disk {
		if r, ok := rows[f.Rel]; ok && r.Size == f.Size && !sameMTime(r.MTimeMs, f.ModTime) {
			out = append(out, f.Rel)
		}
	}
	return out
}

// CompareMemoryIndex sorts the files into never indexed, changed and gone.
// hashes holds the content hash of the files MemoryFilesToHash named.
func CompareMemoryIndex(indexed []IndexedFile, disk []DiskMemoryFile, hashes map[string]string) MemoryIndexHealth {
	h := MemoryIndexHealth{Indexed: len(indexed), Models: map[string]int{}}
	rows := make(map[string]IndexedFile, len(indexed))
	for _, f := range indexed {
		rows[f.Rel] = f
	}
	onDisk := make(map[string]bool, len(disk))
	for _, f := range disk {
		onDisk[f.Rel] = true
		r, ok := rows[f.Rel]
		switch {
		case !ok:
			h.NeverIndexed = append(h.NeverIndexed, f.Rel)
		case r.Size != f.Size:
			h.Changed = append(h.Changed, f.Rel)
		case !sameMTime(r.MTimeMs, f.ModTime):
			if sum, hashed := hashes[f.Rel]; hashed && sum != r.Hash {
				h.Changed = append(h.Changed, f.Rel)
			}
		}
	}
	for _, f := range indexed {
		if !onDisk[f.Rel] {
			h.Gone = append(h.Gone, f.Rel)
		}
	}
	return h
}

// Diagnosis is the memory-index-stale sentence, or nil when the index
// matches the files.
func (h *MemoryIndexHealth) Diagnosis() *Diagnosis {
	if !h.Stale() {
		return nil
	}
	var parts []string
	list := func(n int, what string, files []string) {
		if n > 0 {
			shown := files
			if len(shown) > 3 {
				shown = append(shown[:3:3], fmt.Sprintf("… (%d more)", len(files)-3))
			}
			parts = append(parts, fmt.Sprintf("%d %s (%s)", n, what, strings.Join(shown, ", ")))
		}
	}
	list(len(h.Changed), "changed since indexed", h.Changed)
	list(len(h.NeverIndexed), "never indexed", h.NeverIndexed)
	list(len(h.Gone), "indexed but gone", h.Gone)
	return &Diagnosis{CodeMemoryIndexStale, fmt.Sprintf(
		"The memory search index is behind the memory files: %s; memory_search answers from what it indexed (%d files, %d chunks). OpenClaw reindexes on its next sync (`openclaw memory index`).",
		strings.Join(parts, "; "), h.Indexed, h.Chunks)}
}
