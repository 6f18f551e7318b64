package demo

import (
	"strconv"
	"time"
)

// Scripts for the sessions whose shape matters more than their size.

// malformedScript writes a Slack channel session that was damaged in every way a JSONL
// reader must survive: a torn write mid-file, stray process output, a duplicate header
// (pi's flush quirk), two entries glued on one line (racing writers), a CRLF line, and a
// torn last line with no newline (a reply being written right now). The first mark, the
// observer cursor, sits on the line boundary before the damage.
func (g *generator) malformedScript(c *convo) {
	t := c.t
	c.runUntil(40*kib, g.ago(8*hour))
	c.marks = append(c.marks, mark{t.size, t.last})
	c.runUntil(70*kib, g.ago(5*hour))

	// 1. A crash tore this write; the restarted gateway went on from the previous leaf.
	t.tick(2 * time.Second)
	e, _ := t.build(t.leaf, "message", "message", assistantMessage([]any{textBlock(
		"The invoice export finished with 3 warnings: two Acme invoices in USD and one missing VAT id.")},
		c.m, responseID(c.r), c.callUsage(t.at.Add(-2*time.Second), 40), "stop", "", t.at.Add(-2*time.Second)))
	line := jsonCompact(nil, e)
	cut := len(line) * 11 / 20
	t.writeRaw(append(line[:cut:cut], '\n'))

	// 2. Output of a child process that ended up in the file.
	t.writeRaw([]byte("npm WARN deprecated inflight@1.0.6: This module is not supported, and it leaks memory.\n"))
	c.runUntil(t.size+6*kib, g.ago(4*hour))

	// 3. The session header again, mid-file.
	t.writeRaw(t.headerLine)
	c.chatTurn()

	// 4. Two writers raced: two entries on one line. The next entries hang under the
	// second one, which a reader that drops the line will never see.
	t.tick(3 * time.Second)
	u, uid := t.build(t.leaf, "message", "message", userMessage(
		"Jonas: Is the cut-over still on for "+day(t.at.AddDate(0, 0, 2))+" at 14:30?", t.at.Add(-120*time.Millisecond)))
	asked := t.at
	t.tick(4 * time.Second)
	a, aid := t.build(uid, "message", "message", assistantMessage([]any{textBlock(
		"Yes. The cut-over is planned for " + day(t.at.AddDate(0, 0, 2)) + " at 14:30 UTC; the billing schema stays frozen until then.")},
		c.m, responseID(c.r), c.callUsage(asked, 38), "stop", "", asked))
	glued := jsonCompact(jsonCompact(nil, u), a)
	t.writeRaw(append(glued, '\n'))
	t.leaf, t.last = aid, t.at
	c.chatTurn()

	// 5. A line ending in CRLF (still valid JSON: \r is whitespace).
	t.tick(10 * time.Second)
	e, id := t.build(t.leaf, "thinking_level_change", "thinkingLevel", "medium")
	t.writeRaw(append(jsonCompact(nil, e), '\r', '\n'))
	t.leaf, t.last = id, t.at
	c.runUntil(120*kib, g.ago(40*minute))

	// 6. Torn tail: the reply being written right now, no newline yet.
	t.tick(5 * time.Second)
	e, _ = t.build(t.leaf, "message", "message", assistantMessage([]any{textBlock(
		"Summary for #billing-eng: dual writes are healthy, 0 mismatches in the last 24 hours.")},
		c.m, responseID(c.r), c.callUsage(t.at.Add(-5*time.Second), 30), "stop", "", t.at.Add(-5*time.Second)))
	line = jsonCompact(nil, e)
	t.writeRaw(line[:len(line)*2/5])
	t.last = t.at
}

// hookV2Script writes a Gmail hook run in the version-2 format, whose custom messages
// still had the role hookMessage.
func (g *generator) hookV2Script(c *convo) {
	t := c.t
	start := t.at
	t.tick(200 * time.Millisecond)
	c.user("Hook gmail: new email from Elena Vasquez <elena@northwind.example>\nSubject: Invoice backlog\n\n" +
		"Hi, could you send the SOC2 questionnaire by " + day(t.at.AddDate(0, 0, 3)) +
		"? We also need the migration dry-run report before the cut-over.")
	t.tick(120 * time.Millisecond)
	t.message(o("role", "hookMessage", "customType", "gmail", "content",
		"Email from elena@northwind.example: \"Invoice backlog\" (2 attachments skipped)", "display", true,
		"details", o("hook", "gmail", "messageId", "<CAF"+randBase62(c.r, 18)+"@mail.northwind.example>"),
		"timestamp", t.at.UnixMilli()))
	t.tick(1500 * time.Millisecond)
	c.reply("Elena needs the SOC2 questionnaire by {d+3} and the dry-run report before the cut-over. TODO: send the SOC2 questionnaire to Elena by {d+3}.")
	c.runUntil(15*kib, start.Add(25*minute))
}

// branchyScript writes a DM with a real branch: the operator went back with /tree and
// pi wrote a branch_summary under the branch point (parentId = fromId, as pi's code does);
// labels are set and one is cleared; session_info names the session.
func (g *generator) branchyScript(c *convo) {
	t := c.t
	t.tick(5 * time.Millisecond)
	t.customMessage("openclaw:bootstrap-context:full", "Workspace context loaded: AGENTS.md, SOUL.md, USER.md, MEMORY.md.",
		false, o("files", []string{"AGENTS.md", "SOUL.md", "USER.md", "MEMORY.md"}))
	c.runUntil(t.size+7*kib, g.ago(28*hour))

	c.say(nil, "Draft the welcome copy for the new onboarding checklist.")
	t.tick(time.Second)
	c.reply("Draft: \"Welcome to Northwind Cloud! Three steps and you're sending invoices.\" Want a different tone?")
	branchPoint := t.leaf

	t.tick(2 * minute)
	c.say(nil, "Use a playful tone, with emoji.")
	t.tick(time.Second)
	playful := c.reply("Playful: \"🎉 Welcome aboard! Three tiny steps and your invoices fly out the door.\"")
	t.tick(40 * time.Second)
	t.entry("label", "targetId", playful, "label", "playful-draft")

	t.tick(3 * minute)
	t.entryUnder(branchPoint, "branch_summary", "fromId", branchPoint, "summary",
		"## Goal\nFind the tone for the onboarding welcome copy.\n\n## Progress\n### Done\n- [x] Tried a playful tone with emoji (labelled playful-draft)\n\n## Key Decisions\n- **Too loud for finance teams; going back to the plain draft.**",
		"details", o("readFiles", []string{}, "modifiedFiles", []string{}))
	st := statement{"relationship", "Zoë said the playful version is too loud for finance teams."}
	c.say(&st, "Use a calm, plain tone instead.")
	t.tick(time.Second)
	final := c.reply("Plain: \"Welcome to Northwind Cloud. Connect your bank, import your customers, send your first invoice.\"")
	t.tick(20 * time.Second)
	t.entry("label", "targetId", final, "label", "final-copy")

	c.runUntil(t.size+8*kib, g.ago(22*hour))
	c.aborted()
	t.tick(minute)
	t.entry("label", "targetId", playful) // no label: clears playful-draft
	c.runUntil(t.size+4*kib, g.ago(20*hour+10*minute))
	t.tick(30 * time.Second)
	t.entry("session_info", "name", "Onboarding copy review")
}

// cronScript writes one isolated cron run: read memory, query, post, confirm.
func cronScript(job, prompt string) func(c *convo) {
	return func(c *convo) {
		t := c.t
		t.tick(300 * time.Millisecond)
		c.user(prompt)
		t.tick(400 * time.Millisecond)
		yesterday := t.at.AddDate(0, 0, -1)
		y := "memory/" + day(yesterday) + ".md"
		c.useTool(toolUse{name: "memory_get", args: o("path", y), result: dailyNoteText(c.r, yesterday), details: undef, read: y}, true)
		cmd := `psql "$BILLING_DB_URL" -c "select status, count(*) from invoices where created_at > now() - interval '1 day' group by 1 order by 1"`
		c.useTool(toolUse{name: "exec", args: o("command", cmd), result: invoiceCounts(c.r), details: execDetails(c.r, c.cwd, 0)}, false)
		a, b := pick(c.r, statements), pick(c.r, statements)
		digest := "Digest for " + day(t.at.AddDate(0, 0, -1)) + ":\n- " + render(c.r, a.tmpl, t.at) + "\n- " + render(c.r, b.tmpl, t.at) +
			"\n- No failed invoices overnight."
		channel, target := "telegram", northwindOps
		if job == "soc2-reminder" {
			channel, target = "slack", "channel:C05SOC2TEAM"
		}
		c.useTool(toolUse{name: "message", args: o("action", "send", "channel", channel, "target", target, "message", digest),
			result: `{"ok":true,"messageId":"` + strconv.Itoa(4000+c.r.IntN(6000)) + `"}`, details: undef}, false)
		c.assistant([]any{textBlock("Digest posted.")}, 16, "stop")
		c.notes = append(c.notes, note{t.last, "assistant", a.kind, digest, t.size})
	}
}

// subagentTask writes the spawn message a subagent starts with (an inter-session user
// message with OpenClaw's provenance) and its first answer.
func subagentTask(task, parentKey string) func(c *convo) {
	return func(c *convo) {
		t := c.t
		t.tick(60 * time.Millisecond)
		before := t.size
		index := t.lines
		id := t.message(o("role", "user", "content", "[Subagent task from "+parentKey+"]\n"+task, "timestamp", t.at.UnixMilli(),
			"provenance", o("kind", "inter_session", "sourceSessionKey", parentKey, "sourceTool", "sessions_spawn")))
		c.grow(before)
		c.keep = append(c.keep, keptRef{id, index})
		t.tick(800 * time.Millisecond)
		c.reply("Starting. I'll check memory and the billing repository first, then report back with a recommendation.")
	}
}

// --- cron run log ---

func (g *generator) logCronRun(job, key string, res *sessionResult, status string) {
	g.cronRuns[job] = append(g.cronRuns[job], cronRun{res.last.Add(300 * time.Millisecond), o(
		"ts", res.last.Add(300*time.Millisecond).UnixMilli(), "jobId", job, "action", "finished", "status", status,
		"summary", "Digest posted.", "sessionId", res.spec.id, "sessionKey", key,
		"runAtMs", res.first.UnixMilli(), "durationMs", res.last.Sub(res.first).Milliseconds())})
}

type cronRun struct {
	at   time.Time
	line obj
}
