// Package agentdb reads OpenClaw's SQLite-era agent store,
// agents/<id>/agent/openclaw-agent.sqlite (OpenClaw 2026.8 and later keep
// every session, transcript and the memory search index there). It opens the
// file read-only and never writes a byte: the gateway may be writing to it
// at the same moment, in WAL mode, and must never wait for us.
//
// What it reads, and how cheaply:
//   - session keys (session_nodes) and their generations (session_windows);
//   - per-session event counts and UTF-8 byte totals, by aggregate SQL only:
//     no event body crosses into Go;
//   - a transcript's tree from transcript_event_identities (ids, parent ids,
//     types and times), with the few fields the tree rules need read from
//     the rows that hold them; bodies are decoded on demand, by seq, from
//     event_json or event_zstd alike;
//   - OpenClaw's own active branch (session_transcript_active_events), to
//     cross-check ours;
//   - transcript archives (session_transcript_archives, cold archives);
//   - the memory search index's sources and chunks.
package agentdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"clawvault-tui/store/regfile"
)

// FileName is the agent store's name in agents/<id>/agent/.
const FileName = "openclaw-agent.sqlite"

// KnownSchemaVersion is the agent schema this build was written against
// (OpenClaw 2026.9.6). Other versions are read when their tables have the
// columns used here.
const KnownSchemaVersion = 23

// busyTimeout bounds a wait for a lock: a WAL reader only waits while the
// gateway recovers or restarts its write-ahead log, which takes
// milliseconds.
const busyTimeout = 5 * time.Second

// DB is one agent store, open read-only.
type DB struct {
	Path string
	Meta Meta
	// Layout says which optional tables and columns the file has.
	Layout Layout
	// ProcessLifetime says the transcripts read live until the process
	// exits (a command that reads one tree and prints it): their entries
	// then go where transcript.Options.ProcessLifetime puts a JSONL
	// index's.
	ProcessLifetime bool
	db              *sql.DB
}

// Meta is schema_meta's primary row.
type Meta struct {
	Role          string
	SchemaVersion int
	AgentID       string
	AppVersion    string
	// Unknown is set when the version is not KnownSchemaVersion but the
	// layout still has what is read: a note for the user, not an error.
	Unknown bool
}

// Layout lists what the file has beyond the tables every supported version
// has (session_nodes, session_windows, transcript_events).
type Layout struct {
	// Compressed: transcript_events has event_zstd, event_utf8_bytes and
	// navigation_json (agent schema 23).
	Compressed bool
	// UTF8Bytes: transcript_events has event_utf8_bytes.
	UTF8Bytes           bool
	Identities          bool // transcript_event_identities
	ActiveEvents        bool // session_transcript_active_events
	IndexState          bool // session_transcript_index_state
	Archives            bool // session_transcript_archives
	ColdArchives        bool // session_transcript_cold_archives
	RewriteWatermarks   bool // transcript_rewrite_watermarks
	MemoryIndex         bool // memory_index_sources and memory_index_chunks
	windowColumns       map[string]bool
	nodeColumns         map[string]bool
	transcriptUpdatedAt bool
}

// required lists the tables and columns every read needs.
var required = map[string][]string{
	"session_nodes":     {"session_key", "current_session_id", "entry_json"},
	"session_windows":   {"session_id", "session_key"},
	"transcript_events": {"session_id", "seq", "event_json", "created_at"},
}

// Open opens path read-only (mode=ro, query_only, a busy timeout; never
// immutable, which would read a half-written file as if nobody wrote it)
// and checks its schema. The error is one sentence a user can act on.
//
// Each connection keeps a page cache of 256 KiB instead of SQLite's
// 2 MiB. Every read of ours goes through a store about once (a status's
// aggregates, a tree's identities in chunks, bodies by seq), so a bigger
// cache only costs its buffers, and with this driver they cost: each page
// is allocated on its own and all are freed at Close. That was over a
// third of the CPU of a status of an unchanged store at 10,000 sessions,
// and the tree of the 713,000-event heartbeat session read in 0.92–1.01 s
// where it took 1.12–1.15 s with the default cache (64 MiB: 2.8–3.0 s). A
// page that several cursors walk through (a b-tree's upper levels) stays,
// as SQLite keeps the pages its cursors hold.
func Open(ctx context.Context, path string) (*DB, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s does not exist", path)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a file", path)
	}
	if err := checkCompanions(path); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	sdb, err := sql.Open("sqlite", readOnlyDSN(abs, busyTimeout, "cache_size(-256)"))
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", path, err)
	}
	// A few connections at most (the TUI reads a tree while a scan runs),
	// closed soon after use so the file is not held open for nothing.
	sdb.SetMaxOpenConns(4)
	sdb.SetMaxIdleConns(2)
	sdb.SetConnMaxIdleTime(30 * time.Second)
	db := &DB{Path: abs, db: sdb}
	if err := db.checkSchema(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	return db, nil
}

// checkCompanions refuses a store whose rollback journal, write-ahead log
// or shared-memory file is something other than a regular file: SQLite
// opens them itself (a journal to see whether it is hot), and a FIFO
// planted there would hang its open until a writer came.
func checkCompanions(path string) error {
	for _, suffix := range []string{"-journal", "-wal", "-shm"} {
		fi, err := os.Stat(path + suffix) // what SQLite would open
		if err != nil {
			continue // none yet (or unreadable, which SQLite says itself)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("cannot read %s: its companion %s %v", path, filepath.Base(path+suffix), &regfile.NotRegularError{Mode: fi.Mode()})
		}
	}
	return nil
}

// Close closes the store.
func (db *DB) Close() error { return db.db.Close() }

// explain turns a SQLite error into a sentence about the file.
func (db *DB) explain(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB:
			return fmt.Errorf("%s is not a SQLite database (damaged, or not OpenClaw's agent store)", db.Path)
		case sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("%s is damaged (SQLite reports corruption); OpenClaw's `openclaw doctor --session-sqlite validate` checks it", db.Path)
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return fmt.Errorf("%s stayed locked for %v (the gateway is recovering or checkpointing it); try again", db.Path, busyTimeout)
		case sqlite3.SQLITE_CANTOPEN:
			return fmt.Errorf("cannot open %s: %v", db.Path, err)
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("reading %s: %v", db.Path, err)
}

func (db *DB) checkSchema(ctx context.Context) error {
	// Every table and the columns of those read, in one query: an open
	// costs a status of a small store more than its sessions do.
	tables := map[string]bool{}
	have := map[string]map[string]bool{}
	// The columns are asked of the four tables by name: asking SQLite for
	// the columns of every table fails on a virtual table whose module is
	// not loaded here (sqlite-vec's memory_index_chunks_vec: "no such
	// module: vec0"), which every memory index built with it has.
	rows, err := db.db.QueryContext(ctx, `SELECT name, '' FROM sqlite_master WHERE type = 'table'
UNION ALL SELECT 'session_nodes', name FROM pragma_table_info('session_nodes')
UNION ALL SELECT 'session_windows', name FROM pragma_table_info('session_windows')
UNION ALL SELECT 'transcript_events', name FROM pragma_table_info('transcript_events')
UNION ALL SELECT 'transcript_event_identities', name FROM pragma_table_info('transcript_event_identities')`)
	if err != nil {
		return db.explain(err)
	}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			rows.Close()
			return db.explain(err)
		}
		tables[table] = true
		if column != "" {
			if have[table] == nil {
				have[table] = map[string]bool{}
			}
			have[table][column] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return db.explain(err)
	}
	if tables["schema_meta"] {
		var role, agent, app sql.NullString
		var version sql.NullInt64
		err := db.db.QueryRowContext(ctx, `SELECT role, schema_version, agent_id, app_version FROM schema_meta WHERE meta_key = 'primary'`).
			Scan(&role, &version, &agent, &app)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return db.explain(err)
		}
		db.Meta = Meta{Role: role.String, SchemaVersion: int(version.Int64), AgentID: agent.String, AppVersion: app.String}
	}
	var missing []string
	for _, table := range []string{"session_nodes", "session_windows", "transcript_events"} {
		for _, c := range required[table] {
			if !have[table][c] {
				missing = append(missing, table+"."+c)
			}
		}
	}
	if db.Meta.Role != "" && db.Meta.Role != "agent" || len(missing) > 0 {
		what := "no schema_meta row"
		if db.Meta.SchemaVersion > 0 || db.Meta.Role != "" {
			what = fmt.Sprintf("agent schema %d (role %q)", db.Meta.SchemaVersion, db.Meta.Role)
		}
		need := "an agent store"
		if len(missing) > 0 {
			need = "it lacks " + strings.Join(missing, ", ")
		}
		return fmt.Errorf("%s has %s, a layout this build does not understand (%s); it reads the agent store of OpenClaw 2026.8 and later (agent schema %d)",
			db.Path, what, need, KnownSchemaVersion)
	}
	db.Meta.Unknown = db.Meta.SchemaVersion != KnownSchemaVersion
	ev, ids := have["transcript_events"], have["transcript_event_identities"]
	db.Layout = Layout{
		Compressed:   ev["event_zstd"] && ev["event_utf8_bytes"],
		UTF8Bytes:    ev["event_utf8_bytes"],
		Identities:   ids["event_id"] && ids["seq"] && ids["event_type"] && ids["parent_id"],
		ActiveEvents: tables["session_transcript_active_events"],
		IndexState:   tables["session_transcript_index_state"],
		Archives:     tables["session_transcript_archives"],
		ColdArchives: tables["session_transcript_cold_archives"],
		MemoryIndex:  tables["memory_index_sources"] && tables["memory_index_chunks"],

		RewriteWatermarks:   tables["transcript_rewrite_watermarks"],
		windowColumns:       have["session_windows"],
		nodeColumns:         have["session_nodes"],
		transcriptUpdatedAt: have["session_windows"]["transcript_updated_at"],
	}
	return nil
}

// optional returns the expression for a column the table may lack.
func optional(cols map[string]bool, name string) string {
	if cols[name] {
		return name
	}
	return "NULL"
}

// columnList joins optional columns of a table for a SELECT.
func columnList(cols map[string]bool, names ...string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = optional(cols, n)
	}
	return strings.Join(out, ", ")
}

// isTooBig says err is SQLite's "string or blob too big".
func isTooBig(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_TOOBIG
}

// inChunks runs fn over ids in slices small enough for SQLite's limit on
// bound parameters.
func inChunks[T any](ids []T, fn func(part []T, placeholders string) error) error {
	const size = 500
	for len(ids) > 0 {
		n := min(size, len(ids))
		if err := fn(ids[:n], placeholders(n)); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// placeholders is n bound parameters: "?,?,…,?".
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func anys[T any](v []T) []any {
	out := make([]any, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}

// readOnlyDSN opens the database at abs read-only (mode=ro, query_only,
// never immutable) with a busy timeout, and a pragma when one is given.
func readOnlyDSN(abs string, busy time.Duration, pragma string) string {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", fmt.Sprint(busy.Milliseconds()))
	q.Set("_query_only", "1")
	if pragma != "" {
		q.Set("_pragma", pragma)
	}
	return (&url.URL{Scheme: "file", OmitHost: true, Path: abs, RawQuery: q.Encode()}).String()
}
