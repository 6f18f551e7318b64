package demo

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	_ "modernc.org/sqlite" // OpenClaw's SQLite-era agent store

	"clawvault-tui/model"
	tindex "clawvault-tui/store/transcript"
)

// agentSchemaSQL is OpenClaw 2026.9.6's OPENCLAW_AGENT_SCHEMA_SQL (agent
// schema 23), as `make conformance` extracts it from the npm package.
//
//go:embed testdata/openclaw-agent-schema-v23.sql
var agentSchemaSQL string

// AgentSchemaVersion is the schema version agentSchemaSQL creates.
const AgentSchemaVersion = 23

// StoreSession is one generation of a session key in an agent store.
type StoreSession struct {
	Key       string
	SessionID string
	// Previous is the generation this one follows (previous_session_id).
	Previous string
	// Reason is why the generation began: initial, reset, rollover, fork,
	// rewind, switch, recovery, compaction, or "" (an import from JSONL).
	Reason string
	// Lines are the transcript events, header first, each one JSON object
	// (a JSONL line without its newline).
	Lines [][]byte
	// File, when set instead of Lines, is a JSONL transcript to import as
	// OpenClaw's importer does: line by line, skipping lines that are not
	// JSON objects and a last line without its newline.
	File string
	// Entry is the key's session_nodes.entry_json, for its current
	// generation (the last one of the key given an Entry).
	Entry       []byte
	UpdatedAt   time.Time
	Channel     string
	ChatType    string // direct, group, channel
	Provider    string
	Model       string
	DisplayName string
	Status      string // running, done, …
	CreatedVia  string
	// Cold moves the events out of transcript_events into a cold archive
	// (a file under sessions/cold/, as OpenClaw's cold storage does).
	Cold bool
}

// StoreArchive is a transcript generation reclaimed on delete or reset
// (session_transcript_archives): its JSONL as a blob, and the derived
// <id>.jsonl.<reason>.<ts>[.zst] file beside the sessions.
type StoreArchive struct {
	SessionID, Key string
	Reason         string // deleted or reset
	At             time.Time
	Lines          [][]byte
	Zstd           bool
}

// StoreMemorySource is one memory_index_sources row; its chunks are cut
// from Content (memoryindex.go).
type StoreMemorySource struct {
	Path    string // relative to the workspace
	Content []byte // what was indexed (the hash and size come from it)
	MTime   time.Time
}

// AgentStore is everything WriteAgentStore writes.
type AgentStore struct {
	AgentID    string
	AppVersion string
	Now        time.Time
	Sessions   []StoreSession
	Archives   []StoreArchive
	Memory     []StoreMemorySource
}

// WriteAgentStore creates path (agents/<id>/agent/openclaw-agent.sqlite)
// with OpenClaw's real schema and fills it as OpenClaw's writer does:
// identity rows for every event with an id, events of 1 KiB to 4 MiB
// zstd-compressed (level 1, with a checksum) when that saves at least 10%
// and 64 bytes, with their navigation projection; OpenClaw's active-branch
// projection; archives; the memory index. The file is left in WAL mode,
// checkpointed and closed.
func WriteAgentStore(path string, s AgentStore) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	err = fillAgentStore(db, path, s)
	if err == nil {
		_, err = db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

func fillAgentStore(db *sql.DB, path string, s AgentStore) error {
	if _, err := db.Exec(agentSchemaSQL); err != nil {
		return fmt.Errorf("create the agent schema: %w", err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	defer enc.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := s.Now.UnixMilli()
	if _, err := tx.Exec(`INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at)
VALUES ('primary', 'agent', ?, ?, ?, ?, ?)`, AgentSchemaVersion, s.AgentID, s.AppVersion, now, now); err != nil {
		return err
	}
	ins, err := prepareEventInserts(tx)
	if err != nil {
		return err
	}
	current, err := writeSessionNodes(tx, s.Sessions)
	if err != nil {
		return err
	}
	for _, ss := range s.Sessions {
		if err := writeGeneration(tx, enc, ins, path, ss, current, now); err != nil {
			return err
		}
	}
	for _, a := range s.Archives {
		if err := writeArchive(tx, enc, path, a); err != nil {
			return err
		}
	}
	if err := writeMemoryIndex(tx, s.Memory); err != nil {
		return err
	}
	return tx.Commit()
}

// eventInserts are the statements a generation's events are written with.
type eventInserts struct{ event, identity, active *sql.Stmt }

func prepareEventInserts(tx *sql.Tx) (ins eventInserts, err error) {
	if ins.event, err = tx.Prepare(`INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json)
VALUES (?, ?, ?, ?, ?, ?, ?)`); err != nil {
		return ins, err
	}
	if ins.identity, err = tx.Prepare(`INSERT OR IGNORE INTO transcript_event_identities (session_id, event_id, seq, event_type, parent_id, created_at)
VALUES (?, ?, ?, ?, ?, ?)`); err != nil {
		return ins, err
	}
	ins.active, err = tx.Prepare(`INSERT INTO session_transcript_active_events (session_id, active_position, event_seq, message_position, context_eligible)
VALUES (?, ?, ?, ?, ?)`)
	return ins, err
}

// writeSessionNodes writes a session_nodes row per session key, naming its
// current generation (the last of the key's sessions with an entry), and
// returns those generations by key.
func writeSessionNodes(tx *sql.Tx, sessions []StoreSession) (map[string]*StoreSession, error) {
	current := map[string]*StoreSession{}
	var keys []string
	for i := range sessions {
		if sessions[i].Entry != nil {
			if current[sessions[i].Key] == nil {
				keys = append(keys, sessions[i].Key)
			}
			current[sessions[i].Key] = &sessions[i]
		}
	}
	for _, key := range keys {
		ss := current[key]
		updated := ss.UpdatedAt.UnixMilli()
		if _, err := tx.Exec(`INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at, status, created_via,
label, display_name, created_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
			key, ss.SessionID, string(ss.Entry), updated, nullable(ss.Status), nullable(ss.CreatedVia),
			nullable(ss.DisplayName), firstTime(ss.Lines, updated), updated); err != nil {
			return nil, fmt.Errorf("session_nodes %s: %w", key, err)
		}
	}
	return current, nil
}

// writeGeneration writes one generation of a session key: its
// session_windows row, then its transcript, cold (zstd) or as events with
// their identities and the active-path projection.
func writeGeneration(tx *sql.Tx, enc *zstd.Encoder, ins eventInserts, path string, ss StoreSession, current map[string]*StoreSession, now int64) error {
	if current[ss.Key] == nil {
		return fmt.Errorf("session key %s has no current generation", ss.Key)
	}
	created := firstTime(ss.Lines, now)
	updated := lastTime(ss.Lines, created)
	if _, err := tx.Exec(`INSERT INTO session_windows (session_id, session_key, previous_session_id, reason, created_at, updated_at,
transcript_updated_at, started_at, ended_at, status, chat_type, channel, model_provider, model, display_name)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ss.SessionID, ss.Key, nullable(ss.Previous), nullable(ss.Reason), created, updated, updated, created,
		endedAt(ss, current, updated), nullable(ss.Status), nullable(ss.ChatType), nullable(ss.Channel),
		nullable(ss.Provider), nullable(ss.Model), nullable(ss.DisplayName)); err != nil {
		return fmt.Errorf("session_windows %s: %w", ss.SessionID, err)
	}
	if ss.Cold {
		return writeCold(tx, enc, path, ss, now)
	}
	if err := writeEvents(enc, ins, ss, now); err != nil {
		return err
	}
	return writeProjection(tx, ins.active, ss, now)
}

// writeEvents writes a generation's lines as events, seq from 0, each
// with its identity when it has an id.
func writeEvents(enc *zstd.Encoder, ins eventInserts, ss StoreSession, now int64) error {
	seq := 0
	return ss.each(func(line []byte) error {
		at := eventTime(line, now)
		ev := storedEvent(enc, line)
		if _, err := ins.event.Exec(ss.SessionID, seq, ev.json, at, ev.zstd, len(line), ev.navigation); err != nil {
			return fmt.Errorf("transcript_events %s seq %d: %w", ss.SessionID, seq, err)
		}
		if id, typ, parent, ok := identity(line); ok {
			if _, err := ins.identity.Exec(ss.SessionID, id, seq, typ, parent, at); err != nil {
				return err
			}
		}
		seq++
		return nil
	})
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// event is one transcript_events payload: identity text, or a zstd frame
// with its navigation projection.
type event struct {
	json       any
	zstd       any
	navigation any
}

// storedEvent applies OpenClaw's compression rule (compact agent payload
// storage): UTF-8 events of 1 KiB to 4 MiB, without \u escapes or NUL,
// compressed at level 1 when the frame and the navigation metadata save at
// least 64 bytes and 10%; a session header is never compressed.
func storedEvent(enc *zstd.Encoder, line []byte) event {
	identity := event{json: string(line)}
	n := len(line)
	if n < 1024 || n > 4<<20 || bytes.Contains(line, []byte(`\u`)) || bytes.IndexByte(line, 0) >= 0 {
		return identity
	}
	nav := navigation(line)
	if nav == nil {
		return identity
	}
	frame := enc.EncodeAll(line, nil)
	limit := n - max(64, (n+9)/10)
	if len(frame)+len(nav) > limit {
		return identity
	}
	return event{zstd: frame, navigation: string(nav)}
}

// navigation builds the metadata OpenClaw keeps beside a compressed event:
// the tree fields (navigation), the reset and model projections and the
// byte counts its context budget uses. The schema's CHECK holds it to this
// shape.
func navigation(line []byte) []byte {
	var ev map[string]json.RawMessage
	if json.Unmarshal(line, &ev) != nil || string(ev["type"]) == `"session"` {
		return nil
	}
	keys := []string{"type", "id", "parentId", "targetId", "appendParentId", "appendMode", "timestamp", "version", "cwd",
		"firstKeptEntryId", "reason", "tokensBefore", "thinkingLevel", "provider", "modelId", "fromId", "customType", "display", "label", "name"}
	nav := map[string]json.RawMessage{}
	for _, k := range keys {
		if v, ok := ev[k]; ok {
			nav[k] = v
		}
	}
	if raw, ok := ev["message"]; ok {
		var msg map[string]json.RawMessage
		if json.Unmarshal(raw, &msg) == nil {
			facts := map[string]json.RawMessage{}
			for _, k := range []string{"role", "excludeFromContext"} {
				if v, ok := msg[k]; ok {
					facts[k] = v
				}
			}
			nav["message"], _ = json.Marshal(facts)
		}
	}
	report := map[string]any{"kind": "canonical", "hasParentId": ev["parentId"] != nil,
		"entry": map[string]json.RawMessage{"id": ev["id"], "parentId": ev["parentId"], "timestamp": ev["timestamp"], "type": ev["type"]}}
	if ev["parentId"] == nil {
		delete(report["entry"].(map[string]json.RawMessage), "parentId")
	}
	out, err := json.Marshal(map[string]any{
		"version": 1, "report": report, "navigation": nav, "reset": nav, "model": nav,
		"modelBytes": len(line), "modelWithoutCheckpointBytes": len(line), "withoutCustomDataBytes": len(line),
	})
	if err != nil || len(out) > 16384 {
		return nil
	}
	return out
}

// identity is what transcript_event_identities holds of an event: its id
// (trimmed), its type and parentId when they are strings (else null).
func identity(line []byte) (id string, typ, parent any, ok bool) {
	var ev struct {
		ID       any `json:"id"`
		Type     any `json:"type"`
		ParentID any `json:"parentId"`
	}
	if json.Unmarshal(line, &ev) != nil {
		return "", nil, nil, false
	}
	s, isStr := ev.ID.(string)
	if !isStr || strings.TrimSpace(s) == "" {
		return "", nil, nil, false
	}
	if t, isStr := ev.Type.(string); isStr {
		typ = t
	}
	if p, isStr := ev.ParentID.(string); isStr {
		parent = p
	}
	return strings.TrimSpace(s), typ, parent, true
}

// writeProjection writes OpenClaw's active-branch projection of a session
// (session_transcript_active_events and its index state), as its rules
// give it: the path to the leaf, skipping leaf controls.
func writeProjection(tx *sql.Tx, insert *sql.Stmt, ss StoreSession, now int64) error {
	var data bytes.Buffer
	if err := ss.each(func(line []byte) error {
		data.Write(line)
		data.WriteByte('\n')
		return nil
	}); err != nil {
		return err
	}
	ix, err := tindex.Build(context.Background(), ss.SessionID, bytes.NewReader(data.Bytes()), int64(data.Len()), tindex.Options{})
	if err != nil {
		return err
	}
	lines := int(ix.Lines)
	tree := model.BuildTreeWith(ix.Entries, ix.Facts, ix.Version, ix.Names, model.RulesOpenClaw)
	messages := 0
	for pos, i := range tree.ActivePath {
		e := ix.Entries[i]
		seq := int64(e.Line - 1) // one event per line, header at seq 0
		eligible := 1
		if e.Flags&model.FlagExcludeContext != 0 {
			eligible = 0
		}
		var messagePos any
		if e.Type == model.TypeMessage {
			messagePos = messages
			messages++
		}
		if _, err := insert.Exec(ss.SessionID, pos, seq, messagePos, eligible); err != nil {
			return err
		}
	}
	_, err = tx.Exec(`INSERT INTO session_transcript_index_state (session_id, indexed_seq, leaf_event_id, needs_rebuild, active_event_count,
active_message_count, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)`, ss.SessionID, lines-1, nullable(tree.LeafID()),
		len(tree.ActivePath), messages, now)
	return err
}

// writeCold stores a generation as a cold archive: its JSONL compressed
// into sessions/cold/<sha256>.jsonl.zst and a row naming it.
func writeCold(tx *sql.Tx, enc *zstd.Encoder, dbPath string, ss StoreSession, now int64) error {
	data := append(bytes.Join(ss.Lines, []byte("\n")), '\n')
	frame := enc.EncodeAll(data, nil)
	sum := sha256.Sum256(frame)
	name := hex.EncodeToString(sum[:]) + ".jsonl.zst"
	dir := filepath.Join(filepath.Dir(filepath.Dir(dbPath)), "sessions", "cold")
	if err := writeFile(filepath.Join(dir, name), frame, time.UnixMilli(now)); err != nil {
		return err
	}
	_, err := tx.Exec(`INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes,
archive_bytes, last_seq, archived_at, storage) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'file')`,
		ss.SessionID, "g1", name, hex.EncodeToString(sum[:]), len(ss.Lines), len(data), len(frame), len(ss.Lines)-1, now)
	return err
}

// writeArchive stores a reclaimed generation as OpenClaw does on delete or
// reset: a blob row, and the derived file in the sessions folder.
func writeArchive(tx *sql.Tx, enc *zstd.Encoder, dbPath string, a StoreArchive) error {
	data := append(bytes.Join(a.Lines, []byte("\n")), '\n')
	stored, encoding, ext := data, "identity", ""
	if a.Zstd {
		stored, encoding, ext = enc.EncodeAll(data, nil), "zstd", ".zst"
	}
	sum := sha256.Sum256(stored)
	stamp := a.At.UTC().Format("2006-01-02T15-04-05.000Z")
	name := a.SessionID + ".jsonl." + a.Reason + "." + stamp + ext
	if _, err := tx.Exec(`INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob,
archive_sha256, archive_name, created_at, published_at) VALUES (?, 'g1', ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.SessionID, a.Key, a.Reason, encoding, stored, hex.EncodeToString(sum[:]), name, a.At.UnixMilli(), a.At.UnixMilli()); err != nil {
		return err
	}
	file := filepath.Join(filepath.Dir(filepath.Dir(dbPath)), "sessions", name)
	return writeFile(file, stored, a.At)
}

// eventTime is an event's timestamp in milliseconds, OpenClaw's created_at.
func eventTime(line []byte, fallback int64) int64 {
	var ev struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal(line, &ev) == nil {
		if t, err := time.Parse(time.RFC3339Nano, ev.Timestamp); err == nil {
			return t.UnixMilli()
		}
	}
	return fallback
}

func firstTime(lines [][]byte, fallback int64) int64 {
	if len(lines) == 0 {
		return fallback
	}
	return eventTime(lines[0], fallback)
}

func lastTime(lines [][]byte, fallback int64) int64 {
	if len(lines) == 0 {
		return fallback
	}
	return eventTime(lines[len(lines)-1], fallback)
}

// endedAt: a generation that is not its key's current one ended when its
// last event was written.
func endedAt(ss StoreSession, current map[string]*StoreSession, last int64) any {
	if c := current[ss.Key]; c != nil && c.SessionID == ss.SessionID {
		return nil
	}
	return last
}

// each calls fn with every event of the session: Lines, or the lines of
// File that OpenClaw's importer would take (JSON objects, newline-ended).
func (ss *StoreSession) each(fn func(line []byte) error) error {
	if ss.File == "" {
		for _, l := range ss.Lines {
			if err := fn(l); err != nil {
				return err
			}
		}
		return nil
	}
	f, err := os.Open(ss.File)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return nil // a last line without a newline is not a complete event
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] == '{' && json.Valid(line) {
			if err := fn(line); err != nil {
				return err
			}
		}
	}
}
