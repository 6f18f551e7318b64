package demo

import (
	"path/filepath"
	"time"
)

const (
	hour   = time.Hour
	minute = time.Minute
)

// The operator talks to the main agent from Telegram.
func operatorRoute() route {
	return dm("telegram", "telegram:123456789", "Dana Okafor (@dana_ok) id:123456789")
}

const (
	northwindOps   = "-1001234567890"
	discordChannel = "1029384756102938475"
	discordThread  = "1187654321098765432"
)

// writeMainAgent writes agent main: the never-observed 14 MiB main session and most of
// the special cases, each with the numbers its diagnosis needs.
func (g *generator) writeMainAgent() error {
	g.writeMainSessions()
	g.writeMainDMs()
	g.writeMainGroups()
	g.writeMainFormats()
	g.writeNightlyDigest()
	g.writeSubagents()
	g.writeMainBranches()
	g.writeMainLeftovers()
	return g.err
}

// writeMainSessions writes main's own sessions: the one before the last /new, the
// never-observed main session with its lock, and the heartbeat.
func (g *generator) writeMainSessions() {
	d := dayDur
	// /new 41 days ago rotated the previous main transcript to a .reset archive, now past
	// the 30-day retention (by name and by mtime). ClawVault had observed all of it.
	oldMain := g.uuid("main-before-reset")
	resetOld := g.ago(41*d + 3*hour + 17*minute)
	res := g.session(&sessionSpec{name: "main-before-reset", agent: "main", id: oldMain,
		file: oldMain + ".jsonl.reset." + archiveStamp(resetOld), start: g.ago(63 * d),
		phases: []phase{{26 * kib, resetOld.Add(-25 * minute)}}, model: sonnet})
	g.observe("agent:main:main", res, res.size, res.last.Add(20*minute))
	g.man.OldReset = Case{"main", "agent:main:main", oldMain, res.path}

	// MainNeverObserved: the long-running main session, many compactions, no cursor.
	mainID := g.uuid("main")
	res = g.session(&sessionSpec{name: "main", agent: "main", id: mainID, start: resetOld.Add(40 * time.Second),
		phases: []phase{{g.opt.MainBytes, g.ago(4 * minute)}}, model: sonnet, mix: mixWorkday,
		bigBytes: 14 * kib, compactEvery: max(256*kib, g.opt.MainBytes/11), extras: true})
	g.addRow("main", "agent:main:main", res, operatorRoute())
	g.man.MainNeverObserved = Case{"main", "agent:main:main", mainID, res.path}
	// A run is in flight: the gateway holds the transcript's write lock.
	lockAt := g.ago(35 * time.Second)
	g.file(res.path+".lock", jsonCompact(nil, o("pid", 48213, "createdAt", isoMillis(lockAt))), lockAt)

	// Heartbeat: polls answered HEARTBEAT_OK; observed 3 hours ago, a little has arrived since.
	hbKey := "agent:main:main:heartbeat"
	res = g.session(&sessionSpec{name: "heartbeat", agent: "main", id: g.uuid("heartbeat"), start: g.ago(30 * d),
		phases: []phase{{g.opt.HeartbeatBytes - 20*kib, g.ago(3 * hour)}, {g.opt.HeartbeatBytes, g.ago(6 * minute)}},
		model:  haiku, thinkingLevel: "off", heartbeat: true, compactEvery: 900 * kib})
	rt := operatorRoute()
	rt.label = "Heartbeat"
	g.addRow("main", hbKey, res, rt)
	g.observe(hbKey, res, res.mark(0).offset, res.mark(0).at.Add(90*time.Second))
	g.man.Heartbeat = Case{"main", hbKey, res.spec.id, res.path}
}

// writeMainDMs writes the direct messages: observed to the end, below the threshold, and
// the WhatsApp DM rotated by /new.
func (g *generator) writeMainDMs() {
	d := dayDur
	// FullyObserved: cursor offset == size == lastFileSize, observed 25 minutes after the last line.
	key := "agent:main:direct:priya"
	res := g.session(&sessionSpec{name: "dm-priya", agent: "main", id: g.uuid("dm-priya"), start: g.ago(3 * d),
		phases: []phase{{90 * kib, g.ago(2 * hour)}}, model: sonnet})
	g.addRow("main", key, res, dm("slack", "user:U05PRIYA7", "Priya Raman"))
	g.observe(key, res, res.size, res.last.Add(25*minute))
	g.man.FullyObserved = Case{"main", key, res.spec.id, res.path}

	// DMBelowThreshold: a short DM, never observed, far below the 50 KiB threshold.
	key = "agent:main:telegram:direct:6029384710"
	res = g.session(&sessionSpec{name: "dm-kenji", agent: "main", id: g.uuid("dm-kenji"), start: g.ago(20 * hour),
		phases: []phase{{22 * kib, g.ago(3 * hour)}}, model: gpt54})
	g.addRow("main", key, res, dm("telegram", "telegram:6029384710", "Kenji Watanabe (@kenji_w) id:6029384710"))
	g.man.DMBelowThreshold = Case{"main", key, res.spec.id, res.path}

	// ResetArchive: /new rotated the WhatsApp DM 2 days ago; the observer had read only the
	// first 60 KiB of it, and ClawVault 3.5.2 never reads .reset files.
	key = "agent:main:whatsapp:default:direct:+15551234567"
	waOld := g.uuid("whatsapp-before-reset")
	resetAt := g.ago(2*d + 6*hour + 13*minute)
	res = g.session(&sessionSpec{name: "whatsapp-before-reset", agent: "main", id: waOld,
		file: waOld + ".jsonl.reset." + archiveStamp(resetAt), start: g.ago(9 * d),
		phases: []phase{{60 * kib, g.ago(8 * d)}, {260 * kib, resetAt.Add(-30 * minute)}}, model: sonnet})
	g.observe(key, res, res.mark(0).offset, res.mark(0).at.Add(4*minute))
	g.man.ResetArchive = Case{"main", key, waOld, res.path}
	res = g.session(&sessionSpec{name: "whatsapp", agent: "main", id: g.uuid("whatsapp"), start: resetAt.Add(minute),
		phases: []phase{{9 * kib, g.ago(5 * hour)}}, model: sonnet})
	g.addRow("main", key, res, dm("whatsapp", "+15551234567", "Marco Bianchi (+15551234567)"))
	g.man.ResetSuccessor = Case{"main", key, res.spec.id, res.path}
}

// writeMainGroups writes the group sessions: a stale group, its forum topic, a Discord
// channel that is a candidate and a thread forked from it.
func (g *generator) writeMainGroups() {
	d := dayDur
	// Stale: observed 3 days ago, the group kept talking (28 KiB more, below the threshold).
	groupKey := "agent:main:telegram:group:" + northwindOps
	groupRoute := group("telegram", "group", northwindOps, "telegram:"+northwindOps, "Northwind Ops", "telegram:g-northwind-ops")
	res := g.session(&sessionSpec{name: "telegram-group", agent: "main", id: g.uuid("telegram-group"), start: g.ago(12 * d),
		phases: []phase{{150 * kib, g.ago(3 * d)}, {178 * kib, g.ago(d)}}, model: sonnet, mix: mixGroup,
		speakers: []string{"Elena", "Jonas", "Kenji", "Dana"}})
	g.addRow("main", groupKey, res, groupRoute)
	g.observe(groupKey, res, res.mark(0).offset, res.mark(0).at.Add(3*minute))
	g.man.Stale = Case{"main", groupKey, res.spec.id, res.path}

	// Topic: a Telegram forum topic; the file is <id>-topic-42.jsonl, <id>.jsonl does not exist.
	key := groupKey + ":topic:42"
	topicID := g.uuid("telegram-topic")
	res = g.session(&sessionSpec{name: "telegram-topic", agent: "main", id: topicID, file: topicID + "-topic-42.jsonl",
		start: g.ago(6 * d), phases: []phase{{60 * kib, g.ago(9 * hour)}}, model: sonnet, mix: mixGroup,
		speakers: []string{"Elena", "Jonas", "Dana"}})
	rt := groupRoute
	rt.displayName, rt.threadID = "telegram:g-northwind-ops:topic:42", 42
	g.addRow("main", key, res, rt)
	g.man.Topic = Case{"main", key, topicID, res.path}

	// ObservedCandidate: observed 6 hours ago at a line boundary; 170 KiB have arrived since.
	chanKey := "agent:main:discord:channel:" + discordChannel
	chanRoute := group("discord", "channel", discordChannel, "channel:"+discordChannel, "#northwind-billing", "discord:#northwind-billing")
	res = g.session(&sessionSpec{name: "discord-channel", agent: "main", id: g.uuid("discord-channel"), start: g.ago(10 * d),
		phases: []phase{{250 * kib, g.ago(6 * hour)}, {420 * kib, g.ago(25 * minute)}}, model: gpt54, mix: mixGroup,
		speakers: []string{"Jonas", "Zoë", "Dana"}})
	g.addRow("main", chanKey, res, chanRoute)
	g.observe(chanKey, res, res.mark(0).offset, res.mark(0).at.Add(4*minute))
	g.man.ObservedCandidate = Case{"main", chanKey, res.spec.id, res.path}
	channelFile := res.path

	// Fork: the Discord thread forked from the channel into a pi fork file.
	key = chanKey + ":thread:" + discordThread
	forkID := g.uuid("discord-thread")
	forkStart := g.ago(2*d + 3*hour)
	res = g.session(&sessionSpec{name: "discord-thread", agent: "main", id: forkID, file: forkStamp(forkStart) + "_" + forkID + ".jsonl",
		start: forkStart, parentSession: channelFile, phases: []phase{{30 * kib, g.ago(d)}}, model: gpt54, mix: mixGroup,
		speakers: []string{"Jonas", "Dana"}})
	rt = chanRoute
	rt.displayName, rt.threadID = "discord:#northwind-billing/cut-over-plan", discordThread
	rt.extra = []any{"parentSessionKey", chanKey, "forkedFromParent", true}
	g.addRow("main", key, res, rt)
	g.man.Fork = Case{"main", key, forkID, res.path}
}

// writeMainFormats writes the transcripts of odd formats: a malformed one, a row whose
// file is missing, versions 2 and 1.
func (g *generator) writeMainFormats() {
	d := dayDur
	// Malformed: broken lines in the middle and a torn last line; observed before the damage.
	key := "agent:main:slack:channel:c07q2nwbill"
	res := g.session(&sessionSpec{name: "slack-malformed", agent: "main", id: g.uuid("slack-malformed"), start: g.ago(5 * d),
		model: sonnet, mix: mixGroup, speakers: []string{"Jonas", "Priya", "Dana"}, script: g.malformedScript})
	g.addRow("main", key, res, group("slack", "channel", "C07Q2NWBILL", "channel:C07Q2NWBILL", "#billing-eng", "slack:#billing-eng"))
	g.observe(key, res, res.mark(0).offset, res.mark(0).at.Add(3*minute))
	g.man.Malformed = Case{"main", key, res.spec.id, res.path}

	// MissingFile: the hook's row exists, but pi writes nothing before the first reply.
	key = "agent:main:hook:" + g.uuid("hook-missing-key")
	spec := &sessionSpec{name: "hook-missing", agent: "main", id: g.uuid("hook-missing"), dir: g.sessionsDir("main")}
	spec.file = spec.id + ".jsonl"
	res = &sessionResult{spec: spec, path: filepath.Join(spec.dir, spec.file), first: g.ago(26 * hour), last: g.ago(26 * hour)}
	g.addRow("main", key, res, route{chatType: "direct", label: "Hook: gmail", bare: true})
	g.man.MissingFile = Case{"main", key, spec.id, res.path}

	// V2: an old hook session in the version-2 format, with a hookMessage.
	key = "agent:main:hook:" + g.uuid("hook-v2-key")
	res = g.session(&sessionSpec{name: "hook-v2", agent: "main", id: g.uuid("hook-v2"), start: g.ago(70 * d), version: 2,
		model: sonnet, script: g.hookV2Script})
	g.addRow("main", key, res, route{chatType: "direct", label: "Hook: gmail"})
	g.man.V2 = Case{"main", key, res.spec.id, res.path}

	// V1: the operator's DM from before dmScope existed, in the version-1 format.
	key = "agent:main:telegram:dm:123456789"
	res = g.session(&sessionSpec{name: "telegram-dm-v1", agent: "main", id: g.uuid("telegram-dm-v1"), start: g.ago(131 * d),
		version: 1, phases: []phase{{34 * kib, g.ago(120 * d)}}, model: sonnet45, compactEvery: 18 * kib})
	g.addRow("main", key, res, dm("telegram", "telegram:123456789", "Dana Okafor (@dana_ok) id:123456789"))
	g.man.V1 = Case{"main", key, res.spec.id, res.path}
}

// writeMainBranches writes a transcript with a real branch and one rewritten under the
// observer's cursor.
func (g *generator) writeMainBranches() {
	d := dayDur
	// Branchy: a real branch with a branch_summary, labels set and cleared, a session name.
	key := "agent:main:direct:zoe"
	res := g.session(&sessionSpec{name: "dm-zoe-branchy", agent: "main", id: g.uuid("dm-zoe-branchy"), start: g.ago(30 * hour),
		model: sonnet, script: g.branchyScript})
	g.addRow("main", key, res, dm("discord", "user:402938475610293847", "Zoë Laurent"))
	g.man.Branchy = Case{"main", key, res.spec.id, res.path}

	// Truncated: repair-session rewrote the file after the observer had read far more of it.
	key = "agent:main:direct:jonas"
	res = g.session(&sessionSpec{name: "dm-jonas", agent: "main", id: g.uuid("dm-jonas"), start: g.ago(4 * d),
		phases: []phase{{70 * kib, g.ago(10 * hour)}}, model: sonnet})
	g.addRow("main", key, res, dm("telegram", "telegram:5829104736", "Jonas Müller (@jmueller) id:5829104736"))
	g.observe(key, res, res.size*2+4117, g.ago(2*d))
	g.man.Truncated = Case{"main", key, res.spec.id, res.path}
}

// writeMainLeftovers writes what no row names: deleted archives, orphans, a bad name and
// a backup.
func (g *generator) writeMainLeftovers() {
	d := dayDur
	// Deleted: evicted 5 days ago (no row any more); and one past retention.
	delAt := g.ago(5*d + 2*hour)
	id := g.uuid("slack-acme-deleted")
	res := g.session(&sessionSpec{name: "slack-acme-deleted", agent: "main", id: id, file: id + ".jsonl.deleted." + archiveStamp(delAt),
		start: g.ago(20 * d), phases: []phase{{40 * kib, g.ago(6 * d)}}, model: sonnet, mix: mixGroup, speakers: []string{"Marco", "Dana"}})
	g.man.Deleted = Case{"main", "agent:main:slack:channel:c05acmedeal", id, res.path}
	delOld := g.ago(40*d + 5*hour)
	id = g.uuid("dm-old-deleted")
	res = g.session(&sessionSpec{name: "dm-old-deleted", agent: "main", id: id, file: id + ".jsonl.deleted." + archiveStamp(delOld),
		start: g.ago(70 * d), phases: []phase{{20 * kib, g.ago(41 * d)}}, model: sonnet})
	g.man.OldDeleted = Case{"main", "agent:main:direct:kenji", id, res.path}

	// Orphans: transcripts no row names. ClawVault's directory scan observed the recent one
	// as agent:main:unknown:<id>; the old one carries a cursor with an empty sessionKey.
	res = g.session(&sessionSpec{name: "orphan-old", agent: "main", id: g.uuid("orphan-old"), start: g.ago(50 * d),
		phases: []phase{{15 * kib, g.ago(49 * d)}}, model: sonnet})
	g.cursors = append(g.cursors, cursorEntry{res.spec.id, 2048, g.ago(49 * d), "", res.size})
	res = g.session(&sessionSpec{name: "orphan-recent", agent: "main", id: g.uuid("orphan-recent"), start: g.ago(3 * d),
		phases: []phase{{35 * kib, g.ago(3*d - hour)}}, model: sonnet})
	g.observe("agent:main:unknown:"+res.spec.id, res, res.size, res.last.Add(30*minute))
	g.man.Orphan = Case{"main", "", res.spec.id, res.path}

	// BadName: names that are not session ids.
	res = g.session(&sessionSpec{name: "bad-name", agent: "main", id: g.uuid("bad-name"), file: "notes (copy).jsonl",
		start: g.ago(15 * d), phases: []phase{{10 * kib, g.ago(15*d - 2*hour)}}, model: sonnet})
	g.man.BadName = Case{"main", "", res.spec.id, res.path}
	g.cursors = append(g.cursors, cursorEntry{"notes (copy)", res.size, g.ago(14 * d), "agent:main:unknown:notes (copy)", res.size})
	res = g.session(&sessionSpec{name: "backup", agent: "main", id: g.uuid("backup"), file: "northwind-export.backup.jsonl",
		start: g.ago(33 * d), phases: []phase{{8 * kib, g.ago(33*d - hour)}}, model: sonnet})
	g.man.Backup = Case{"main", "", res.spec.id, res.path}
	g.sessionCount += 4 // the two orphans, the bad name and the backup
}

// sonnet45 is the model of the older sessions.
var sonnet45 = modelSpec{"anthropic", "anthropic-messages", "claude-sonnet-4-5", 200000, 3, 15, 0.3, 3.75}

// writeNightlyDigest writes the cron job's run sessions (two of them past pruneAfter),
// its base row and the run log. One run's cursor entry is invalid.
func (g *generator) writeNightlyDigest() {
	const job = "nightly-digest"
	base := "agent:main:cron:" + job
	last := startOfDay(g.ago(10 * minute)).Add(2 * hour)
	if last.After(g.ago(10 * minute)) {
		last = last.Add(-dayDur)
	}
	var latest *sessionResult
	for i, age := range []int{62, 50, 3, 2, 1, 0} {
		start := last.AddDate(0, 0, -age).Add(time.Duration(i*7) * time.Second)
		res := g.session(&sessionSpec{name: "cron-" + job + "-" + itoa(age), agent: "main", id: g.uuid("cron-" + job + "-" + itoa(age)),
			start: start, model: haiku, thinkingLevel: "off", script: cronScript(job, digestPrompt)})
		key := base + ":run:" + res.spec.id
		g.addRow("main", key, res, cronRoute(job, res))
		g.logCronRun(job, key, res, "ok")
		switch age {
		case 2:
			// CursorInvalid: a hand-edited cursor ClawVault drops on load (negative offset).
			g.cursors = append(g.cursors, cursorEntry{res.spec.id, -1, res.last.Add(5 * minute), key, res.size})
			g.man.CursorInvalid = Case{"main", key, res.spec.id, res.path}
		case 1:
			g.observe(key, res, res.size, res.last.Add(12*minute))
		}
		latest = res
	}
	g.addRow("main", base, latest, cronRoute(job, latest))
}

const digestPrompt = "[cron:nightly-digest] Summarize yesterday from memory/ and the billing worker log, then post a short digest to the Northwind Ops Telegram group."

func cronRoute(job string, res *sessionResult) route {
	return route{chatType: "direct", label: "Cron: " + job, extra: []any{"status", "done",
		"startedAt", res.first.UnixMilli(), "endedAt", res.last.UnixMilli(), "runtimeMs", res.last.Sub(res.first).Milliseconds()}}
}

// writeSubagents writes a subagent with a pre-compaction checkpoint and its own child.
func (g *generator) writeSubagents() {
	key := "agent:main:subagent:" + g.uuid("subagent-key")
	id := g.uuid("subagent")
	cpID := g.uuid("subagent-checkpoint")
	res := g.session(&sessionSpec{name: "subagent", agent: "main", id: id, start: g.ago(26 * hour),
		phases: []phase{{190 * kib, g.ago(23 * hour)}}, model: opus, compactEvery: 110 * kib,
		checkpoint: id + ".checkpoint." + cpID + ".jsonl",
		intro:      subagentTask("Compare PostgreSQL and MongoDB for the Northwind invoice ledger and recommend one.", "agent:main:main")})
	extra := []any{"spawnedBy", "agent:main:main", "spawnDepth", 1, "subagentRole", "researcher", "status", "done",
		"startedAt", res.first.UnixMilli(), "endedAt", res.last.UnixMilli(), "runtimeMs", res.last.Sub(res.first).Milliseconds()}
	if st := res.stats; st.compactions > 0 && res.checkpointPath != "" {
		extra = append(extra, "compactionCheckpoints", []any{o(
			"checkpointId", cpID, "sessionKey", key, "sessionId", id, "createdAt", res.checkpointAt.UnixMilli(),
			"reason", "auto-threshold", "tokensBefore", st.lastTokensBefore, "tokensAfter", 21480,
			"summary", "Compared PostgreSQL and MongoDB for the invoice ledger; PostgreSQL recommended.",
			"firstKeptEntryId", st.firstKept[0],
			"preCompaction", o("sessionId", id, "sessionFile", res.checkpointPath, "leafId", res.checkpointLeaf),
			"postCompaction", o("sessionId", id, "entryId", st.compactionIDs[0]))})
	}
	g.addRow("main", key, res, route{chatType: "direct", label: "Research: ledger database", extra: extra})
	g.man.Checkpoint = Case{"main", key, id, res.checkpointPath}

	nestedKey := key + ":subagent:" + g.uuid("nested-subagent-key")
	res = g.session(&sessionSpec{name: "nested-subagent", agent: "main", id: g.uuid("nested-subagent"), start: g.ago(25 * hour),
		phases: []phase{{12 * kib, g.ago(24*hour + 30*minute)}}, model: sonnet,
		intro: subagentTask("Pull the monthly invoice volumes for the last 90 days.", key)})
	g.addRow("main", nestedKey, res, route{chatType: "direct", label: "Data: invoice volumes", extra: []any{
		"spawnedBy", key, "spawnDepth", 2, "subagentRole", "data", "status", "done",
		"startedAt", res.first.UnixMilli(), "endedAt", res.last.UnixMilli(), "runtimeMs", res.last.Sub(res.first).Milliseconds()}})
	g.man.NestedSubagent = Case{"main", nestedKey, res.spec.id, res.path}
}

// writeWorkAgent writes agent work, whose main session skipped memory flushes.
func (g *generator) writeWorkAgent() error {
	d := dayDur
	// FlushSkipped: three compactions, only the first preceded by a memory flush.
	key := "agent:work:main"
	res := g.session(&sessionSpec{name: "work-main", agent: "work", id: g.uuid("work-main"), start: g.ago(14 * d),
		phases: []phase{{620 * kib, g.ago(hour)}}, model: opus, thinkingLevel: "medium", mix: mixWorkday, bigBytes: 5 * kib,
		compactEvery: 180 * kib, flush: flushFirstOnly})
	g.addRow("work", key, res, dm("slack", "user:U05DANAOK", "Dana Okafor"))
	g.man.FlushSkipped = Case{"work", key, res.spec.id, res.path}

	// NoMessages: observed up to its last message; since then only bookkeeping entries
	// (a model switch, a cache-ttl marker) were appended, nothing an observer can read.
	key = "agent:work:slack:channel:c05soc2team"
	res = g.session(&sessionSpec{name: "work-slack", agent: "work", id: g.uuid("work-slack"), start: g.ago(9 * d),
		model: sonnet, mix: mixGroup, speakers: []string{"Priya", "Dana"}, script: func(c *convo) {
			c.runUntil(45*kib, g.ago(2*d))
			c.marks = append(c.marks, mark{c.t.size, c.t.last})
			c.t.tick(20 * hour)
			c.t.entry("model_change", "provider", opus.provider, "modelId", opus.id)
			c.t.tick(time.Millisecond)
			c.t.entry("thinking_level_change", "thinkingLevel", "medium")
			c.t.tick(2 * time.Millisecond)
			c.t.custom("model-snapshot", o("timestamp", c.t.at.UnixMilli(), "provider", opus.provider, "modelApi", opus.api, "modelId", opus.id))
			c.t.tick(4 * time.Second)
			c.t.custom("openclaw.cache-ttl", o("timestamp", c.t.at.UnixMilli(), "provider", opus.provider, "modelId", opus.id))
		}})
	g.addRow("work", key, res, group("slack", "channel", "C05SOC2TEAM", "channel:C05SOC2TEAM", "#soc2-team", "slack:#soc2-team"))
	g.observe(key, res, res.mark(0).offset, res.mark(0).at.Add(hour))
	g.man.NoMessages = Case{"work", key, res.spec.id, res.path}

	key = "agent:work:telegram:direct:5550001111"
	res = g.session(&sessionSpec{name: "work-telegram", agent: "work", id: g.uuid("work-telegram"), start: g.ago(2 * d),
		phases: []phase{{18 * kib, g.ago(d)}}, model: gpt54})
	g.addRow("work", key, res, dm("telegram", "telegram:5550001111", "Priya Raman (@priya_r) id:5550001111"))

	key = "agent:work:subagent:" + g.uuid("work-subagent-key")
	res = g.session(&sessionSpec{name: "work-subagent", agent: "work", id: g.uuid("work-subagent"), start: g.ago(5 * d),
		phases: []phase{{25 * kib, g.ago(5*d - 2*hour)}}, model: sonnet,
		intro: subagentTask("Collect the SOC2 access-review evidence for Q3 into one folder per control.", "agent:work:main")})
	g.addRow("work", key, res, route{chatType: "direct", label: "SOC2 evidence", extra: []any{"spawnedBy", "agent:work:main", "spawnDepth", 1, "status", "done"}})

	const job = "soc2-reminder"
	start := startOfDay(g.ago(d)).Add(9 * hour)
	res = g.session(&sessionSpec{name: "work-cron", agent: "work", id: g.uuid("work-cron"), start: start, model: haiku,
		thinkingLevel: "off", script: cronScript(job, "[cron:soc2-reminder] Check which SOC2 questions are still open and remind #soc2-team of anything due this week.")})
	runKey := "agent:work:cron:" + job + ":run:" + res.spec.id
	g.addRow("work", runKey, res, cronRoute(job, res))
	g.addRow("work", "agent:work:cron:"+job, res, cronRoute(job, res))
	g.logCronRun(job, runKey, res, "ok")
	return g.err
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
