package model

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// AgentSpace is where an agent store's bytes go (`clawvault-tui space`).
type AgentSpace struct {
	Agent string
	File  string
	// Err says why the store could not be measured ("" when it was).
	Err                  string
	FileBytes, WALBytes  int64
	FreeBytes, PageSize  int64
	Pages                int64
	Objects              []SpaceObject
	Events, EventBytes   int64
	ByKind               map[string]int64
	Sessions             []SpaceSession
	Memory               SpaceMemory
	Reclaim              SpaceReclaim
	Leftovers, Verified  int // leftover JSONL files, and those import-verified
	Unchecked            int // leftover files with no verdict yet (run status)
	LeftoverBytes        int64
	VerifiedBytes        int64
	ReindexTemp, Orphans int
	ReindexBytes         int64
	OrphanBytes          int64
	ReindexLockHeld      bool
	ReindexLockUndecided string
	// VacuumCommand shrinks the file to its pages in use.
	VacuumCommand string
}

// SpaceObject is a table or an index and the bytes of its pages.
type SpaceObject struct {
	Name, Type, Table string
	Bytes             int64
}

// SpaceSession is one session's share of the events.
type SpaceSession struct {
	SessionID, Key string
	Events, Bytes  int64
}

// SpaceMemory is the memory search index's share.
type SpaceMemory struct {
	Chunks, ChunkTextBytes, ChunkBytes, FTSBytes, VectorBytes int64
	EmbeddingCacheRows, EmbeddingCacheBytes                   int64
	SourceBytes, OtherBytes                                   int64
}

// SpaceReclaim is what could be freed: free pages (VACUUM), verified
// leftover JSONL and orphaned reindex temp databases (retention).
type SpaceReclaim struct {
	FreeBytes, VerifiedJSONLBytes, OrphanReindexBytes int64
}

// Total is every byte that could be freed.
func (r SpaceReclaim) Total() int64 { return r.FreeBytes + r.VerifiedJSONLBytes + r.OrphanReindexBytes }

// spaceBarWidth is the width of the bars of Lines.
const spaceBarWidth = 20

// bar draws n of total as a bar of width cells and the share in percent.
func bar(n, total int64, width int) string {
	if total <= 0 {
		return strings.Repeat("░", width) + "   0%"
	}
	full := int((n*int64(width) + total/2) / total)
	full = max(0, min(width, full))
	if n > 0 && full == 0 {
		full = 1
	}
	return strings.Repeat("█", full) + strings.Repeat("░", width-full) + fmt.Sprintf(" %3d%%", (n*100+total/2)/total)
}

// Lines draws the agent's space as text a terminal shows at once: a bar a
// share, in width columns (the names are cut to fit).
func (s *AgentSpace) Lines(width int) []string {
	if s.Err != "" {
		return []string{fmt.Sprintf("agent %s: %s cannot be measured: %s", s.Agent, s.File, s.Err)}
	}
	nameW := max(16, min(44, width-spaceBarWidth-22))
	row := func(name string, n, total int64) string {
		return fmt.Sprintf("  %-*s %s %10s", nameW, cutName(name, nameW), bar(n, total, spaceBarWidth), Bytes(n))
	}
	total := s.FileBytes + s.WALBytes
	out := []string{fmt.Sprintf("agent %s: %s, %s (file %s, write-ahead log %s, free pages %s)",
		s.Agent, filepath.Base(s.File), Bytes(total), Bytes(s.FileBytes), Bytes(s.WALBytes), Bytes(s.FreeBytes))}
	out = append(out, "tables and indexes (bytes of their pages, as dbstat counts them):")
	shown := 0
	var rest int64
	for _, o := range s.Objects {
		if shown < 12 {
			out = append(out, row(o.Name, o.Bytes, s.FileBytes))
			shown++
		} else {
			rest += o.Bytes
		}
	}
	if rest > 0 {
		out = append(out, row(fmt.Sprintf("(%d others)", len(s.Objects)-shown), rest, s.FileBytes))
	}
	if s.FreeBytes > 0 {
		out = append(out, row("(free pages)", s.FreeBytes, s.FileBytes))
	}
	out = append(out, fmt.Sprintf("transcripts: %s in %s events, by kind:", Bytes(s.EventBytes), Count(s.Events)))
	for _, k := range sortedByBytes(s.ByKind) {
		out = append(out, row(k, s.ByKind[k], s.EventBytes))
	}
	if len(s.Sessions) > 0 {
		out = append(out, "largest sessions:")
		for _, ss := range s.Sessions {
			out = append(out, row(cmpOr(ss.Key, ss.SessionID)+fmt.Sprintf(" (%s events)", Count(ss.Events)), ss.Bytes, s.EventBytes))
		}
	}
	return append(out, s.memoryAndReclaimLines(row)...)
}

// memoryAndReclaimLines are the memory index's and the reclaim's lines.
func (s *AgentSpace) memoryAndReclaimLines(row func(string, int64, int64) string) []string {
	m := s.Memory
	mem := m.ChunkBytes + m.FTSBytes + m.VectorBytes + m.EmbeddingCacheBytes + m.SourceBytes + m.OtherBytes
	out := []string{fmt.Sprintf("memory index: %s, %s chunks (%s of text), %s cached embeddings:",
		Bytes(mem), Count(m.Chunks), Bytes(m.ChunkTextBytes), Count(m.EmbeddingCacheRows))}
	for _, p := range []struct {
		name  string
		bytes int64
	}{{"chunks", m.ChunkBytes}, {"full-text index", m.FTSBytes}, {"vector index", m.VectorBytes}, {"embedding cache", m.EmbeddingCacheBytes}, {"sources and the rest", m.SourceBytes + m.OtherBytes}} {
		out = append(out, row(p.name, p.bytes, max(mem, 1)))
	}
	r := s.Reclaim
	out = append(out, fmt.Sprintf("reclaimable: %s", Bytes(r.Total())))
	out = append(out, fmt.Sprintf("  %s of free pages: the file shrinks only when vacuumed (%s)", Bytes(r.FreeBytes), s.VacuumCommand))
	jsonl := fmt.Sprintf("  %s in %d of %d leftover JSONL transcripts every entry of which is in the store: `clawvault-tui retention --apply` archives them",
		Bytes(r.VerifiedJSONLBytes), s.Verified, s.Leftovers)
	if s.Unchecked > 0 {
		jsonl += fmt.Sprintf(" (%d not compared yet: `clawvault-tui status` compares them)", s.Unchecked)
	}
	out = append(out, jsonl)
	reindex := fmt.Sprintf("  %s in %s of %d (%s): retention archives them", Bytes(r.OrphanReindexBytes), Plural(s.Orphans, "orphaned memory reindex temp database", "orphaned memory reindex temp databases"), s.ReindexTemp, Bytes(s.ReindexBytes))
	switch {
	case s.ReindexLockHeld:
		reindex += "; a reindex holds the lock now, so none is touched"
	case s.ReindexLockUndecided != "":
		reindex += "; whether a reindex holds the lock cannot be told (" + s.ReindexLockUndecided + "), so none is touched"
	}
	return append(out, reindex)
}

func cutName(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sortedByBytes are the keys of m, largest value first.
func sortedByBytes(m map[string]int64) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b)) })
	return keys
}
