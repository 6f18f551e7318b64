package model

import (
	"fmt"
	"path/filepath"
	"time"
)

// SeqCursor is clawvault-tui's cursor for one session of OpenClaw's
// SQLite-era store: the last transcript event (seq) it observed. It lives in
// its own file, never in ClawVault's observe-cursors.json, where ClawVault
// would read it as a byte offset (and drop it when it rewrites the file).
type SeqCursor struct {
	AgentID    string
	SessionKey string
	// LastSeq is the seq of the last observed event; events after it are
	// pending.
	LastSeq int64
	// ObservedBytes are the JSONL-equivalent bytes of the events through
	// LastSeq (each event's UTF-8 bytes and a newline).
	ObservedBytes int64
	ObservedAt    time.Time
}

// SeqCursorState is the seq cursor file as loaded.
type SeqCursorState struct {
	Path    string
	Cursors map[string]SeqCursor // by session id
	// Problems name entries that are ignored, by session id.
	Problems map[string]string
	// Corrupt is why a file that exists does not parse; it loads as empty
	// (every SQLite session counts as never observed).
	Corrupt string
	// ReadError is why a file that exists could not be read: its content
	// is unknown, not corrupt, so what is pending is unknown too and a
	// sweep of SQLite sessions must not run on it.
	ReadError error
	Missing   bool
}

// Get returns the cursor of a session.
func (s SeqCursorState) Get(sessionID string) (SeqCursor, bool) {
	c, ok := s.Cursors[sessionID]
	return c, ok
}

// After returns the seq after which a session's events are pending: its
// cursor's, else -1 (every event).
func (s SeqCursorState) After(sessionID string) int64 {
	if c, ok := s.Cursors[sessionID]; ok {
		return c.LastSeq
	}
	return -1
}

// SQLiteStore is what a look at an agent's SQLite-era store found: session
// keys, their generations and their sizes, by aggregate queries only.
type SQLiteStore struct {
	Path    string
	Size    int64 // the database file and its write-ahead log
	ModTime time.Time
	// Problem is the one sentence saying why the store could not be read.
	Problem       string
	SchemaVersion int
	AppVersion    string
	// UnknownVersion: a schema version this build has not seen, read
	// because its tables have what is read.
	UnknownVersion bool
	Nodes          []SQLiteNode
	// NodeProblems name, by session key, the session_nodes entries with a
	// field of the wrong type, as AgentSnapshot.RowProblems does for
	// sessions.json.
	NodeProblems map[string]string
	Windows      []SQLiteWindow
	Stats        map[string]EventStats // by session id
	Archives     []SQLiteArchive
	Memory       *MemoryIndexHealth
	// Reindex is what OpenClaw's memory reindex left beside the store.
	Reindex *ReindexState
}

// SQLiteNode is one session key (a session_nodes row).
type SQLiteNode struct {
	Key              string
	CurrentSessionID string
	// Entry is entry_json, decoded as a sessions.json row is for status.
	Entry      StatusEntry
	EntryValid int // OpenClaw's verdict: 1 valid, 0 unchecked, -1 invalid
	Status     string
	CreatedVia string
}

// SQLiteWindow is one generation of a session key (a session_windows row).
type SQLiteWindow struct {
	SessionID, Key, Previous string
	// Reason is initial, reset, rollover, fork, rewind, switch, recovery,
	// compaction, or "" after an import from JSONL.
	Reason                             string
	CreatedAt, UpdatedAt, EndedAt      time.Time
	Channel, ChatType, Provider, Model string
	// Cold: the events were moved to a cold archive (ColdBytes of JSONL,
	// ColdEvents events).
	Cold                  bool
	ColdBytes, ColdEvents int64
	ColdLastSeq           int64
	ColdArchive           string
	// Change names the transcript as it is now (it changes with every
	// write): what was read of it is cached under it.
	Change string
}

// EventStats are a session's events as counts and JSONL-equivalent bytes.
type EventStats struct {
	Events, Bytes, LastSeq int64
	// PendingEvents and PendingBytes follow the session's seq cursor.
	PendingEvents, PendingBytes int64
}

// SQLiteArchive is a reclaimed or cold transcript generation.
type SQLiteArchive struct {
	Kind       string // archive or cold
	SessionID  string
	Key        string
	Reason     string // deleted or reset
	Name       string
	Bytes      int64 // as stored
	RawBytes   int64
	CreatedAt  time.Time
	File       string // the derived or cold file, when there is one
	Generation string
}

// Generation says where a SQLite status row sits in its key's lineage.
type Generation struct {
	Reason   string
	Previous string
	// Current: the key's current_session_id.
	Current bool
	Cold    bool
	// Events and LastSeq size the transcript; PendingEvents follow the
	// seq cursor.
	Events, LastSeq, PendingEvents int64
	// Carried is ClawVault's byte cursor on the session's JSONL, from
	// before it moved into the store, carried over to a seq (when the
	// session has no seq cursor of its own); CarriedFrom is that JSONL.
	Carried     *CarriedCursor
	CarriedFrom string
	// Read is where a sweep of ours reads it from.
	Read SeqRead
}

// SeqRead is where the next read of a SQLite-era session starts: after
// its seq cursor, or from its first event when there is none or the
// cursor no longer fits the session.
type SeqRead struct {
	AfterSeq                    int64 // -1: from the first event
	StartBytes                  int64 // the JSONL-equivalent bytes before the read
	PendingBytes, PendingEvents int64
	// Restart says why a cursor was set aside, as ClawVault sets aside a
	// byte cursor that lies past the end of its file: the events through
	// the cursor's seq no longer hold the bytes it observed (they were
	// rewritten or cut), or the cold archive the events moved to does not
	// reach them. "" when the cursor holds, or there is none.
	Restart string
}

// SeqReadOf checks a session's seq cursor against its events and says
// where its next read starts. For a live session, s are its stats with
// the pending events after c's seq (after -1 without a cursor): the bytes
// through the cursor's seq must be the bytes it observed, else the events
// below it changed and the whole session is read again (a rewrite that
// keeps every byte count is not seen: a seq cursor, like ClawVault's byte
// cursor, trusts what it read). A cold generation (g.Cold: its events are
// in an archive of size bytes, g.Events events through g.LastSeq) is read
// from the cursor's byte in the archive's JSONL, the same bytes the live
// events were; a cursor beyond the archive's end starts it over.
func SeqReadOf(c *SeqCursor, g *Generation, size int64, s EventStats) SeqRead {
	if g.Cold {
		r := SeqRead{AfterSeq: -1, PendingBytes: size, PendingEvents: g.Events}
		switch {
		case c == nil:
		case c.ObservedBytes > size || c.LastSeq > g.LastSeq || (c.ObservedBytes == size) != (c.LastSeq == g.LastSeq):
			r.Restart = fmt.Sprintf("its seq cursor (seq %d, %s) does not fit the cold archive its events moved to (seq %d, %s)",
				c.LastSeq, BytesExact(c.ObservedBytes), g.LastSeq, BytesExact(size))
		default:
			r.AfterSeq, r.StartBytes = c.LastSeq, c.ObservedBytes
			r.PendingBytes, r.PendingEvents = size-c.ObservedBytes, min(g.Events, g.LastSeq-c.LastSeq)
		}
		return r
	}
	r := SeqRead{AfterSeq: -1, PendingBytes: s.PendingBytes, PendingEvents: s.PendingEvents}
	if c == nil {
		return r
	}
	observed := s.Bytes - s.PendingBytes
	switch {
	case s.LastSeq < c.LastSeq && observed != c.ObservedBytes:
		r.Restart = fmt.Sprintf("the session ends at seq %d, before its seq cursor (seq %d): its events were cut or rewritten", s.LastSeq, c.LastSeq)
	case observed != c.ObservedBytes:
		r.Restart = fmt.Sprintf("the events through seq %d hold %s, not the %s observed: they were rewritten since", c.LastSeq, BytesExact(observed), BytesExact(c.ObservedBytes))
	default:
		r.AfterSeq, r.StartBytes = c.LastSeq, c.ObservedBytes
		return r
	}
	r.PendingBytes, r.PendingEvents = s.Bytes, s.Events
	return r
}

// GenerationReason is the reason as shown: "imported" when OpenClaw's
// importer left it empty.
func (g *Generation) GenerationReason() string {
	if g.Reason == "" {
		return "imported"
	}
	return g.Reason
}

// sqliteRows builds a status row per generation of every session key of
// the store, or one row saying why the store could not be read.
func sqliteRows(snap AgentSnapshot, seq SeqCursorState, opt StatusOptions) []SessionRow {
	st := snap.SQLiteStore
	if st == nil {
		return nil
	}
	if st.Problem != "" || len(st.Windows) == 0 {
		return []SessionRow{{Agent: snap.AgentID, File: st.Path, Origin: OriginSQLite, Exists: true, Size: st.Size, ModTime: st.ModTime}}
	}
	carried := carriedCursors(snap.Imports)
	nodes := make(map[string]*SQLiteNode, len(st.Nodes))
	for i := range st.Nodes {
		nodes[st.Nodes[i].Key] = &st.Nodes[i]
	}
	rows := make([]SessionRow, 0, len(st.Windows))
	for _, w := range st.Windows {
		s := st.Stats[w.SessionID]
		g := &Generation{Reason: w.Reason, Previous: w.Previous, Cold: w.Cold, Events: s.Events, LastSeq: s.LastSeq}
		row := SessionRow{
			Agent: snap.AgentID, Key: w.Key, SessionID: w.SessionID, File: st.Path, Origin: OriginSQLite,
			Exists: s.Events > 0 || w.Cold, Size: s.Bytes, ModTime: w.UpdatedAt, CursorID: w.SessionID,
			Label: SourceLabel(w.Key), Generation: g,
		}
		if w.Cold {
			row.Size, g.Events, g.LastSeq = w.ColdBytes, w.ColdEvents, w.ColdLastSeq
		}
		if n := nodes[w.Key]; n != nil && n.CurrentSessionID == w.SessionID {
			g.Current = true
			row.Entry = &n.Entry
		}
		if c, ok := seq.Get(w.SessionID); ok {
			row.SeqCursor = &c
		}
		row.CursorProblem = seq.Problems[w.SessionID]
		cursor := row.SeqCursor
		if ch := carried[w.SessionID]; cursor == nil && ch != nil && !w.Cold {
			g.Carried, g.CarriedFrom = ch.Carry, ch.File
			cursor, s = ch.Carry.seqCursor(s)
		}
		g.Read = SeqReadOf(cursor, g, row.Size, s)
		g.PendingEvents = g.Read.PendingEvents
		pending := g.Read.PendingBytes
		row.Selection = Selection{StartOffset: g.Read.StartBytes, NewBytes: pending, ThresholdBytes: ThresholdBytes(row.Size), PastEOF: g.Read.Restart != ""}
		if opt.MinNewBytes > 0 {
			row.Selection.ThresholdBytes = opt.MinNewBytes
		}
		// clawvault-tui's sweep takes it (ClawVault's never does).
		row.Selection.Candidate = pending > 0 && pending >= row.Selection.ThresholdBytes && row.CursorProblem == ""
		row.Candidate = row.Selection.Candidate
		rows = append(rows, row)
	}
	return rows
}

// carriedCursors are the byte cursors carried over from the sessions'
// JSONL, by session id: one that carries over where there is one.
func carriedCursors(checks []ImportCheck) map[string]*ImportCheck {
	out := map[string]*ImportCheck{}
	for i := range checks {
		ch := &checks[i]
		if ch.Carry == nil {
			continue
		}
		if was := out[ch.SessionID]; was == nil || was.Carry.Problem != "" && ch.Carry.Problem == "" {
			out[ch.SessionID] = ch
		}
	}
	return out
}

// seqCursor is the seq cursor a carried byte cursor stands for (nil when
// it does not carry over, or observed nothing), and the session's stats
// with the events after it pending.
func (c *CarriedCursor) seqCursor(s EventStats) (*SeqCursor, EventStats) {
	if c.Problem != "" || c.LastSeq < 0 {
		return nil, s
	}
	s.PendingEvents, s.PendingBytes = max(s.Events-c.Events, 0), max(s.Bytes-c.ObservedBytes, 0)
	return &SeqCursor{LastSeq: c.LastSeq, ObservedBytes: c.ObservedBytes}, s
}

// diagnoseSQLite explains a SQLite-era row: ClawVault cannot observe it;
// clawvault-tui reads it after its seq cursor. An observed session is as
// fine as an observed JSONL one: the same codes tell how far it is read
// and what the next sweep does (no-cursor, candidate, below-threshold,
// overdue), beside sqlite-session, which says where it lives.
func diagnoseSQLite(row *SessionRow, snap AgentSnapshot, seq SeqCursorState) []Diagnosis {
	st := snap.SQLiteStore
	var out []Diagnosis
	if st == nil {
		// Not read (a stat-only snapshot): what the file's presence says.
		return appendDiagnosis(out, CodeSQLiteStore, "This agent keeps its transcripts in the SQLite-era store %s (%s), which ClawVault 3.5.2 cannot read: nothing written there is ever observed by it.", filepath.Base(snap.SQLitePath), Bytes(row.Size))
	}
	name := filepath.Base(st.Path)
	if row.Generation == nil {
		if st.Problem != "" {
			return appendDiagnosis(out, CodeSQLiteStore, "%s cannot be read: %s", name, st.Problem)
		}
		return appendDiagnosis(out, CodeSQLiteSession, "%s (%s) holds no session yet.", name, Bytes(row.Size))
	}
	g := row.Generation
	out = appendDiagnosis(out, CodeSQLiteSession, "ClawVault 3.5.2 cannot observe this session: %s. clawvault-tui can, by seq: %s.", sqliteWhere(g, name), seqProgress(row, seq))
	out = diagnoseSeqFile(out, seq)
	out = diagnoseSeqProgress(out, row, seq)
	if c := g.Carried; c != nil && c.Problem != "" {
		out = appendDiagnosis(out, CodeCursorNotCarried, "ClawVault observed this session's JSONL (%s) to byte %s before it moved into the store, but that cursor is not carried over: %s. The next sweep reads the session from its first event (what ClawVault observed of it is observed again).",
			g.CarriedFrom, Count(c.Offset), c.Problem)
	}
	if g.Read.Restart != "" {
		out = appendDiagnosis(out, CodeCursorPastEOF, "The seq cursor of %s no longer fits the session (%s): the next sweep reads it again from its first event, as a byte cursor past the end of a file is read again from byte 0.", row.SessionID, g.Read.Restart)
	}
	if row.CursorProblem != "" {
		out = appendDiagnosis(out, CodeCursorInvalid, "The seq cursor entry for %s is ignored (%s): a sweep does not observe the session until the entry is fixed, or removed (then from its first event).", row.SessionID, row.CursorProblem)
	}
	if !g.Current {
		out = appendDiagnosis(out, CodeSQLiteGeneration, "An earlier generation of %s (%s): OpenClaw has moved the key on to another session; what was said here stays in this transcript.", row.Key, g.GenerationReason())
	}
	return withFlush(out, row)
}

// sqliteWhere says where a generation's events are.
func sqliteWhere(g *Generation, name string) string {
	if g.Cold {
		return fmt.Sprintf("its events were moved to a cold archive of %s, which ClawVault never reads", name)
	}
	return fmt.Sprintf("it lives in %s, which ClawVault never reads", name)
}

// seqProgress says how far clawvault-tui has read a session by seq.
func seqProgress(row *SessionRow, seq SeqCursorState) string {
	g, sel := row.Generation, row.Selection
	file := ".clawvault/" + SeqCursorFileName
	switch {
	case seq.ReadError != nil:
		return fmt.Sprintf("its seq cursor file %s cannot be read, so what is pending is unknown (all %s in %d events if nothing was observed)", file, BytesExact(sel.NewBytes), g.Events)
	case seq.Corrupt != "":
		return fmt.Sprintf("its seq cursor file %s cannot be used, so all %s in %d events count as pending", file, BytesExact(sel.NewBytes), g.PendingEvents)
	case row.SeqCursor == nil && g.Carried != nil && g.Carried.Problem == "" && g.Read.Restart == "":
		return fmt.Sprintf("ClawVault observed its JSONL (%s) to byte %s before it moved into the store: that is through seq %d, so the %s in %d events after it are pending",
			filepath.Base(g.CarriedFrom), Count(g.Carried.Offset), g.Carried.LastSeq, BytesExact(sel.NewBytes), g.PendingEvents)
	case row.SeqCursor == nil:
		return fmt.Sprintf("it has no seq cursor for it yet (%s), so all %s in %d events are pending", file, BytesExact(sel.NewBytes), g.Events)
	case g.Read.Restart != "":
		return fmt.Sprintf("%s, so all %s in %d events are pending again", g.Read.Restart, BytesExact(sel.NewBytes), g.PendingEvents)
	}
	return fmt.Sprintf("it observed it through seq %d on %s (%s), and the %s in %d events after that are pending",
		row.SeqCursor.LastSeq, row.SeqCursor.ObservedAt.UTC().Format("2006-01-02 15:04 UTC"), file, BytesExact(sel.NewBytes), g.PendingEvents)
}

// diagnoseSeqFile says what is wrong with the seq cursor file.
func diagnoseSeqFile(out []Diagnosis, seq SeqCursorState) []Diagnosis {
	file := ".clawvault/" + SeqCursorFileName
	if seq.ReadError != nil {
		out = appendDiagnosis(out, CodeCursorFileUnreadable, "The seq cursor file %s cannot be read (%s): clawvault-tui does not sweep the SQLite-era sessions until it can.", file, OSReason(seq.ReadError))
	}
	if seq.Corrupt != "" {
		out = appendDiagnosis(out, CodeCursorFileCorrupt, "The seq cursor file %s cannot be used (%s): a sweep refuses to run until it is restored or moved aside.", file, seq.Corrupt)
	}
	return out
}

// diagnoseSeqProgress gives a SQLite-era session the codes a JSONL one
// gets: never observed, and what the next sweep does with it.
func diagnoseSeqProgress(out []Diagnosis, row *SessionRow, seq SeqCursorState) []Diagnosis {
	g, sel := row.Generation, row.Selection
	if seq.ReadError != nil || seq.Corrupt != "" || row.CursorProblem != "" {
		return out
	}
	carried := g.Carried != nil && g.Carried.Problem == "" && g.Carried.LastSeq >= 0
	if row.SeqCursor == nil && !carried && g.Events > 0 {
		out = append(out, Diagnosis{CodeNoCursor, "Never observed: .clawvault/" + SeqCursorFileName + " has no seq cursor for " + row.SessionID + "."})
	}
	if sel.NewBytes == 0 {
		return out
	}
	if row.Candidate {
		out = appendDiagnosis(out, CodeCandidate, "The next `clawvault-tui observe --agent %s` observes it: %s pending reach the %s threshold.", row.Agent, BytesExact(sel.NewBytes), BytesExact(sel.ThresholdBytes))
		if sel.NewBytes >= OverdueFactor*sel.ThresholdBytes {
			out = appendDiagnosis(out, CodeOverdue, "%d× the threshold is pending: no sweep of clawvault-tui has reached this session in a long while.", sel.NewBytes/sel.ThresholdBytes)
		}
		return out
	}
	return appendDiagnosis(out, CodeBelowThreshold, "Needs %s more before a sweep takes it: %s pending of the %s threshold.",
		BytesExact(sel.ThresholdBytes-sel.NewBytes), BytesExact(sel.NewBytes), BytesExact(sel.ThresholdBytes))
}

// SeqCursorFileName is the seq cursor file, in the vault's .clawvault/.
const SeqCursorFileName = "clawvault-tui-seq-cursors.json"
