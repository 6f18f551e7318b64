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
	Windows        []SQLiteWindow
	Stats          map[string]EventStats // by session id
	Archives       []SQLiteArchive
	Memory         *MemoryIndexHealth
}

// SQLiteNode is one session key (a session_nodes row).
type SQLiteNode struct {
	Key              string
	CurrentSessionID string
	// Entry is entry_json, decoded as a sessions.json row is.
	Entry      SessionEntry
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
	ColdArchive           string
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
	nodes := make(map[string]*SQLiteNode, len(st.Nodes))
	for i := range st.Nodes {
		nodes[st.Nodes[i].Key] = &st.Nodes[i]
	}
	rows := make([]SessionRow, 0, len(st.Windows))
	for _, w := range st.Windows {
		s := st.Stats[w.SessionID]
		g := &Generation{Reason: w.Reason, Previous: w.Previous, Cold: w.Cold, Events: s.Events, LastSeq: s.LastSeq, PendingEvents: s.PendingEvents}
		row := SessionRow{
			Agent: snap.AgentID, Key: w.Key, SessionID: w.SessionID, File: st.Path, Origin: OriginSQLite,
			Exists: s.Events > 0 || w.Cold, Size: s.Bytes, ModTime: w.UpdatedAt, CursorID: w.SessionID,
			Label: SourceLabel(w.Key), Generation: g,
		}
		if w.Cold {
			row.Size, g.Events = w.ColdBytes, w.ColdEvents
		}
		if n := nodes[w.Key]; n != nil && n.CurrentSessionID == w.SessionID {
			g.Current = true
			row.Entry = &n.Entry
		}
		if c, ok := seq.Get(w.SessionID); ok {
			row.SeqCursor = &c
		}
		row.CursorProblem = seq.Problems[w.SessionID]
		pending := s.PendingBytes
		if w.Cold && row.SeqCursor == nil {
			pending = row.Size
		}
		row.Selection = Selection{NewBytes: pending, ThresholdBytes: ThresholdBytes(row.Size)}
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

// diagnoseSQLite explains a SQLite-era row: ClawVault cannot observe it;
// clawvault-tui reads it after its seq cursor.
func diagnoseSQLite(row *SessionRow, snap AgentSnapshot, seq SeqCursorState) []Diagnosis {
	st := snap.SQLiteStore
	var out []Diagnosis
	add := func(code DiagnosisCode, format string, args ...any) {
		out = append(out, Diagnosis{code, fmt.Sprintf(format, args...)})
	}
	if st == nil {
		// Not read (a stat-only snapshot): what the file's presence says.
		add(CodeSQLiteStore, "This agent keeps its transcripts in the SQLite-era store %s (%s), which ClawVault 3.5.2 cannot read: nothing written there is ever observed by it.", filepath.Base(snap.SQLitePath), Bytes(row.Size))
		return out
	}
	name := filepath.Base(st.Path)
	if row.Generation == nil {
		if st.Problem != "" {
			add(CodeSQLiteStore, "%s cannot be read: %s", name, st.Problem)
		} else {
			add(CodeSQLiteStore, "%s (%s) holds no session yet.", name, Bytes(row.Size))
		}
		return out
	}
	g := row.Generation
	where := fmt.Sprintf("it lives in %s, which ClawVault never reads", name)
	if g.Cold {
		where = fmt.Sprintf("its events were moved to a cold archive of %s, which ClawVault never reads", name)
	}
	sel := row.Selection
	file := ".clawvault/" + SeqCursorFileName
	var ours string
	switch {
	case seq.ReadError != nil:
		ours = fmt.Sprintf("its seq cursor file %s cannot be read (%s), so what is pending is unknown (all %s in %d events if nothing was observed) and it does not sweep these sessions until it can be read", file, OSReason(seq.ReadError), BytesExact(sel.NewBytes), g.Events)
	case seq.Corrupt != "":
		ours = fmt.Sprintf("its seq cursor file %s cannot be used (%s), so a sweep refuses to run until it is restored or moved aside; all %s in %d events count as pending", file, seq.Corrupt, BytesExact(sel.NewBytes), g.PendingEvents)
	case row.SeqCursor == nil:
		ours = fmt.Sprintf("it has no seq cursor for it yet (%s), so all %s in %d events are pending", file, BytesExact(sel.NewBytes), g.Events)
	default:
		ours = fmt.Sprintf("it observed it through seq %d on %s (%s), and the %s in %d events after that are pending",
			row.SeqCursor.LastSeq, row.SeqCursor.ObservedAt.UTC().Format("2006-01-02 15:04 UTC"), file, BytesExact(sel.NewBytes), g.PendingEvents)
	}
	verdict := "below"
	if sel.NewBytes >= sel.ThresholdBytes {
		verdict = "over"
	}
	next := ""
	if row.Candidate && seq.Corrupt == "" && seq.ReadError == nil {
		next = fmt.Sprintf(" The next `clawvault-tui observe --agent %s` observes it.", row.Agent)
	}
	add(CodeSQLiteStore, "ClawVault 3.5.2 cannot observe this session: %s. clawvault-tui can, by seq: %s, %s the %s threshold.%s",
		where, ours, verdict, BytesExact(sel.ThresholdBytes), next)
	if row.CursorProblem != "" {
		add(CodeCursorInvalid, "The seq cursor entry for %s is ignored (%s): a sweep does not observe the session until the entry is fixed, or removed (then from its first event).", row.SessionID, row.CursorProblem)
	}
	if !g.Current {
		add(CodeSQLiteGeneration, "An earlier generation of %s (%s): OpenClaw has moved the key on to another session; what was said here stays in this transcript.", row.Key, g.GenerationReason())
	}
	return withFlush(out, row)
}

// SeqCursorFileName is the seq cursor file, in the vault's .clawvault/.
const SeqCursorFileName = "clawvault-tui-seq-cursors.json"
