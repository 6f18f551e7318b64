package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/regfile"
	"clawvault-tui/store/transcript"
)

// SessionTarget is the transcript a name resolves to, and the other
// generations of its session key, newest first.
type SessionTarget struct {
	Row    model.SessionRow
	Others []model.SessionRow
}

// ResolveSession finds a session by id, key, cursor id or unique id prefix
// among a snapshot's rows. A key with several generations (the live file and
// its /new and deletion archives; the windows of a SQLite-era key) resolves
// to its current one, and the others are listed. The error is one sentence.
func ResolveSession(snap *Snapshot, arg string) (SessionTarget, error) {
	var matches []model.SessionRow
	for _, r := range snap.Rows {
		if r.SessionID == arg || r.Key == arg || r.CursorID == arg || r.ObserverKey == arg {
			matches = append(matches, r)
		}
	}
	if len(matches) == 0 {
		for _, r := range snap.Rows {
			if arg != "" && (strings.HasPrefix(r.SessionID, arg) || strings.HasPrefix(r.CursorID, arg)) {
				matches = append(matches, r)
			}
		}
	}
	if len(matches) == 0 {
		if errs := snap.StoreErrors(nil); len(errs) > 0 {
			// The session may be in a store that could not be read.
			return SessionTarget{}, fmt.Errorf("no file and no session %q in %s; %s, so its sessions are unknown", arg, snap.Workspace.StateDir, strings.Join(errs, "; "))
		}
		return SessionTarget{}, fmt.Errorf("no file and no session %q in %s", arg, snap.Workspace.StateDir)
	}
	// An exact session id names that session, whatever else matched.
	if exact := slices.DeleteFunc(slices.Clone(matches), func(r model.SessionRow) bool { return r.SessionID != arg }); len(exact) > 0 {
		matches = exact
	}
	readable := slices.DeleteFunc(slices.Clone(matches), func(r model.SessionRow) bool { return !Readable(r) })
	if len(readable) == 0 {
		if o := matches[0].OutsideStateDir; o != "" {
			return SessionTarget{}, fmt.Errorf("session %q points at %s, outside the state dir and its sessions folder (it leads to %s), so it is not read; pass that file's path to read it anyway", arg, matches[0].File, o)
		}
		return SessionTarget{}, fmt.Errorf("session %q points at %s, which does not exist", arg, matches[0].File)
	}
	slices.SortStableFunc(readable, func(a, b model.SessionRow) int {
		if c := cmp.Compare(generationRank(a), generationRank(b)); c != 0 {
			return c
		}
		return b.ModTime.Compare(a.ModTime)
	})
	best := readable[0]
	var others []model.SessionRow
	for _, r := range readable[1:] {
		if lineage(r) != lineage(best) {
			if generationRank(r) == generationRank(best) {
				var names []string
				for _, m := range readable {
					names = append(names, "  "+describe(m))
				}
				return SessionTarget{}, fmt.Errorf("%q matches %d sessions; name one:\n%s", arg, len(readable), strings.Join(names, "\n"))
			}
			continue
		}
		others = append(others, r)
	}
	// A current generation that does not exist while older ones do: say
	// so rather than show an old one as if it were current.
	for _, r := range matches {
		if r.Origin == model.OriginIndex && !r.Exists && lineage(r) == lineage(best) && generationRank(best) > 0 {
			return SessionTarget{}, fmt.Errorf("session %q points at %s, which does not exist; its other generations: %s", arg, r.File, describe(best))
		}
	}
	return SessionTarget{Row: best, Others: others}, nil
}

// Readable reports a row whose transcript can be opened: a file that
// exists inside the state dir or its sessions folder, or a SQLite-era
// generation with events (or a cold archive).
func Readable(r model.SessionRow) bool {
	if r.Origin == model.OriginSQLite {
		return r.Generation != nil && r.Exists
	}
	return r.Exists && r.OutsideStateDir == "" && r.Name.Kind.IsTranscript()
}

// generationRank orders the candidates of a key: the current generation
// (the sessions.json row, the SQLite key's current session), a live file
// no row names, then earlier generations and copies.
func generationRank(r model.SessionRow) int {
	switch {
	case r.Origin == model.OriginSQLite && r.Generation != nil && r.Generation.Current, r.Origin == model.OriginIndex:
		return 0
	case r.Origin == model.OriginScan && !r.Name.Kind.IsArchive() && r.Name.Kind != model.FileCheckpoint:
		return 1
	}
	return 2
}

// lineage groups the generations of one session key.
func lineage(r model.SessionRow) string {
	if k := r.DisplayKey(); k != "" {
		return r.Agent + " " + k
	}
	return r.Agent + " " + r.SessionID
}

// describe names a generation for a list: its kind and where it is.
func describe(r model.SessionRow) string {
	switch {
	case r.Origin == model.OriginSQLite && r.Generation != nil:
		state := "earlier generation (" + r.Generation.GenerationReason() + ")"
		if r.Generation.Current {
			state = "current generation"
		}
		return fmt.Sprintf("%s %s, %s, in %s", r.DisplayKey(), r.SessionID, state, r.File)
	case r.Name.Kind.IsArchive():
		return fmt.Sprintf("%s archive %s", r.DisplayKey(), r.File)
	}
	return fmt.Sprintf("%s %s", r.DisplayKey(), r.File)
}

// TranscriptReader is the reader of a status row's transcript: a JSONL file
// (indexed through cache), a compressed archive (decoded in memory on first
// use), or a session of a SQLite-era store (its tree from the store's
// identities, its bodies by seq; a cold one from its archive).
func TranscriptReader(cache *transcript.Cache, r model.SessionRow) transcript.Reader {
	switch {
	case r.Origin == model.OriginSQLite && r.Generation != nil && r.Generation.Cold:
		return transcript.NewMemory(r.File+"#"+r.SessionID, func(ctx context.Context) ([]byte, error) {
			return coldArchive(ctx, r.File, r.SessionID)
		})
	case r.Origin == model.OriginSQLite:
		return agentdb.NewSession(r.File, r.SessionID)
	case strings.HasSuffix(r.File, ".zst"):
		return transcript.NewMemory(r.File, func(context.Context) ([]byte, error) {
			data, err := regfile.ReadFile(r.File)
			if err != nil {
				return nil, err
			}
			plain, err := agentdb.DecompressJSONL(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", r.File, err)
			}
			return plain, nil
		})
	}
	return cache.File(r.File)
}

// coldArchive reads a cold generation's JSONL from its archive.
func coldArchive(ctx context.Context, store, sessionID string) ([]byte, error) {
	db, err := agentdb.Open(ctx, store)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	archives, err := db.Archives(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range archives {
		if a.Kind == agentdb.ArchiveCold && a.SessionID == sessionID {
			data, err := db.ArchiveJSONL(ctx, a)
			if data == nil {
				return nil, err
			}
			return data, nil
		}
	}
	return nil, fmt.Errorf("session %s is cold but %s has no cold archive for it", sessionID, store)
}
