package demo

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the SQLite-era store of agent ops
)

// writeOpsAgent writes agent ops, which has moved to OpenClaw's SQLite-era store: two
// sessions imported from JSONL (whose files now sit in session-sqlite-import-archive/)
// and the current main session that only exists in the database.
func (g *generator) writeOpsAgent() error {
	d := dayDur
	archive := filepath.Join(g.sessionsDir("ops"), "session-sqlite-import-archive")
	oldMain := g.session(&sessionSpec{name: "ops-main-imported", agent: "ops", id: g.uuid("ops-main-imported"), dir: archive,
		memory: true, start: g.ago(60 * d), phases: []phase{{20 * kib, g.ago(25 * d)}}, model: sonnet})
	cron := g.session(&sessionSpec{name: "ops-cron-imported", agent: "ops", id: g.uuid("ops-cron-imported"), dir: archive,
		memory: true, start: startOfDay(g.ago(26 * d)).Add(3 * hour), model: haiku, thinkingLevel: "off",
		script: cronScript("backup-verify", "[cron:backup-verify] Verify last night's PostgreSQL backup of northwind_billing and report its size.")})
	current := g.session(&sessionSpec{name: "ops-main", agent: "ops", id: g.uuid("ops-main"), memory: true,
		start: oldMain.last.Add(2 * hour), phases: []phase{{30 * kib, g.ago(30 * minute)}}, model: sonnet})
	if g.err != nil {
		return g.err
	}
	// The JSONL files as they were when the import moved them aside.
	for _, res := range []*sessionResult{oldMain, cron} {
		g.file(res.path, append(bytes.Join(res.lines, []byte("\n")), '\n'), res.last)
	}
	cronKey := "agent:ops:cron:backup-verify"
	g.logCronRun("backup-verify", cronKey+":run:"+cron.spec.id, cron, "ok")

	mainEntry, mainUpdated := rowEntry("agent:ops:main", current, dm("telegram", "telegram:123456789", "Dana Okafor (@dana_ok) id:123456789"))
	cronEntry, _ := rowEntry(cronKey, cron, cronRoute("backup-verify", cron))
	// Rows of the SQLite era name no transcript file.
	mainEntry, cronEntry = mainEntry.set("sessionFile", undef), cronEntry.set("sessionFile", undef)

	err := writeAgentDB(g.man.SQLitePath, mainUpdated,
		[]*sessionResult{oldMain, cron, current},
		[][3]string{
			{"agent:ops:main", current.spec.id, string(jsonCompact(nil, mainEntry))},
			{cronKey, cron.spec.id, string(jsonCompact(nil, cronEntry))},
		},
		[][4]any{
			{oldMain.spec.id, "agent:ops:main", nil, "import"},
			{current.spec.id, "agent:ops:main", oldMain.spec.id, "reset"},
			{cron.spec.id, cronKey, nil, "import"},
		})
	if err != nil {
		return err
	}
	g.sessionCount += 2
	g.man.SQLiteMain = Case{"ops", "agent:ops:main", current.spec.id, g.man.SQLitePath}
	return g.err
}

// writeAgentDB creates openclaw-agent.sqlite with the three tables an inspector reads.
// Each transcript_events row holds one transcript line object, header first (seq 0).
func writeAgentDB(path string, mtime time.Time, sessions []*sessionResult, nodes [][3]string, windows [][4]any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	err = fillAgentDB(db, sessions, nodes, windows)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Chtimes(path, mtime, mtime)
}

func fillAgentDB(db *sql.DB, sessions []*sessionResult, nodes [][3]string, windows [][4]any) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range []string{
		`CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT)`,
		`CREATE INDEX transcript_events_session_seq ON transcript_events (session_id, seq)`,
		`CREATE TABLE session_nodes (session_key TEXT, current_session_id TEXT, entry_json TEXT)`,
		`CREATE TABLE session_windows (session_id TEXT, session_key TEXT, previous_session_id TEXT, reason TEXT)`,
	} {
		if _, err := tx.Exec(stmt); err != nil {
			return err
		}
	}
	for _, res := range sessions {
		for seq, line := range res.lines {
			if _, err := tx.Exec(`INSERT INTO transcript_events VALUES (?, ?, ?)`, res.spec.id, seq, string(line)); err != nil {
				return err
			}
		}
	}
	for _, n := range nodes {
		if _, err := tx.Exec(`INSERT INTO session_nodes VALUES (?, ?, ?)`, n[0], n[1], n[2]); err != nil {
			return err
		}
	}
	for _, w := range windows {
		if _, err := tx.Exec(`INSERT INTO session_windows VALUES (?, ?, ?, ?)`, w[0], w[1], w[2], w[3]); err != nil {
			return err
		}
	}
	return tx.Commit()
}
