package search

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/regfile"
)

// A SQLite root is an agent's openclaw-agent.sqlite: each session
// (generation) is a "file" named <session id>.jsonl, whose lines are its
// events in seq order (line = seq + 1), sized in JSONL-equivalent bytes and
// dated by OpenClaw's transcript_updated_at. Its manifest entry counts
// events where a transcript's counts bytes: Indexed is the number of events
// indexed (the last seq + 1), and Hash hashes the last indexed event, so a
// session that only grew has only its new events read, and one rewritten
// under the last indexed seq is indexed again.

// sqliteSessionRel names a session's documents.
func sqliteSessionRel(sessionID string) string { return sessionID + ".jsonl" }

// listSQLite lists a store's sessions, sized by aggregate queries only:
// through status's stats cache when StatsCacheDir is set (the sessions
// unchanged since the last status are not read), else by a pass over
// every event.
func (o *Options) listSQLite(root *Root) (listing, error) {
	var out listing
	db, err := openStore(root.Store)
	if err != nil {
		out.unreadable = append(out.unreadable, root.ID+":")
		out.problems = append(out.problems, err.Error())
		return out, nil
	}
	defer db.Close()
	windows, err := db.Windows(context.Background())
	if err != nil {
		return out, err
	}
	stats, _, err := db.CachedStatsOf(context.Background(), agentdb.StatsCacheFile(o.StatsCacheDir, root.Store), windows, nil)
	if err != nil {
		return out, err
	}
	cold := map[string]agentdb.Archive{}
	if archives, err := db.Archives(context.Background()); err == nil {
		for _, a := range archives {
			if a.Kind == agentdb.ArchiveCold {
				cold[a.SessionID] = a
			}
		}
	}
	for _, w := range windows {
		at := w.TranscriptUpdatedAt
		if at.IsZero() {
			at = w.UpdatedAt
		}
		size := stats[w.SessionID].Bytes
		if c, ok := cold[w.SessionID]; ok && size == 0 {
			size = c.RawBytes
		}
		if size > 0 {
			out.files = append(out.files, fileRef{root: root, rel: sqliteSessionRel(w.SessionID), size: size, mtime: at.UnixNano()})
		}
	}
	return out, nil
}

// openStore opens a SQLite-era store, once its file and its log are seen
// to be regular files: SQLite's own open of a FIFO would wait for a
// writer.
func openStore(path string) (*agentdb.DB, error) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err == nil {
			err = regfile.Check(p, fi)
		} else if errors.Is(err, fs.ErrNotExist) && p != path {
			err = nil
		}
		if err != nil {
			return nil, err
		}
	}
	return agentdb.Open(context.Background(), path)
}

// store returns the writer's open handle on a root's store.
func (w *writer) store(root *Root) (*agentdb.DB, error) {
	if db := w.stores[root.Store]; db != nil {
		return db, nil
	}
	db, err := openStore(root.Store)
	if err != nil {
		return nil, err
	}
	if w.stores == nil {
		w.stores = map[string]*agentdb.DB{}
	}
	w.stores[root.Store] = db
	return db, nil
}

func (w *writer) closeStores() {
	for _, db := range w.stores {
		db.Close()
	}
	w.stores = nil
}

// indexSQLite indexes a session's user and assistant text, event by event,
// from the last indexed one on when the session only grew.
func (w *writer) indexSQLite(f fileRef) error {
	db, err := w.store(f.root)
	if err != nil {
		return err
	}
	key := f.key()
	old, err := w.old(key)
	if err != nil {
		return err
	}
	si := &sessionIndex{w: w, f: f, db: db, sessionID: strings.TrimSuffix(f.rel, ".jsonl"),
		state: &fileState{Size: f.size, MTime: f.mtime, Docs: []docRef{}}, terms: pathTerms(f.rel)}
	from := si.resume(old)
	stats, err := db.SessionStats(w.context(), si.sessionID, -1)
	switch {
	case err != nil:
		return err
	case stats.Events == 0:
		// A cold generation: its events are in a compressed archive.
		if from, err = si.indexColdArchive(from); err != nil {
			return err
		}
	default:
		if err := si.indexEvents(from); err != nil {
			return err
		}
	}
	w.record(key, old, si.state, from)
	return nil
}

// sessionIndex indexes one SQLite-era session.
type sessionIndex struct {
	w         *writer
	f         fileRef
	db        *agentdb.DB
	sessionID string
	state     *fileState
	terms     string
}

// resume returns the first seq to read: after the last one indexed when
// that event is still there, the same (the session only grew), and state
// then keeps the old documents; 0 otherwise.
func (si *sessionIndex) resume(old *fileState) int64 {
	if old == nil || old.Indexed <= 0 {
		return 0
	}
	var last *agentdb.Event
	err := si.db.Events(si.w.context(), si.sessionID, old.Indexed-2, si.w.maxLine(), func(ev agentdb.Event) bool {
		last = &ev
		return false
	})
	if err != nil || last == nil || last.Seq != old.Indexed-1 || eventHash(*last) != old.Hash {
		return 0
	}
	si.state.Docs = append(si.state.Docs, old.Docs...)
	si.state.Indexed, si.state.Hash = old.Indexed, old.Hash
	return old.Indexed
}

// add indexes the event seq, whose text is a transcript line.
func (si *sessionIndex) add(seq int64, text []byte) error {
	if err := si.w.cancelled(); err != nil {
		return err
	}
	for _, s := range SplitTranscript(text, int(seq)+1, int(seq)) {
		si.state.Docs = append(si.state.Docs, docRef{int32(s.Line), sectionSum(s)})
		if err := si.w.add(si.f, s, si.terms); err != nil {
			return err
		}
	}
	si.state.Indexed, si.state.Hash = seq+1, eventSum(text)
	si.w.st.Bytes += int64(len(text)) + 1
	return nil
}

// indexColdArchive indexes a cold generation from its compressed archive,
// whole (from is then 0); from is returned as it was when the store holds
// no archive of the session.
func (si *sessionIndex) indexColdArchive(from int64) (int64, error) {
	ctx := si.w.context()
	archives, err := si.db.Archives(ctx)
	if err != nil {
		return from, err
	}
	for _, a := range archives {
		if a.Kind != agentdb.ArchiveCold || a.SessionID != si.sessionID {
			continue
		}
		data, err := si.db.ArchiveJSONL(ctx, a)
		if err != nil && data == nil {
			return from, err
		}
		from = 0
		si.state.Docs = si.state.Docs[:0]
		for seq, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if int64(len(line)) > si.w.maxLine() {
				si.tooLong(agentdb.Event{Seq: int64(seq), TooLong: true, Bytes: int64(len(line))})
				continue
			}
			if err := si.add(int64(seq), []byte(line)); err != nil {
				return from, err
			}
		}
	}
	return from, nil
}

// indexEvents indexes the session's events from seq from on; an event
// over the line cap is reported and stepped over.
func (si *sessionIndex) indexEvents(from int64) error {
	var addErr error
	err := si.db.Events(si.w.context(), si.sessionID, from-1, si.w.maxLine(), func(ev agentdb.Event) bool {
		if ev.TooLong {
			si.tooLong(ev)
			return true
		}
		addErr = si.add(ev.Seq, ev.Text)
		return addErr == nil
	})
	return errors.Join(err, addErr)
}

// tooLong steps over an event longer than the line cap, reporting it.
func (si *sessionIndex) tooLong(ev agentdb.Event) {
	si.w.st.Problems = append(si.w.st.Problems, fmt.Sprintf("%s seq %d: the event is %d bytes, longer than the %d-byte cap (max_line_mb); it is not searched", si.f.root.Store, ev.Seq, ev.Bytes, si.w.maxLine()))
	si.state.Indexed, si.state.Hash = ev.Seq+1, eventHash(ev)
}

// eventHash is what the manifest keeps of the last indexed event: the
// hash of its text, or of its size when it was over the cap (its text was
// never read).
func eventHash(ev agentdb.Event) [16]byte {
	if ev.TooLong {
		return eventSum(fmt.Appendf(nil, "over the cap: %d bytes", ev.Bytes))
	}
	return eventSum(ev.Text)
}

func eventSum(text []byte) (h [16]byte) {
	sum := sha256.Sum256(text)
	copy(h[:], sum[:])
	return h
}

// sqliteRootDir is the folder of a store, as a root's Dir.
func sqliteRootDir(store string) string { return filepath.Dir(store) }
