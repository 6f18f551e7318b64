package memsearch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/regfile"
)

// explain answers, for each file asked about, why it is or is not among
// the results.
func (r *replay) explain(ctx context.Context) error {
	paths := r.explainPaths()
	if len(paths) == 0 && !r.req.ExplainAll {
		return nil
	}
	indexed, err := r.mi.IndexedSources(ctx, nil)
	if err != nil {
		return err
	}
	if r.req.ExplainAll {
		paths = r.allPaths(indexed)
	}
	sc := r.scene()
	scores := r.vectorRanks()
	for _, p := range paths {
		f, err := r.facts(ctx, p, indexed, scores)
		if err != nil {
			return err
		}
		e := recall.Explain(f, sc)
		if r.rep.Status == StatusNotReplayed && e.Code != recall.NotIndexed {
			e.Notes = append(e.Notes, "ranked by keywords alone: "+r.rep.Reason)
		}
		r.rep.Explain = append(r.rep.Explain, e)
	}
	return nil
}

// explainPaths are the requested files as the index names them: relative
// to the workspace with /, or absolute outside it.
func (r *replay) explainPaths() []string {
	var out []string
	for _, p := range r.req.Explain {
		out = append(out, IndexPath(r.req.Agent.Workspace, p))
	}
	return out
}

// IndexPath is how the index names a file: relative to the workspace
// with forward slashes (../ for an extra path outside it).
func IndexPath(workspace, p string) string {
	p = strings.TrimSpace(p)
	if filepath.IsAbs(p) && workspace != "" {
		if rel, err := filepath.Rel(workspace, p); err == nil {
			p = rel
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
}

// allPaths are every memory file on disk and every indexed file of the
// searched sources.
func (r *replay) allPaths(indexed []agentdb.IndexedSource) []string {
	var out []string
	for _, s := range indexed {
		if slices.Contains(r.rep.Config.SearchSources, s.Source) && !slices.Contains(out, s.Path) {
			out = append(out, s.Path)
		}
	}
	files, _ := store.WorkspaceMemory(store.OS, r.req.Agent.Workspace)
	for _, f := range files {
		if rel := filepath.ToSlash(f.Rel); !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	if fi, err := store.OS.Lstat(filepath.Join(r.req.Agent.Workspace, "USER.md")); err == nil && fi.Mode().IsRegular() && !slices.Contains(out, "USER.md") {
		out = append(out, "USER.md")
	}
	slices.Sort(out)
	return out
}

func (r *replay) scene() recall.Scene {
	rep := r.rep
	sc := recall.Scene{Status: rep.Status, StatusReason: rep.Reason, Settings: rep.Settings, Results: rep.Results,
		Candidates: rep.Settings.Candidates()}
	if rep.Status == StatusNotReplayed {
		sc.Results = rep.Fallback
	}
	byID := map[string]*recall.Entry{}
	for _, e := range rep.Merged {
		byID[e.ID] = e
	}
	sc.Describe = func(id string) string {
		if e := byID[id]; e != nil {
			return fmt.Sprintf("%s:%d-%d", e.Path, e.StartLine, e.EndLine)
		}
		return id
	}
	return sc
}

// vectorRank is a chunk's cosine and its place among the chunks the
// vector leg reads.
type vectorRank struct {
	score     float64
	rank, of  int
	available bool
}

// vectorRanks scores every chunk against the query (approximately, from
// the float32 table) when the vector leg ran.
func (r *replay) vectorRanks() map[string]vectorRank {
	t := r.table
	if t == nil || len(r.qvec) == 0 {
		return nil
	}
	q := r.qvec
	n := 0.0
	for _, x := range q {
		n += x * x
	}
	type sc struct {
		id    string
		score float64
	}
	var all []sc
	for i := range t.IDs {
		if t.Models[i] == r.rep.Provider.Model && slices.Contains(r.rep.Config.SearchSources, t.Sources[i]) {
			all = append(all, sc{t.IDs[i], t.Cosine(q, math.Sqrt(n), i)})
		}
	}
	slices.SortStableFunc(all, func(a, b sc) int { return cmp.Compare(b.score, a.score) })
	out := make(map[string]vectorRank, len(all))
	for i, s := range all {
		out[s.id] = vectorRank{s.score, i + 1, len(all), true}
	}
	return out
}

// maxMemoryFileBytes bounds a memory file read whole to see whether it
// changed since it was indexed: a planted sparse file of terabytes is not
// read, and counts as changed.
const maxMemoryFileBytes = 64 << 20

// facts gathers what Explain needs about one file.
func (r *replay) facts(ctx context.Context, path string, indexed []agentdb.IndexedSource, ranks map[string]vectorRank) (recall.FileFacts, error) {
	f := recall.FileFacts{Path: path}
	abs := resolveFrom(r.req.Agent.Workspace, path)
	var row *agentdb.IndexedSource
	for i := range indexed {
		if indexed[i].Path == path && slices.Contains(r.rep.Config.SearchSources, indexed[i].Source) {
			row = &indexed[i]
			break
		}
	}
	f.Indexed = row != nil
	f.Eligible = r.eligible(path, abs)
	fi, err := store.OS.Lstat(abs)
	if err == nil && !fi.Mode().IsRegular() {
		f.NotRegular = (&regfile.NotRegularError{Mode: fi.Mode()}).Error()
	}
	if err == nil && fi.Mode().IsRegular() {
		f.OnDisk = true
		if row != nil && row.Source == "memory" {
			data, err := regfile.ReadFileLimit(abs, maxMemoryFileBytes)
			switch {
			case err == nil:
				sum := sha256.Sum256([]byte(strings.ToValidUTF8(string(data), "\uFFFD")))
				f.Changed = hex.EncodeToString(sum[:]) != row.Hash
			case fi.Size() > maxMemoryFileBytes:
				f.Changed = true // not read: no note of that size was indexed as it is
			}
		}
	}
	if row == nil {
		return f, nil
	}
	chunks, err := r.mi.ChunksOf(ctx, row.Path, row.Source)
	if err != nil {
		return f, err
	}
	byID := map[string]*recall.Entry{}
	for _, e := range r.rep.Merged {
		byID[e.ID] = e
	}
	results := r.rep.Results
	if r.rep.Status == StatusNotReplayed {
		results = r.rep.Fallback
	}
	for _, c := range chunks {
		cf := recall.ChunkFacts{ID: c.ChunkID, StartLine: c.StartLine, EndLine: c.EndLine, Entry: byID[c.ChunkID]}
		if v, ok := ranks[c.ChunkID]; ok {
			cf.Vector, cf.HasVector, cf.VectorRank, cf.VectorOf = v.score, true, v.rank, v.of
		}
		for i, e := range results {
			if e.ID == c.ChunkID {
				cf.ResultRank = i + 1
			}
		}
		f.Chunks = append(f.Chunks, cf)
	}
	return f, nil
}

// eligible reports a file OpenClaw's memory sources include: MEMORY.md
// (or memory.md), USER.md, Markdown under memory/, or under an extra path.
func (r *replay) eligible(path, abs string) bool {
	switch {
	case path == "MEMORY.md" || path == "memory.md" || path == "USER.md":
		return true
	case strings.HasPrefix(path, "memory/") && strings.HasSuffix(path, ".md") && !strings.HasPrefix(path, "memory/.dreams/"):
		return true
	}
	for _, e := range r.rep.Config.ExtraPaths {
		root := resolveFrom(r.req.Agent.Workspace, e.Path)
		if (abs == root || strings.HasPrefix(abs, root+string(filepath.Separator))) && strings.HasSuffix(abs, ".md") {
			return true
		}
	}
	return false
}
