package observer

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
)

// ClawVault 3.5.2 cannot observe the sessions of OpenClaw's SQLite-era
// store (agents/<id>/agent/openclaw-agent.sqlite): it reads only JSONL
// files. A sweep of ours observes them as it observes files:
//   - a session's pending bytes are the UTF-8 bytes of its events after its
//     seq cursor, plus a newline each (the JSONL line each event was or
//     would be), so the 50/150/300 KiB thresholds keep their meaning;
//   - the pending events are read in seq order (event_json and event_zstd
//     alike) and each one goes through the message extraction a JSONL line
//     goes through, then the same compressor, day file, router and raw
//     ledger;
//   - the cursor is the last observed seq per session id, kept in a file of
//     ours (store.SeqCursorFile), never in observe-cursors.json, and moved
//     in the same journaled commit as ClawVault's cursors, after the vault's
//     Markdown and the raw ledger are in place.
// A generation moved to a cold archive is read from the archive, from its
// seq cursor's byte on (the archive's JSONL is the events' bytes): what
// was not observed before the move is observed once. A seq cursor that no
// longer fits its session (the events through it were rewritten or cut, or
// it lies beyond the cold archive's end) is set aside and the session read
// again from its first event, as ClawVault reads a file again from byte 0
// when its byte cursor lies past the end (model.SeqReadOf).

// SeqRange is what a candidate of the SQLite-era store reads: the events
// after AfterSeq (-1: from the first).
type SeqRange struct {
	AfterSeq int64 `json:"afterSeq"`
	// LastSeq and Events are the session's last seq and pending events when
	// it was selected (events appended since are read too).
	LastSeq int64 `json:"lastSeq"`
	Events  int64 `json:"events"`
	// Cold: the session's events are in a cold archive, read from the
	// cursor's byte (the candidate's StartOffset) on.
	Cold bool `json:"cold,omitempty"`
	// Restart says why the seq cursor was set aside: the read starts at
	// the first event (PastEOF is set too).
	Restart string `json:"restart,omitempty"`
}

// SeqCursorOut is a seq cursor as written to the seq cursor file.
type SeqCursorOut struct {
	AgentID         string `json:"agentId"`
	SessionKey      string `json:"sessionKey"`
	LastObservedSeq int64  `json:"lastObservedSeq"`
	ObservedBytes   int64  `json:"observedBytes"`
	LastObservedAt  string `json:"lastObservedAt"`
}

// SelectSQLite lists one agent's sessions of the SQLite-era store that are
// over their threshold, from the snapshot's status rows (aggregates only,
// pending bytes after each seq cursor): every generation of every key,
// current or not, as ClawVault observes every transcript file it finds.
// checked counts the sessions looked at.
func SelectSQLite(snap *store.Snapshot, agentID string, minNewBytes int64) (cands []Candidate, checked int) {
	for i := range snap.Rows {
		r := &snap.Rows[i]
		if r.Agent != agentID || r.Origin != model.OriginSQLite || r.Generation == nil {
			continue
		}
		checked++
		if r.CursorProblem != "" {
			continue // a sweep fails it, saying why; status says so too
		}
		if c, ok := sqliteCandidate(r, r.Generation.Read, minNewBytes); ok {
			cands = append(cands, c)
		}
	}
	return cands, checked
}

// SelectWithSQLite is Select, and SelectSQLite in the selection's SQLite
// fields: what a sweep of ours takes from the agent.
func SelectWithSQLite(snap *store.Snapshot, agentID string, minNewBytes int64) Selection {
	sel := Select(snap, agentID, minNewBytes)
	sel.SQLite, sel.SQLiteChecked = SelectSQLite(snap, agentID, minNewBytes)
	return sel
}

// sqliteCandidate makes a row a candidate when its pending bytes (after
// the read's start, model.SeqReadOf) reach the threshold: ClawVault's,
// scaled by the session's size, or minNewBytes.
func sqliteCandidate(r *model.SessionRow, read model.SeqRead, minNewBytes int64) (Candidate, bool) {
	g := r.Generation
	threshold := model.ThresholdBytes(r.Size)
	if minNewBytes > 0 {
		threshold = minNewBytes
	}
	c := Candidate{Agent: r.Agent, SessionKey: r.Key, SessionID: r.SessionID, Source: model.SourceLabel(r.Key), File: r.File,
		FileSize: r.Size, StartOffset: read.StartBytes, NewBytes: read.PendingBytes, ThresholdBytes: threshold, CursorID: r.SessionID,
		PastEOF: read.Restart != "",
		Seq:     &SeqRange{AfterSeq: read.AfterSeq, LastSeq: g.LastSeq, Events: read.PendingEvents, Cold: g.Cold, Restart: read.Restart}}
	return c, c.NewBytes > 0 && c.NewBytes >= threshold
}

// stores keeps the agent stores a sweep opened, read-only, until it ends:
// sessions of one store share a connection pool (database/sql is safe for
// the read-ahead goroutine too).
type stores struct {
	mu  sync.Mutex
	dbs map[string]*agentdb.DB
}

func (s *stores) open(ctx context.Context, path string) (*agentdb.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if db := s.dbs[path]; db != nil {
		return db, nil
	}
	db, err := agentdb.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if s.dbs == nil {
		s.dbs = map[string]*agentdb.DB{}
	}
	s.dbs[path] = db
	return db, nil
}

func (s *stores) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, db := range s.dbs {
		_ = db.Close()
	}
	s.dbs = nil
}

// readSeq reads a SQLite-era candidate's pending events in seq order, in
// one read transaction (the gateway may append meanwhile: what it appends
// after the read began waits for the next sweep). Each event is one JSONL
// line to the message extraction; NextOffset counts JSONL-equivalent
// bytes, LastSeq the last event read. An event longer than maxLine is
// skipped and reported, as a long line is.
func readSeq(ctx context.Context, dbs *stores, c Candidate, maxLine int64, emit func(msg string), progress func(n int64)) (readResult, error) {
	res := readResult{NextOffset: c.StartOffset, LastSeq: c.Seq.AfterSeq}
	db, err := dbs.open(ctx, c.File)
	if err != nil {
		return res, err
	}
	if c.Seq.Cold {
		return readCold(ctx, db, c, maxLine, emit, progress)
	}
	var reported int64
	err = db.Events(ctx, c.SessionID, c.Seq.AfterSeq, maxLine, func(ev agentdb.Event) bool {
		res.Lines++
		if ev.TooLong {
			// Measured by SQLite, never loaded: skipped as a long line is.
			res.LongLines = append(res.LongLines, LongLine{Line: res.Lines, Offset: res.NextOffset, Bytes: ev.Bytes, Seq: &ev.Seq})
		} else if msg := normalizeLineFast(ev.Text); msg != "" {
			emit(msg)
			res.Messages++
		} else if !isBlankOrValidJSON(ev.Text) {
			res.Malformed++
		}
		res.NextOffset += ev.Bytes + 1
		res.LastSeq = ev.Seq
		if res.Lines%1024 == 0 {
			if ctx.Err() != nil {
				return false
			}
			if progress != nil {
				progress(res.NextOffset - c.StartOffset - reported)
				reported = res.NextOffset - c.StartOffset
			}
		}
		return true
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return res, err
	}
	res.BytesRead = res.NextOffset - c.StartOffset
	if progress != nil {
		progress(res.BytesRead - reported)
	}
	return res, nil
}

// readCold reads a cold generation's archive: its JSONL lines from the
// candidate's start on, as a file's are read; the cursor then names the
// archive's last seq. A start that is not the end of a line of the archive
// is an error: the archive does not hold the events the cursor counted.
func readCold(ctx context.Context, db *agentdb.DB, c Candidate, maxLine int64, emit func(msg string), progress func(n int64)) (readResult, error) {
	res := readResult{LastSeq: c.Seq.AfterSeq, NextOffset: c.StartOffset}
	archives, err := db.Archives(ctx)
	if err != nil {
		return res, err
	}
	for _, a := range archives {
		if a.Kind != agentdb.ArchiveCold || a.SessionID != c.SessionID {
			continue
		}
		data, err := db.ArchiveJSONL(ctx, a)
		if err != nil {
			return res, err
		}
		start := c.StartOffset
		if start < 0 || start > int64(len(data)) || start > 0 && data[start-1] != '\n' {
			return res, fmt.Errorf("its seq cursor counts %s observed, which is not the end of a line of its cold archive %s (%s): the archive does not hold the events the cursor counted; remove the session's entry from the seq cursor file to observe it again from its first event",
				model.BytesExact(start), a.Name, model.BytesExact(int64(len(data))))
		}
		res, err = readSequential(ctx, bytes.NewReader(data), start, int64(len(data)), maxLine, emit, progress)
		if err != nil {
			return res, err
		}
		res.BytesRead, res.LastSeq = res.NextOffset-start, a.LastSeq
		return res, nil
	}
	return res, fmt.Errorf("session %s is cold, but %s has no cold archive for it any more", c.SessionID, c.File)
}

// seqUpdate is the seq cursor a finished read moves a candidate to.
func seqUpdate(c Candidate, read readResult, now time.Time) *store.SeqCursorUpdate {
	if read.LastSeq <= c.Seq.AfterSeq {
		return nil
	}
	return &store.SeqCursorUpdate{SessionID: c.CursorID, Cursor: model.SeqCursor{AgentID: c.Agent, SessionKey: c.SessionKey,
		LastSeq: read.LastSeq, ObservedBytes: read.NextOffset, ObservedAt: now.UTC()}}
}

// loadSeqCursors reads the seq cursor file when one of the agents swept has
// sessions in a SQLite-era store. Unlike ClawVault's cursor file, a file of
// ours that cannot be read or does not parse stops the sweep: starting over
// would observe every such session again from its first event.
func (s *sweeper) loadSeqCursors(snap *store.Snapshot, agents []string) (model.SeqCursorState, error) {
	for i := range snap.Rows {
		r := &snap.Rows[i]
		if r.Origin == model.OriginSQLite && r.Generation != nil && slices.Contains(agents, r.Agent) {
			return store.ReadSeqCursors(s.fsys, s.vault)
		}
	}
	return model.SeqCursorState{}, nil
}

// selectSQLite is SelectSQLite under the lock, with the seq cursors as they
// are now: a session whose cursor moved since the snapshot (another sweep)
// has its pending events counted again. A session whose cursor entry is
// invalid is not observed, and fails with the reason; under
// --clawvault-compat none is observed (ClawVault cannot read them).
func (s *sweeper) selectSQLite(ctx context.Context, snap *store.Snapshot, agentID string, seq model.SeqCursorState) []Candidate {
	var out []Candidate
	compat := 0
	for i := range snap.Rows {
		r := &snap.Rows[i]
		if r.Agent != agentID || r.Origin != model.OriginSQLite || r.Generation == nil {
			continue
		}
		s.report.Checked++
		fail := func(err error) {
			res := SessionResult{Agent: r.Agent, SessionKey: r.Key, SessionID: r.SessionID, CursorID: r.SessionID, Source: model.SourceLabel(r.Key),
				File: r.File, ByType: map[string]int{}, Routed: []RoutedFile{}, Backlog: []string{}, Error: err.Error()}
			s.report.Failed = append(s.report.Failed, res)
			s.report.Errors = append(s.report.Errors, fmt.Sprintf("%s (%s): %v", r.Key, r.SessionID, err))
		}
		if problem := seq.Problems[r.SessionID]; problem != "" {
			fail(fmt.Errorf("its seq cursor entry in %s is invalid (%s): fix it, or remove it to observe the session from its first event", seq.Path, problem))
			continue
		}
		var cursor *model.SeqCursor
		if cur, ok := seq.Get(r.SessionID); ok {
			cursor = &cur
		}
		read := r.Generation.Read
		switch {
		case sameSeqCursor(cursor, r.SeqCursor):
		case r.Generation.Cold:
			read = model.SeqReadOf(cursor, r.Generation, r.Size, model.EventStats{})
		default:
			after := int64(-1)
			if cursor != nil {
				after = cursor.LastSeq
			}
			db, err := s.dbs.open(ctx, r.File)
			if err == nil {
				var st agentdb.Stats
				if st, err = db.SessionStats(ctx, r.SessionID, after); err == nil {
					read = model.SeqReadOf(cursor, r.Generation, r.Size, model.EventStats{Events: st.Events, Bytes: st.Bytes,
						LastSeq: st.LastSeq, PendingEvents: st.PendingEvents, PendingBytes: st.PendingBytes})
				}
			}
			if err != nil {
				fail(err)
				continue
			}
		}
		c, ok := sqliteCandidate(r, read, s.opt.MinNewBytes)
		switch {
		case !ok:
		case s.fixes == Fixes{}:
			compat++
		default:
			out = append(out, c)
		}
	}
	if compat > 0 {
		were := "were"
		if compat == 1 {
			were = "was"
		}
		s.report.Notes = append(s.report.Notes, fmt.Sprintf("%s of agent %s's SQLite-era store over the threshold %s not observed: --clawvault-compat writes only what ClawVault 3.5.2 would, and it cannot read that store", model.Plural(compat, "session", "sessions"), agentID, were))
	}
	return out
}

func sameSeqCursor(a, b *model.SeqCursor) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.LastSeq == b.LastSeq && a.ObservedBytes == b.ObservedBytes
}
