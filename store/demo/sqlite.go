package demo

import (
	"bytes"
	"os"
	"path/filepath"
	"time"
)

// writeOpsAgent prepares agent ops, which lives in OpenClaw's SQLite-era store: its main
// key with three generations (the oldest moved to a cold archive, a /reset one, and the
// current one with a reset boundary in place, a leaf control and a side append, as
// OpenClaw 2026.9 writes them), a cron key, a deleted session's archive, and a memory
// index that has missed the last change to MEMORY.md. The store itself is written by
// writeOpsStore, once the workspace memory it indexes exists.
func (g *generator) writeOpsAgent() error {
	d := dayDur
	first := g.session(&sessionSpec{name: "ops-main-imported", agent: "ops", id: g.uuid("ops-main-imported"), memory: true,
		start: g.ago(60 * d), phases: []phase{{20 * kib, g.ago(40 * d)}}, model: sonnet})
	second := g.session(&sessionSpec{name: "ops-main-reset", agent: "ops", id: g.uuid("ops-main-reset"), memory: true,
		start: g.ago(39 * d), phases: []phase{{16 * kib, g.ago(25 * d)}}, model: sonnet})
	cron := g.session(&sessionSpec{name: "ops-cron-imported", agent: "ops", id: g.uuid("ops-cron-imported"), memory: true,
		start: startOfDay(g.ago(26 * d)).Add(3 * hour), model: haiku, thinkingLevel: "off",
		script: cronScript("backup-verify", "[cron:backup-verify] Verify last night's PostgreSQL backup of northwind_billing and report its size.")})
	start := second.last.Add(2 * hour)
	current := g.session(&sessionSpec{name: "ops-main", agent: "ops", id: g.uuid("ops-main"), memory: true,
		start: start, model: sonnet, script: opsMainScript(start, g.ago(30*minute))})
	// Its archive is stored compressed: a fixed cwd in its header keeps the compressed size
	// the same wherever the demo is written (the conformance goldens depend on it).
	deleted := g.session(&sessionSpec{name: "ops-deleted", agent: "ops", id: g.uuid("ops-deleted"), memory: true,
		cwd: "/srv/openclaw/workspace-ops", start: g.ago(12 * d), phases: []phase{{6 * kib, g.ago(12*d - 2*hour)}}, model: haiku})
	if g.err != nil {
		return g.err
	}
	cronKey := "agent:ops:cron:backup-verify"
	g.logCronRun("backup-verify", cronKey+":run:"+cron.spec.id, cron, "ok")

	mainEntry, mainUpdated := rowEntry("agent:ops:main", current, dm("telegram", "telegram:123456789", "Dana Okafor (@dana_ok) id:123456789"))
	cronEntry, cronUpdated := rowEntry(cronKey, cron, cronRoute("backup-verify", cron))
	// Rows of the SQLite era name no transcript file.
	mainEntry, cronEntry = mainEntry.set("sessionFile", undef), cronEntry.set("sessionFile", undef)
	main := StoreSession{Key: "agent:ops:main", Channel: "telegram", ChatType: "direct", Provider: "anthropic", Model: sonnet.id}
	g.opsStore = AgentStore{
		AgentID: "ops", AppVersion: "2026.9.6", Now: g.now,
		Sessions: []StoreSession{
			with(main, first, "", "initial", nil, time.Time{}, true),
			with(main, second, first.spec.id, "reset", nil, time.Time{}, false),
			with(main, current, second.spec.id, "rollover", jsonCompact(nil, mainEntry), mainUpdated, false),
			{Key: cronKey, SessionID: cron.spec.id, Reason: "initial", Lines: cron.lines, Entry: jsonCompact(nil, cronEntry),
				UpdatedAt: cronUpdated, Provider: "anthropic", Model: haiku.id, Status: "done", CreatedVia: "cron", ChatType: "direct"},
		},
		Archives: []StoreArchive{{SessionID: deleted.spec.id, Key: "agent:ops:subagent:" + g.uuid("ops-deleted-key"), Reason: "deleted",
			At: deleted.last.Add(3 * dayDur), Lines: deleted.lines, Zstd: true}},
	}
	g.sessionCount += 2
	g.man.SQLiteMain = Case{"ops", "agent:ops:main", current.spec.id, g.man.SQLitePath}
	g.man.SQLiteCron = Case{"ops", cronKey, cron.spec.id, g.man.SQLitePath}
	g.man.SQLiteGenerations = []string{first.spec.id, second.spec.id, current.spec.id}
	g.man.SQLiteDeleted = Case{"ops", g.opsStore.Archives[0].Key, deleted.spec.id,
		filepath.Join(g.sessionsDir("ops"), deleted.spec.id+".jsonl.deleted."+g.opsStore.Archives[0].At.UTC().Format("2006-01-02T15-04-05.000Z")+".zst")}
	return nil
}

func with(base StoreSession, res *sessionResult, previous, reason string, entry []byte, updated time.Time, cold bool) StoreSession {
	base.SessionID, base.Previous, base.Reason, base.Lines, base.Entry, base.UpdatedAt, base.Cold =
		res.spec.id, previous, reason, res.lines, entry, updated, cold
	return base
}

// opsMainScript is the current ops session as OpenClaw 2026.9 writes one: turns, a
// /new that resets in place (a reset boundary keeping the last exchange), more turns, a
// reply delivered aside (a side append), a navigation back to an earlier answer (a
// leaf control) and a new branch from there.
func opsMainScript(start, end time.Time) func(c *convo) {
	return func(c *convo) {
		t := c.t
		span := end.Sub(start)
		c.runUntil(8*kib, start.Add(span/4))
		for range 3 { // large tool output: the store keeps such events as zstd frames
			c.say(nil, "Show me last night's backup log.")
			c.useTool(c.bigTool(), true)
			c.reply("The backup finished; the log above has the details.")
		}
		c.runUntil(12*kib, start.Add(span/3))
		keep := c.user("Before the reset: remember that the restore test is on Thursday.")
		c.reply("Noted: the restore test is on Thursday.")
		t.tick(time.Minute)
		t.entry("reset", "reason", "new", "firstKeptEntryId", keep)
		c.runUntil(22*kib, start.Add(2*span/3))
		c.say(nil, "Which certificates expire this month?")
		answer := c.reply("Two: billing.northwind.example on the 28th and the VPN gateway on the 30th.")
		c.say(nil, "Renew the billing one first, then draft the VPN change.")
		c.reply("Renewed billing.northwind.example; the VPN change is drafted for review.")
		t.tick(2 * time.Second)
		side := t.ids.next()
		t.writeLine(o("type", "custom", "id", side, "customType", "conversation.turn-reply", "appendMode", "side",
			"timestamp", isoMillis(t.at), "data", o("turnId", "turn-"+side, "messageId", "7741")))
		t.tick(time.Minute)
		ctl := t.ids.next()
		t.writeLine(o("type", "leaf", "id", ctl, "parentId", t.leaf, "timestamp", isoMillis(t.at), "targetId", answer))
		t.leaf = answer // what follows continues from the answer the user went back to
		c.say(nil, "Actually, do the VPN gateway first: it is the riskier one.")
		c.reply("Understood: the VPN gateway renewal comes first, then billing.")
		c.runUntil(60*kib, end)
	}
}

// writeOpsStore writes agent ops's store, and indexes its workspace memory as the
// memory search index last saw it: before the latest edit of MEMORY.md.
func (g *generator) writeOpsStore() error {
	ws := g.opsWorkspace
	rels := []string{"MEMORY.md", filepath.Join("memory", day(g.now.AddDate(0, 0, -1))+".md")}
	for age := 2; age < 2+g.opt.MemoryNotes; age++ {
		rels = append(rels, filepath.Join("memory", day(startOfDay(g.now.AddDate(0, 0, -age)))+".md"))
	}
	for _, rel := range rels {
		path := filepath.Join(ws, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		src := StoreMemorySource{Path: filepath.ToSlash(rel), Content: data, MTime: fi.ModTime()}
		if rel == "MEMORY.md" {
			// Indexed before the last line was added: the index is stale for this file.
			src.Content = bytes.TrimSuffix(data, []byte(opsMemoryLastLine))
			src.MTime = fi.ModTime().Add(-26 * time.Hour)
		}
		g.opsStore.Memory = append(g.opsStore.Memory, src)
	}
	if err := WriteAgentStore(g.man.SQLitePath, g.opsStore); err != nil {
		return err
	}
	// The store was last written when the current session was.
	mtime := g.opsStore.Sessions[2].UpdatedAt
	return os.Chtimes(g.man.SQLitePath, mtime, mtime)
}

// opsMemoryLastLine is the edit the memory index has not seen.
const opsMemoryLastLine = "- The VPN gateway certificate renewal moved before billing's (riskier first).\n"

// opsMemoryMD is agent ops's MEMORY.md.
func (g *generator) opsMemoryMD() string {
	return "# MEMORY.md (ops)\n\n## Backups\n- northwind_billing is dumped nightly at 02:00 UTC and verified at 03:00.\n" +
		"- A restore test runs every Thursday against staging.\n\n## Certificates\n" +
		"- billing.northwind.example and the VPN gateway renew in the last week of the month.\n" + opsMemoryLastLine
}
