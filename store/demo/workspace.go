package demo

import (
	"path/filepath"
	"strings"
	"time"
)

// writeWorkspaces writes the agents' workspaces as OpenClaw lays them out: the boot
// files, a hand-curated MEMORY.md and daily notes memory/YYYY-MM-DD.md.
func (g *generator) writeWorkspaces() error {
	ws := g.mainWorkspace
	setup := g.ago(120 * dayDur)
	g.file(filepath.Join(ws, "AGENTS.md"), []byte(agentsMD), setup)
	g.file(filepath.Join(ws, "SOUL.md"), []byte(soulMD), setup)
	g.file(filepath.Join(ws, "USER.md"), []byte(userMD), setup.Add(2*hour))
	g.file(filepath.Join(ws, "HEARTBEAT.md"), []byte(heartbeatFile), g.ago(30*dayDur))
	g.file(filepath.Join(ws, "MEMORY.md"), []byte(g.memoryMD()), g.ago(2*dayDur+5*hour))
	for age := range 10 {
		if age == 6 {
			continue // nobody wrote notes that day
		}
		g.dailyNote(ws, age, "main")
	}

	work := g.workWorkspace
	g.file(filepath.Join(work, "AGENTS.md"), []byte("# AGENTS.md (work)\n\nYou handle compliance and reporting for the team: SOC2, weekly reports, vendor questionnaires.\nWrite durable facts to MEMORY.md and the day's log to memory/YYYY-MM-DD.md.\n"), setup)
	g.file(filepath.Join(work, "MEMORY.md"), []byte(g.workMemoryMD()), g.ago(4*dayDur))
	g.dailyNote(work, 1, "work")
	g.dailyNote(work, 3, "work")

	g.file(filepath.Join(g.opsWorkspace, "AGENTS.md"), []byte("# AGENTS.md (ops)\n\nYou watch backups, certificates and the billing database. Page Jonas only for data loss.\n"), setup)
	g.file(filepath.Join(g.opsWorkspace, "MEMORY.md"), []byte(g.opsMemoryMD()), g.ago(40*minute))
	g.dailyNote(g.opsWorkspace, 1, "ops")
	for age := 2; age < 2+g.opt.MemoryNotes; age++ {
		g.dailyNote(g.opsWorkspace, age, "ops")
	}
	return g.err
}

const agentsMD = `# AGENTS.md

This folder is home. Read SOUL.md and USER.md at the start of every session, then
today's and yesterday's notes in memory/.

## Memory
- memory/YYYY-MM-DD.md is the raw log of the day. Append, never rewrite.
- MEMORY.md is curated: decisions, people, preferences that still hold.
- When someone says "remember this", write it down before answering.

## Groups
Answer when you are asked or when you can add something real. Otherwise stay quiet.
`

const soulMD = `# SOUL.md

Be useful before being clever. Short answers, real numbers, dates in UTC.
Say "I don't know" instead of guessing. Never send anything external without asking.
`

const userMD = `# USER.md

- Name: Dana Okafor (she/her), runs operations at a small billing SaaS.
- Time zone: Europe/Berlin, but wants everything in UTC.
- Telegram is the main channel; Slack for work, WhatsApp only for Marco at Acme.
`

func (g *generator) memoryMD() string {
	at := g.now
	ds := func(n int) string { return day(at.AddDate(0, 0, n)) }
	return `# MEMORY.md

## People
- **Elena Vasquez**: finance lead at Northwind. Prefers email for anything about invoices.
- **Marco Bianchi** (Acme): procurement. Negotiates hard on annual discounts; reply within a day.
- **Priya Raman**: security lead, owns SOC2 evidence and the access reviews.
- **Jonas Müller**: data engineer; owns the warehouse migration and the billing cut-over.
- **Zoë Laurent**: product designer on the onboarding redesign. Likes plain copy.

## Projects
### Northwind billing
- Decided ` + ds(-34) + `: PostgreSQL instead of MongoDB (transactions across invoices and credit notes, JSONB line items).
- Invoices are immutable; corrections are credit notes.
- Cut-over to PostgreSQL planned for ` + ds(5) + ` at 14:30 UTC; schema frozen until then.

### Telegram bot v0.3
- Shipped to staging ` + ds(-9) + `, behind a feature flag for the first week.
- Rate limit is per chat: batch the digest into one message.

### SOC2 questionnaire
- 212 questions. Send it to Elena by ` + ds(3) + `.
- Evidence lives in one folder per control, named by control id.

## Preferences
- Short bullet summaries, no long paragraphs.
- Dates first and in UTC, e.g. ` + ds(0) + ` 14:30.
- Nothing before 10:00 on Mondays.

## Runbooks
Backup before any migration:

` + "```bash" + `
pg_dump --format=custom --file "/backups/northwind-$(date -u +%F).dump" "$BILLING_DB_URL"
pg_restore --list "/backups/northwind-$(date -u +%F).dump" | head
` + "```" + `

## Lessons
- Never run migrations without a backup snapshot.
- Confirm the currency before invoicing Acme (they pay in USD, Northwind in EUR).
- Long-running cron jobs need a timeout.
`
}

func (g *generator) workMemoryMD() string {
	return `# MEMORY.md (work)

## SOC2
- Auditor: Müller & Partner, fieldwork starts ` + day(g.now.AddDate(0, 0, 21)) + `.
- Priya owns evidence; Dana signs off on policies.
- Access reviews are quarterly; the Q3 review is still open.

## Weekly report
- Goes out Fridays at 15:00 UTC to #leadership.
- Sections: shipped, at risk, numbers (MRR, invoices, failed payments).
`
}

// dailyNote writes memory/YYYY-MM-DD.md for the day `age` days before Now.
func (g *generator) dailyNote(ws string, age int, agent string) {
	r := g.rand("daily-note:" + agent + ":" + itoa(age))
	date := startOfDay(g.now.AddDate(0, 0, -age))
	var b strings.Builder
	b.WriteString("# " + day(date) + "\n\n## Log\n")
	t := date.Add(8*hour + time.Duration(r.IntN(60))*minute)
	last := t
	for range 4 + r.IntN(5) {
		if t.After(g.now) {
			break
		}
		st := pick(r, statements)
		b.WriteString("- " + hhmm(t) + " " + render(r, st.tmpl, t) + "\n")
		last = t
		t = t.Add(time.Duration(25+r.IntN(110)) * minute)
	}
	b.WriteString("\n## Open\n")
	for range 1 + r.IntN(3) {
		b.WriteString("- [ ] " + render(r, pick(r, statementsOf("todo")).tmpl, date) + "\n")
	}
	if age%3 == 0 {
		b.WriteString("\n## Notes\nCall with Zoë about the onboarding copy went well; Jonas Müller will pair on the backfill.\n")
	}
	g.file(filepath.Join(ws, "memory", day(date)+".md"), []byte(b.String()), earliest(last.Add(10*minute), g.ago(minute)))
}
