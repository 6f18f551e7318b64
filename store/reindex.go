package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// reindexSuffixes are the files of one reindex temp database, as
// OpenClaw's memory-core lists them (MEMORY_REINDEX_ENTRY_SUFFIXES).
var reindexSuffixes = []string{"-wal", "-shm", "-journal", ""}

// reindexState lists the temp databases OpenClaw's memory reindex left
// beside the store at storePath (regular files only, links not followed)
// and, when there are any, whether an OpenClaw process holds the reindex
// lock. A folder that cannot be listed says so in LockErr.
func reindexState(ctx context.Context, fsys FS, storePath string) *model.ReindexState {
	dir, base := filepath.Dir(storePath), filepath.Base(storePath)
	r := &model.ReindexState{Lock: agentdb.ReindexLockName(storePath)}
	files, err := listDir(ctx, fsys, dir, false)
	if err != nil {
		r.LockErr = err.Error()
		return r
	}
	byName := map[string]*model.ReindexShadow{}
	for _, f := range files {
		name, ok := reindexShadowName(base, f.Name)
		if !ok || !f.IsFile {
			continue
		}
		s := byName[name]
		if s == nil {
			s = &model.ReindexShadow{Name: name}
			byName[name] = s
		}
		s.Files = append(s.Files, filepath.Join(dir, f.Name))
		s.Bytes += f.Size
		if f.ModTime.After(s.ModTime) {
			s.ModTime = f.ModTime
		}
	}
	if len(byName) == 0 {
		return nil
	}
	for _, s := range byName {
		slices.Sort(s.Files)
		r.Shadows = append(r.Shadows, *s)
	}
	slices.SortFunc(r.Shadows, func(a, b model.ReindexShadow) int { return strings.Compare(a.Name, b.Name) })
	held, err := agentdb.ReindexLockHeld(ctx, r.Lock)
	r.LockHeld = held
	if err != nil {
		r.LockErr = err.Error()
	}
	return r
}

// reindexShadowName is resolveMemoryReindexBaseName: the temp database a
// file belongs to, <base>.memory-reindex-<uuid> with one of its suffixes.
func reindexShadowName(base, name string) (string, bool) {
	for _, suffix := range reindexSuffixes {
		shadow, ok := strings.CutSuffix(name, suffix)
		if !ok {
			continue
		}
		if uuid, ok := strings.CutPrefix(shadow, base+".memory-reindex-"); ok && lowerUUID(uuid) {
			return shadow, true
		}
	}
	return "", false
}

// lowerUUID: s is a UUID in lower-case hex, 8-4-4-4-12.
func lowerUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}
