package demo

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"clawvault-tui/jscompat"
)

// The phrase bank: a small fictional team, its projects and the kind of sentences an
// observer turns into memories (decisions, TODOs with dates, lessons, preferences,
// milestones, meetings). Templates take slots filled relative to the moment the
// sentence is "said":
//
//	{d+N} {d-N}   a date N days later/earlier (YYYY-MM-DD)
//	{wd+N}        the weekday name N days later
//	{t}           a business-hours time (HH:MM, quarter hours)
//	{n:A-B}       an integer in [A, B]
//	{v}           a minor version such as 2.4

// projects are the recurring topics; the slug of the first is a known vault project.
var projects = []string{
	"Northwind billing", "Acme pricing proposal", "SOC2 questionnaire", "Telegram bot v0.3",
	"release notes", "onboarding redesign", "warehouse migration",
}

// statement is one observable sentence and the observation type it becomes.
type statement struct {
	kind string
	tmpl string
}

var statements = []statement{
	{"decision", "We decided to use PostgreSQL instead of MongoDB for the Northwind billing service."},
	{"decision", "We decided to keep invoices immutable and issue credit notes for every correction."},
	{"decision", "We decided to ship the Telegram bot v0.3 behind a feature flag for the first week."},
	{"decision", "We decided to move the weekly billing sync to Thursdays at {t}."},
	{"decision", "Decision: the Acme pricing proposal goes out with a 12% annual discount, not 15%."},
	{"decision", "We decided to freeze the billing schema until the migration on {d+5}."},
	{"decision", "We decided to publish release notes every Friday and post them to #releases."},
	{"decision", "We decided to drop the legacy CSV export once Northwind confirms on {d+4}."},
	{"decision", "Decision: Jonas owns the warehouse migration and Zoë owns the onboarding redesign."},
	{"decision", "We decided to store SOC2 evidence in one shared folder per control, named by control id."},
	{"todo", "TODO: send the SOC2 questionnaire to Elena by {d+3}."},
	{"todo", "TODO: draft the release notes for billing v{v} before {t} on {d+1}."},
	{"todo", "TODO: rotate the Telegram bot token before the v0.3 launch on {d+6}."},
	{"todo", "TODO: export the audit log for the SOC2 auditors by {d+5}."},
	{"task", "Remind me to follow up with Marco from Acme on {d+2} at {t}."},
	{"task", "Need to book the Northwind quarterly review for {d+7} at {t}."},
	{"task", "Deadline for the Acme pricing proposal is {d+9}; the draft must be ready by {wd+6}."},
	{"commitment", "I'll send Marco the revised quote by {d+2}."},
	{"commitment", "I promised Elena a migration dry-run report by {d+4}."},
	{"commitment", "We committed to answering the remaining {n:20-60} SOC2 questions by {d+8}."},
	{"commitment-unresolved", "Still waiting on Priya for the access-review evidence; nobody owns it yet."},
	{"lesson", "Lesson learned: never run migrations without a backup snapshot."},
	{"lesson", "Lesson learned: the Telegram API rate limit is per chat, so batch the digest messages."},
	{"lesson", "Lesson learned: always confirm the currency before sending an invoice to Acme."},
	{"lesson", "Lesson learned: long-running cron jobs need a timeout or they pile up overnight."},
	{"lesson", "Lesson learned: keep release notes short; nobody reads past the third bullet."},
	{"lesson", "Lesson learned: test the webhook retries against staging before every bot release."},
	{"preference", "I prefer short bullet summaries over long paragraphs."},
	{"preference", "Please always use UTC in reports and put the date first, like {d+0}."},
	{"preference", "I like release notes to start with the customer-facing changes."},
	{"preference", "Don't schedule anything before 10:00 on Mondays."},
	{"preference", "Elena prefers email over Slack for anything that involves invoices."},
	{"milestone", "Shipped the Telegram bot v0.3 to staging."},
	{"milestone", "Shipped billing v{v} with proration and EU VAT."},
	{"milestone", "Shipped the Northwind invoice export to production at {t}."},
	{"milestone", "Milestone: the SOC2 questionnaire is {n:55-95}% answered."},
	{"milestone", "Shipped the onboarding checklist redesign to 10% of new accounts."},
	{"relationship", "Talked to Elena about the invoice backlog at {t}; she wants weekly status updates."},
	{"relationship", "Talked to Elena from Northwind; she approved shipping the billing API next week."},
	{"relationship", "Elena said the invoice backlog is down to {n:20-90} items after the morning batch."},
	{"relationship", "Priya asked for the access-review export by {d+2}; she is presenting it to the auditors."},
	{"relationship", "Met with Marco from Acme about the pricing proposal; deadline is {d+9}."},
	{"relationship", "Talked to Priya about the SOC2 evidence folders; she will review access logs on {d+3}."},
	{"relationship", "Had a call with Jonas Müller at {t} about the warehouse cut-over."},
	{"relationship", "Zoë said the onboarding mockups are ready for review on {wd+1}."},
	{"fact", "The Northwind billing database is {n:40-60} GB and grows about 2 GB a month."},
	{"fact", "Acme has {n:300-380} seats on the Business plan and renews on {d+30}."},
	{"fact", "The Telegram bot runs on a single VM in Frankfurt with 2 vCPUs."},
	{"fact", "Billing v2 processes about {n:11-14},000 invoices a month."},
	{"project", "The SOC2 questionnaire has 212 questions; {n:120-200} are answered."},
	{"project", "The Northwind billing migration is in phase 2: dual writes to PostgreSQL."},
	{"project", "The release notes now use the template in docs/release-notes.md."},
}

// chatter is low-value text the observer keeps as importance-0.20 facts.
var chatter = []string{
	"ok", "thanks, that works", "sounds good", "Checked the staging logs; nothing new.",
	"Let's pick this up tomorrow.", "perfect", "Got it.",
}

// statementsByKind groups the statements by observation type, on first use
// (only the demo command needs them).
var statementsByKind = sync.OnceValue(func() map[string][]statement {
	m := map[string][]statement{}
	for _, s := range statements {
		m[s.kind] = append(m[s.kind], s)
	}
	return m
})

// statementsOf returns the statements of one observation type.
func statementsOf(kind string) []statement { return statementsByKind()[kind] }

// exchange is a request, the tool the assistant reaches for, and the answer it gives.
type exchange struct {
	ask, tool, reply string
}

var exchanges = []exchange{
	{"Can you check the staging logs for errors since this morning?", "log",
		"The staging logs show {n:2-9} webhook timeouts in the last {n:2-5} hours, all retried successfully. No other errors."},
	{"Summarize the open SOC2 items for me.", "memory",
		"Open SOC2 items:\n- Access-review evidence (Priya)\n- The subprocessor list\n- The questionnaire itself, due to Elena by {d+3}"},
	{"What did we ship yesterday?", "git",
		"Yesterday: billing v{v} with proration and EU VAT, plus the retry fix for webhook deliveries."},
	{"Draft a reply to Marco about the discount.", "memory",
		"Draft for Marco: \"Hi Marco, we can do 12% on an annual plan, net-30, valid until {d+14}. Happy to walk through it on {wd+2}.\""},
	{"Look up the Telegram Bot API limits for group messages.", "web",
		"The Bot API allows about 20 messages per minute per group, so the digest should go out as one message."},
	{"How many invoices failed last night?", "db",
		"Nothing failed overnight; {n:0-3} invoices were retried and all succeeded."},
	{"What is still open for the Northwind migration?", "memory",
		"Open items for Northwind: dual writes, the backfill of {n:2-6} years of invoices, and the cut-over on {d+5}."},
	{"Which release notes are still missing for v{v}?", "release",
		"Missing: the EU VAT reverse-charge entry and the credit-notes entry. Everything else is in docs/release-notes.md."},
	{"Can you compare PostgreSQL and MongoDB for the invoice ledger again?", "web",
		"PostgreSQL wins for the ledger: transactions across invoices and credit notes, JSONB for line items, and we already run it."},
	{"Check whether the nightly digest ran on {d-1}.", "memory",
		"The nightly digest ran at 02:00 on {d-1} and posted {n:8-15} items to Northwind Ops."},
	{"What did Elena ask for last week?", "search",
		"Elena asked for weekly status updates on the invoice backlog and the dry-run report by {d+4}."},
	{"Post the billing status to the Northwind Ops group.", "send",
		"Posted to Northwind Ops: billing v{v} is live and the cut-over is on track for {d+5}."},
	{"Write today's notes into memory.", "notes",
		"Done. Today's log is in memory/{d+0}.md."},
	{"What's in MEMORY.md about Acme?", "memory-file",
		"Acme: Marco Bianchi runs procurement, {n:300-380} seats, they pay in USD. The renewal discount is 12%."},
}

// acks close a turn that only shared a statement.
var acks = []string{
	"Noted.", "Got it, I'll keep that in mind.", "Makes sense. I'll bring it up when it matters.",
	"Understood; I'll factor that into the next update.",
}

// thoughts are the model's private reasoning before it acts, by kind of turn.
var thoughts = map[string][]string{
	"tool": {
		"I need the exact numbers, so I'll check instead of guessing.",
		"Let me look at the logs and the repository history first, then summarize.",
		"Memory should have the latest decision on this; I'll search it before answering.",
	},
	"note": {
		"This is worth keeping; I'll append it to today's memory file.",
		"This mentions a deadline; I should write it to today's memory file.",
	},
	"chat": {
		"A short answer is preferred; bullets, UTC dates.",
		"Nothing to look up here; acknowledge and move on.",
		"The user wants a quick status; answer from what I already know.",
	},
}

// render fills the slots of tmpl relative to at.
func render(r *rand.Rand, tmpl string, at time.Time) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(slot(r, tmpl[i+1:i+j], at))
		tmpl = tmpl[i+j+1:]
	}
}

func slot(r *rand.Rand, name string, at time.Time) string {
	switch {
	case name == "t":
		return hhmm(time.Date(2000, 1, 1, 8+r.IntN(10), 15*r.IntN(4), 0, 0, time.UTC))
	case name == "v":
		return "2." + strconv.Itoa(1+r.IntN(9))
	case strings.HasPrefix(name, "d+"), strings.HasPrefix(name, "d-"):
		n, _ := strconv.Atoi(name[1:])
		return day(at.AddDate(0, 0, n))
	case strings.HasPrefix(name, "wd+"):
		n, _ := strconv.Atoi(name[3:])
		return at.AddDate(0, 0, n).Weekday().String()
	case strings.HasPrefix(name, "n:"):
		lo, hi, _ := strings.Cut(name[2:], "-")
		a, _ := strconv.Atoi(lo)
		z, _ := strconv.Atoi(hi)
		return strconv.Itoa(a + r.IntN(z-a+1))
	}
	return "{" + name + "}"
}

// scores gives the observer's confidence and importance for a type, on a 0.05 grid.
func scores(r *rand.Rand, kind string) (c, i float64) {
	grid := func(lo, hi float64) float64 {
		steps := int((hi-lo)/0.05 + 0.5)
		return lo + 0.05*float64(r.IntN(steps+1))
	}
	switch kind {
	case "decision":
		return grid(0.85, 0.95), grid(0.85, 0.95)
	case "preference":
		return grid(0.80, 0.90), grid(0.55, 0.75)
	case "commitment":
		return 0.85, grid(0.70, 0.85)
	case "task":
		return 0.95, grid(0.70, 0.90)
	case "todo":
		return 0.78, grid(0.60, 0.70)
	case "commitment-unresolved":
		return 0.70, 0.60
	case "milestone":
		return 0.90, grid(0.85, 0.90)
	case "lesson":
		return grid(0.70, 0.80), grid(0.45, 0.80)
	case "relationship":
		return 0.72, grid(0.45, 0.60)
	case "project":
		return 0.75, grid(0.40, 0.60)
	}
	return 0.72, grid(0.20, 0.55) // fact
}

// emojiFor maps importance to the legacy (≤ v2.1) priority emoji.
func emojiFor(importance float64) string {
	switch {
	case importance >= 0.8:
		return "🔴"
	case importance >= 0.4:
		return "🟡"
	}
	return "🟢"
}

// autoLink imitates ClawVault's router: capitalized words (one or two, 3+ letters) that
// are not common sentence words become [[links]], as do a few known tech names. It
// reproduces the router's quirks on purpose ([[Shipped]], [[Zo]]ë).
func autoLink(s string) string {
	if strings.Contains(s, "[[") {
		return s
	}
	skip := linkSkip()
	s = linkName().ReplaceAllStringFunc(s, func(m string) string {
		if skip[m] {
			return m
		}
		return "[[" + m + "]]"
	})
	for _, name := range []string{"PostgreSQL", "MongoDB"} {
		s = strings.Replace(s, name, "[["+name+"]]", 1)
	}
	return s
}

var linkName = jscompat.LazyRegexp(`\b[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})?\b`)

// linkSkip are the capitalized words autoLink leaves alone.
var linkSkip = sync.OnceValue(func() map[string]bool {
	skip := map[string]bool{}
	for _, w := range strings.Fields(`The This That These Those There Then When What Which While With Will About After
		Before Also Always Any Each Every From Have Had Into Just Keep Like Make More Most Much Must Need Never Next
		None Not Now Only Other Over Some Such Sure Take They Too Until Very Want Were Work Yet Decision Deadline
		Monday Tuesday Wednesday Thursday Friday Saturday Sunday Today Tomorrow Yesterday Talked Said Asked Please
		Don Remind Still Milestone Checked Got Let Digest Reminder Draft Plain Playful Here Done Saved Noted Posted
		Nothing Open Yes Summary Quick Can Use Look Write Check Summarize Compare Pull Collect Starting`) {
		skip[w] = true
	}
	return skip
})

// slugify is ClawVault's slug rule: lower case, drop [^\w\s-], whitespace → '-'.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z':
			b.WriteRune(c)
			dash = false
		case c == '-' || c == ' ' || c == '\t':
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.TrimRight(b.String(), "-")
}
