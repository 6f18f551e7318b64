package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// The vault is laid out as `clawvault init` lays it out, then filled with what months of
// observer runs leave behind: scored observation day files (recent ones in the ledger,
// older ones archived, the oldest in the legacy emoji format), routed category files
// without frontmatter, backlog items, raw ledger lines, weekly reflections, a few
// documents with frontmatter, and the observer's cursor file.

var vaultCategories = []string{"rules", "preferences", "decisions", "patterns", "people", "projects", "goals",
	"transcripts", "inbox", "templates", "lessons", "agents", "commitments", "handoffs", "research", "tasks", "backlog"}

// obsRecord is one observation line.
type obsRecord struct {
	date    string
	at      time.Time
	kind    string
	c, i    float64
	text    string // "[label] role: text", the observer's message form
	key, id string // the session it came from
}

func (r obsRecord) content() string { return hhmm(r.at) + " " + r.text }

// vaultBuilder accumulates the vault's files in memory (≈ VaultBytes of Markdown) and
// writes them at the end.
type vaultBuilder struct {
	g        *generator
	files    map[string]*vaultFile
	md       int64 // Markdown bytes so far
	backlog  map[string]bool
	maxItems int
	weeks    map[string][]obsRecord // ISO week → records of ledger days, for reflections
}

type vaultFile struct {
	data  []byte
	mtime time.Time
}

func (v *vaultBuilder) put(rel string, data []byte, mtime time.Time) {
	if old, ok := v.files[rel]; ok && strings.HasSuffix(rel, ".md") {
		v.md -= int64(len(old.data))
	}
	v.files[rel] = &vaultFile{data, mtime}
	if strings.HasSuffix(rel, ".md") {
		v.md += int64(len(data))
	}
}

func (g *generator) writeVault() error {
	v := &vaultBuilder{g: g, files: map[string]*vaultFile{}, backlog: map[string]bool{}, weeks: map[string][]obsRecord{},
		maxItems: 12 + int(g.opt.VaultBytes/40000)}
	created := g.ago(120 * dayDur)
	v.initLayout(created)
	v.documents()
	v.observations()
	v.reflections()
	v.cursorFile()
	v.extras()
	v.meta(created)

	for _, dir := range vaultCategories {
		if err := os.MkdirAll(filepath.Join(g.vault, dir), 0o755); err != nil {
			return err
		}
	}
	for _, dir := range []string{"ledger/raw", "ledger/observations", "ledger/reflections"} {
		if err := os.MkdirAll(filepath.Join(g.vault, dir), 0o755); err != nil {
			return err
		}
	}
	paths := make([]string, 0, len(v.files))
	for p := range v.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		f := v.files[p]
		if err := writeFile(filepath.Join(g.vault, filepath.FromSlash(p)), f.data, f.mtime); err != nil {
			return err
		}
	}
	return nil
}

// --- init ---

func (v *vaultBuilder) initLayout(at time.Time) {
	var b strings.Builder
	b.WriteString("# vault\n\nLong-term memory for Dana's OpenClaw agents, kept by ClawVault.\n\n## Folders\n")
	for _, c := range vaultCategories {
		b.WriteString("- `" + c + "/`\n")
	}
	b.WriteString("\n## Ledger\n- `ledger/observations/`: what the observer saw, one file per day (UTC)\n- `ledger/raw/`: the messages it read\n- `ledger/reflections/`: weekly summaries\n")
	v.put("README.md", []byte(b.String()), at)
	v.put("inbox/welcome.md", []byte("---\ntitle: \"Welcome\"\ndate: "+day(at)+"\ntype: fact\ntags: [welcome, getting-started]\n---\n\n# Welcome\n\n"+
		"Drop quick notes into inbox/, the observer files the rest. Decisions go to decisions/, people to people/.\n"), at)
	for _, t := range []struct{ name, title, body string }{
		{"checkpoint", "Checkpoint", "## Working on\n\n## Focus\n\n## Blocked\n"},
		{"daily-note", "Daily note", "## Log\n\n## Open\n"},
		{"decision", "Decision", "## Context\n\n## Decision\n\n## Consequences\n"},
		{"handoff", "Handoff", "## Working on\n\n## Next steps\n\n## Open questions\n"},
		{"lesson", "Lesson", "## What happened\n\n## What to do next time\n"},
		{"person", "Person", "## Role\n\n## Notes\n"},
		{"project", "Project", "## Goal\n\n## Milestones\n\n## People\n"},
		{"task", "Task", "## Done when\n\n## Notes\n"},
	} {
		v.put("templates/"+t.name+".md", []byte("---\nprimitive: "+t.name+"\ndescription: "+t.title+" record.\nfields:\n"+
			"  title:\n    type: string\n    required: true\n  date:\n    type: date\n    required: true\n---\n# {{title}}\n\n"+t.body), at)
	}
	for name, filter := range map[string]string{
		"all-tasks":  `    - file.inFolder("tasks")` + "\n" + `    - status != "done"`,
		"backlog":    `    - file.inFolder("backlog")`,
		"blocked":    `    - file.inFolder("tasks")` + "\n" + `    - status == "blocked"`,
		"by-project": `    - file.inFolder("tasks")` + "\n" + `    - project != null`,
	} {
		v.put(name+".base", []byte("filters:\n  and:\n"+filter+"\nviews:\n  - type: table\n    name: "+name+
			"\n    order:\n      - file.name\n      - status\n      - owner\n      - project\n"), at)
	}
}

// --- documents with frontmatter ---

func (v *vaultBuilder) documents() {
	g := v.g
	decided := g.ago(34 * dayDur)
	v.put("decisions/use-postgresql-for-billing.md", []byte("---\ntitle: Use PostgreSQL for billing\ndate: '"+day(decided)+"'\nmemoryType: decision\n---\n"+
		"Chose PostgreSQL over MongoDB for the Northwind billing ledger: transactions across invoices and credit notes, "+
		"JSONB for line items, and we already run it. See [[Northwind]] and [[people/elena]].\n"), decided)
	lesson := g.ago(51 * dayDur)
	v.put("lessons/never-run-migrations-without-a-backup-snapshot.md", []byte("---\ntitle: Never run migrations without a backup snapshot\ndate: '"+day(lesson)+"'\nmemoryType: lesson\n---\n"+
		"A schema migration on staging dropped the credit_notes index and we had no snapshot to compare against. "+
		"Take `pg_dump --format=custom` first, every time.\n"), lesson)
	v.put("projects/northwind.md", []byte("---\ntitle: Northwind\ndate: '"+day(g.ago(90*dayDur))+"'\ntype: project\nstatus: active\nowner: '[[Jonas]]'\n"+
		"tags:\n  - billing\n  - migration\nrelated:\n  - '[[PostgreSQL]]'\n  - '[[decisions/use-postgresql-for-billing]]'\n---\n"+
		"# Northwind\n\nBilling for Northwind: invoices, credit notes, EU VAT. Moving from MongoDB to PostgreSQL; cut-over on "+
		day(g.now.AddDate(0, 0, 5))+" at 14:30 UTC.\n\n## Milestones\n- [x] Billing v2 with proration\n- [x] Dual writes\n- [ ] Cut-over to PostgreSQL\n"), g.ago(3*dayDur))
	v.put("people/marco-bianchi.md", []byte("---\ntitle: Marco Bianchi\ndate: '"+day(g.ago(70*dayDur))+"'\ntype: person\norg: Acme\ntags:\n  - customer\n---\n"+
		"# Marco Bianchi\n\nProcurement at [[Acme]]. Prefers WhatsApp, answers within the hour, negotiates the annual discount every year.\n"), g.ago(9*dayDur))
	ho := g.ago(22*hour + 17*minute)
	v.put("handoffs/handoff-"+ho.Format("2006-01-02-1504")+".md", []byte("---\ntitle: Handoff "+ho.Format("2006-01-02 15:04")+"\ndate: '"+day(ho)+"'\ntype: handoff\n"+
		"workingOn:\n  - Northwind cut-over plan\nblocked:\n  - Access-review evidence from Priya\nnextSteps:\n  - Dry-run the migration on staging\n  - Send the SOC2 questionnaire to Elena\n"+
		"sessionKey: agent:main:main\nfeeling: focused\ndecisions:\n  - Keep the billing schema frozen until the cut-over\nopenQuestions:\n  - Does Acme keep 340 seats at renewal?\n---\n"+
		"# Handoff\n\nPicked up the cut-over plan with [[Jonas]]; the dry-run is next.\n"), ho)
	capAt := g.ago(6*dayDur + 3*hour)
	v.put("inbox/note-"+itoa64(capAt.UnixMilli())+".md", []byte("---\ntitle: Ask Marco about the Acme renewal seats\ndate: '"+day(capAt)+"'\n---\n"+
		"Ask Marco whether Acme's renewal keeps 340 seats or drops to 300.\n"), capAt)
	v.put("tasks/migrate-invoices-to-postgresql.md", []byte("---\ntitle: Migrate invoices to PostgreSQL\nstatus: in-progress\nowner: jonas\nproject: northwind\npriority: high\n"+
		"created: '"+isoMillis(g.ago(20*dayDur))+"'\nupdated: '"+isoMillis(g.ago(2*dayDur))+"'\n---\n# Migrate invoices to PostgreSQL\n\nBackfill, dual writes, cut-over. See [[projects/northwind]].\n"), g.ago(2*dayDur))
	v.put("tasks/finish-soc2-access-review.md", []byte("---\ntitle: Finish the SOC2 access review\nstatus: blocked\nowner: priya\nproject: soc2\npriority: medium\nblocked_by: access-review-evidence\n"+
		"created: '"+isoMillis(g.ago(12*dayDur))+"'\n---\n# Finish the SOC2 access review\n\nWaiting for the Q3 evidence export.\n"), g.ago(12*dayDur))
}

// --- observations ---

// dayPlan says where the day files go by age: the newest 75% of the planned days stay
// in the ledger (many older than the 14-day archive cut), the next 10% were archived,
// the oldest are pre-v2.2 legacy emoji files.
type dayPlan struct{ days, ledger, archive int }

func (v *vaultBuilder) plan() dayPlan {
	days := int(min(max(v.g.opt.VaultBytes/5000, 60), 1100))
	return dayPlan{days: days, ledger: days * 3 / 4, archive: days * 85 / 100}
}

func (v *vaultBuilder) observations() {
	g := v.g
	plan := v.plan()
	// Observations from the sessions the observer has read, on the day each was said.
	fromSessions := map[string][]obsRecord{}
	oldest := 0
	for _, s := range g.observed {
		r := g.rand("observed:" + s.id)
		for _, n := range s.notes {
			c, i := scores(r, n.kind)
			rec := obsRecord{date: day(n.at), at: n.at, kind: n.kind, c: c, i: i,
				text: "[" + s.label + "] " + n.role + ": " + oneLine(n.text), key: s.key, id: s.id}
			fromSessions[rec.date] = append(fromSessions[rec.date], rec)
			oldest = max(oldest, int(startOfDay(g.now).Sub(startOfDay(n.at))/dayDur))
		}
	}
	sources := make([]string, 0, len(g.bySource))
	for label := range g.bySource {
		sources = append(sources, label)
	}
	slices.Sort(sources)
	// Spread the generic observations so that the Markdown budget runs out around the
	// planned number of days: lines per day follow the measured bytes per line.
	bytesPerLine, genericLines, genericBytes := 330.0, 0, int64(0)
	for age := 0; age < 20000; age++ {
		if v.md >= g.opt.VaultBytes && age > oldest {
			break
		}
		date := startOfDay(g.now).AddDate(0, 0, -age)
		recs := fromSessions[day(date)]
		r := g.rand("vault-day:" + day(date))
		before := v.md
		generic := 0
		if v.md < g.opt.VaultBytes && (age < 3 || r.IntN(8) != 0) {
			daysLeft := max(plan.days-age, 1)
			perDay := max(4, int(float64(g.opt.VaultBytes-v.md)/float64(daysLeft)/bytesPerLine*8/7))
			more := v.genericRecords(r, date, perDay/2+r.IntN(perDay+1), sources)
			generic = len(more)
			recs = append(recs, more...)
		}
		if len(recs) > 0 {
			v.addDay(date, age, plan, recs)
		}
		if generic > 0 && len(recs) == generic {
			genericLines += generic
			genericBytes += v.md - before
			bytesPerLine = float64(genericBytes) / float64(genericLines)
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// genericRecords invents n observations for a day from the phrase bank.
func (v *vaultBuilder) genericRecords(r *randSource, date time.Time, n int, sources []string) []obsRecord {
	g := v.g
	newest := g.ago(30 * minute)
	var out []obsRecord
	for range n {
		at := date.Add(8*hour + time.Duration(r.IntN(13*60))*minute + time.Duration(r.IntN(60))*time.Second)
		if at.After(newest) {
			continue
		}
		src := g.bySource[pick(r, sources)]
		role := "user"
		if r.IntN(5) == 0 {
			role = "assistant"
		}
		var rec obsRecord
		if r.IntN(10) == 0 {
			rec = obsRecord{kind: "fact", c: 0.72, i: 0.20, text: pick(r, chatter)}
		} else {
			st := pick(r, statements)
			rec.kind, rec.text = st.kind, render(r, st.tmpl, at)
			rec.c, rec.i = scores(r, st.kind)
		}
		rec.date, rec.at, rec.key, rec.id = day(date), at, src.Key, src.SessionID
		rec.text = "[" + model.SourceLabel(src.Key) + "] " + role + ": " + rec.text
		out = append(out, rec)
	}
	return out
}

var leadingTime = jscompat.LazyRegexp(`^\d{1,2}:\d{2}\s+`)

// normalized is ClawVault's dedup key: lower case, whitespace collapsed, no leading HH:MM.
func normalized(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(leadingTime().ReplaceAllString(s, "")), " "))
}

// addDay writes one day: its observation file, routed category files, backlog items
// and raw ledger lines (ledger days only).
func (v *vaultBuilder) addDay(date time.Time, age int, plan dayPlan, recs []obsRecord) {
	g := v.g
	slices.SortStableFunc(recs, func(a, b obsRecord) int { return a.at.Compare(b.at) })
	seen := map[string]bool{}
	kept := recs[:0:0]
	for _, rec := range recs {
		k := normalized(rec.text)
		if !seen[k] {
			seen[k] = true
			kept = append(kept, rec)
		}
	}
	recs = kept
	ds := day(date)
	// The observer ran in the evening (today: a few minutes after the last message).
	runAt := date.Add(22*hour + 40*minute + time.Duration(g.rand("run:"+ds).IntN(1200))*time.Second)
	if last := recs[len(recs)-1].at.Add(3 * minute); runAt.Before(last) {
		runAt = last
	}
	runAt = earliest(runAt, date.Add(dayDur-time.Second), g.ago(time.Minute))

	legacy := age >= plan.archive
	var b strings.Builder
	b.WriteString("## " + ds + "\n\n")
	for _, rec := range recs {
		if legacy {
			b.WriteString(emojiFor(rec.i) + " " + hhmm(rec.at) + " " + autoLink(stripTag(rec.text)) + "\n")
		} else {
			b.WriteString(scoredLine(rec.kind, rec.c, rec.i, rec.content()) + "\n")
		}
	}
	y, m, d := date.Date()
	switch {
	case age < plan.ledger:
		v.put(fmt.Sprintf("ledger/observations/%04d/%02d/%02d.md", y, m, d), []byte(b.String()), runAt)
		v.raw(date, runAt, recs)
		week := isoWeekKey(date)
		v.weeks[week] = append(v.weeks[week], recs...)
	case !legacy:
		v.put(fmt.Sprintf("ledger/archive/observations/%04d/%02d/%02d.md", y, m, d), []byte(b.String()), runAt)
	default:
		v.put("observations/"+ds+".md", []byte(b.String()), runAt)
	}
	v.route(ds, runAt, recs, legacy, age < plan.ledger)
}

func scoredLine(kind string, c, i float64, content string) string {
	return fmt.Sprintf("- [%s|c=%.2f|i=%.2f] %s", kind, c, i, content)
}

// stripTag drops "[label] role: " for the legacy format, which had neither.
func stripTag(text string) string {
	if _, rest, ok := strings.Cut(text, "] "); ok && strings.HasPrefix(text, "[") {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			return after
		}
	}
	return text
}

var (
	personPatterns = []func() *regexp.Regexp{
		jscompat.LazyRegexp(`(?:talked to|met with|spoke with|chatted with|discussed with|emailed|called|messaged)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)`),
		jscompat.LazyRegexp(`([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:said|asked|told|mentioned|from|at)\b`),
	}
	routeCategory = map[string]string{"decision": "decisions", "preference": "preferences", "fact": "facts",
		"commitment": "commitments", "milestone": "projects", "project": "projects", "lesson": "lessons", "relationship": "people"}
)

// route appends the day's important observations (i ≥ 0.4) to routed category files,
// as ClawVault's router does, and turns open tasks into backlog items.
func (v *vaultBuilder) route(ds string, runAt time.Time, recs []obsRecord, legacy, backlog bool) {
	type routed struct {
		label string
		lines []string
		seen  map[string]bool
	}
	files := map[string]*routed{}
	var order []string
	for _, rec := range recs {
		if rec.i < 0.4 {
			continue
		}
		switch rec.kind {
		case "task", "todo", "commitment-unresolved":
			if backlog {
				v.backlogItem(runAt, rec)
			}
			continue
		}
		cat := routeCategory[rec.kind]
		label := cat
		switch cat {
		case "people":
			for _, p := range personPatterns {
				if m := p().FindStringSubmatch(rec.content()); m != nil {
					label = cat + "/" + toSlug(m[1])
					break
				}
			}
		case "projects":
			if strings.Contains(strings.ToLower(rec.text), "northwind") {
				label = cat + "/northwind"
			}
		}
		f := files[label]
		if f == nil {
			f = &routed{label: label, seen: map[string]bool{}}
			files[label] = f
			order = append(order, label)
		}
		k := normalized(rec.text)
		if f.seen[k] {
			continue
		}
		f.seen[k] = true
		if legacy {
			f.lines = append(f.lines, "- "+emojiFor(rec.i)+" "+hhmm(rec.at)+" "+autoLink(stripTag(rec.text)))
		} else {
			f.lines = append(f.lines, scoredLine(rec.kind, rec.c, rec.i, autoLink(rec.content())))
		}
	}
	for _, label := range order {
		f := files[label]
		v.put(label+"/"+ds+".md", []byte("# "+label+" — "+ds+"\n\n"+strings.Join(f.lines, "\n")+"\n"), runAt)
	}
}

func toSlug(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.Join(strings.Fields(name), "-")) {
		if c == '-' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// backlogItem writes backlog/<slug>.md with the observer's frontmatter.
func (v *vaultBuilder) backlogItem(runAt time.Time, rec obsRecord) {
	title := strings.TrimRight(stripLabel(rec.text), ".")
	slug := slugify(title)
	if len(slug) > 80 {
		slug = strings.TrimRight(slug[:80], "-")
	}
	if v.backlog[slug] || len(v.backlog) >= v.maxItems {
		return
	}
	v.backlog[slug] = true
	body := "---\ncreated: '" + isoMillis(runAt) + "'\nsource: observer\ntags:\n  - open\n  - observer\n  - " + rec.kind + "\n---\n" +
		"# " + title + "\n\n[[observer]]\n\nAuto-extracted by observer from session transcript.\n" +
		"Session: " + rec.key + "\nTranscript: " + rec.id + "\nSource: openclaw\n" +
		"Approximate timestamp: " + rec.at.Format("2006-01-02 15:04") + "\nObservation type: " + rec.kind + "\n" +
		"Original observation: " + rec.content() + "\n"
	v.put("backlog/"+slug+".md", []byte(body), runAt)
}

// stripLabel drops the leading "[label] " (the role prefix stays, as in ClawVault).
func stripLabel(text string) string {
	if strings.HasPrefix(text, "[") {
		if _, rest, ok := strings.Cut(text, "] "); ok {
			return rest
		}
	}
	return text
}

// raw appends the messages behind the day's observations to ledger/raw/openclaw.
func (v *vaultBuilder) raw(date time.Time, runAt time.Time, recs []obsRecord) {
	var b []byte
	for i, rec := range recs {
		at := runAt.Add(-time.Duration(len(recs)-i) * 3 * time.Millisecond)
		b = jsonCompact(b, o("recordedAt", isoMillis(at), "timestamp", isoMillis(at), "source", "openclaw",
			"sessionKey", orNull(rec.key), "transcriptId", orNull(rec.id), "message", rec.text))
		b = append(b, '\n')
	}
	y, m, d := date.Date()
	v.put(fmt.Sprintf("ledger/raw/openclaw/%04d/%02d/%02d.jsonl", y, m, d), b, runAt)
}

// --- reflections ---

func isoWeekKey(t time.Time) string {
	y, w := t.ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, w)
}

var (
	openLoopRE = jscompat.LazyRegexp(`(?i)\b(open loop|todo|follow[- ]?up|blocked|pending|unresolved|still need)\b`)
	changeRE   = jscompat.LazyRegexp(`(?i)\b(changed?|shift(?:ed)?|switched|moved|instead|no longer|pivot(?:ed)?)\b`)
)

// reflections writes ledger/reflections/YYYY-Www.md for the most recent complete weeks
// (3 in the base demo, more in bigger vaults), in ClawVault's section layout.
func (v *vaultBuilder) reflections() {
	g := v.g
	current := isoWeekKey(g.now)
	var weeks []string
	for w := range v.weeks {
		if w < current {
			weeks = append(weeks, w)
		}
	}
	slices.Sort(weeks)
	limit := min(52, 3+int(g.opt.VaultBytes/(1000*kib)))
	if len(weeks) > limit {
		weeks = weeks[len(weeks)-limit:]
	}
	for _, w := range weeks {
		type item struct {
			rec   obsRecord
			dates map[string]bool
		}
		byKey := map[string]*item{}
		var keys []string
		for _, rec := range v.weeks[w] {
			k := normalized(rec.text)
			it := byKey[k]
			if it == nil {
				it = &item{rec, map[string]bool{}}
				byKey[k] = it
				keys = append(keys, k)
			}
			it.dates[rec.date] = true
			if rec.i > it.rec.i {
				it.rec = rec
			}
		}
		sections := map[string][]string{}
		citations := map[string]bool{}
		for _, k := range keys {
			it := byKey[k]
			if it.rec.i < 0.8 && !(it.rec.i >= 0.4 && len(it.dates) >= 2) {
				continue
			}
			section := "Stable Patterns"
			switch {
			case openLoopRE().MatchString(it.rec.content()):
				section = "Open Loops"
			case it.rec.kind == "decision" || it.rec.kind == "commitment" || it.rec.kind == "milestone":
				section = "Key Decisions"
			case changeRE().MatchString(it.rec.content()):
				section = "Changes"
			}
			sections[section] = append(sections[section], fmt.Sprintf("[%s|c=%.2f|i=%.2f] %s", it.rec.kind, it.rec.c, it.rec.i, it.rec.content()))
			for d := range it.dates {
				citations["ledger/observations/"+strings.ReplaceAll(d, "-", "/")+".md"] = true
			}
		}
		cites := make([]string, 0, len(citations))
		for c := range citations {
			cites = append(cites, c)
		}
		slices.Sort(cites)
		sections["Citations"] = cites
		monday := isoMonday(w)
		var b strings.Builder
		_, wk := monday.ISOWeek()
		fmt.Fprintf(&b, "# Week %d, %d (%s-%s)\n", wk, monday.Year(), monday.Format("Jan 2"), monday.AddDate(0, 0, 6).Format("Jan 2"))
		for _, name := range []string{"Stable Patterns", "Key Decisions", "Open Loops", "Changes", "Citations"} {
			b.WriteString("\n## " + name + "\n")
			for _, line := range sections[name] {
				b.WriteString("- " + line + "\n")
			}
		}
		at := earliest(monday.AddDate(0, 0, 7).Add(3*hour+17*minute), g.ago(time.Minute))
		v.put("ledger/reflections/"+w+".md", []byte(strings.TrimSpace(b.String())+"\n"), at)
	}
}

// isoMonday returns the Monday of an ISO week key.
func isoMonday(key string) time.Time {
	var y, w int
	fmt.Sscanf(key, "%d-W%d", &y, &w)
	t := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC) // always in ISO week 1
	t = t.AddDate(0, 0, -(int(t.Weekday())+6)%7)
	return t.AddDate(0, 0, 7*(w-1))
}

// --- .clawvault/ ---

// cursorFile writes observe-cursors.json as ClawVault saves it: JSON.stringify(store,
// null, 2) + "\n", entries in the order they were first created.
func (v *vaultBuilder) cursorFile() {
	cursors := slices.Clone(v.g.cursors)
	slices.SortStableFunc(cursors, func(a, b cursorEntry) int { return a.at.Compare(b.at) })
	store := obj{}
	var mtime time.Time
	for _, c := range cursors {
		store = append(store, kv{c.id, o("lastObservedOffset", c.offset, "lastObservedAt", isoMillis(c.at),
			"sessionKey", c.key, "lastFileSize", c.fileSize)})
		mtime = latest(mtime, c.at)
	}
	v.put(".clawvault/observe-cursors.json", append(jsonIndent2(nil, store), '\n'), mtime)
}

func (v *vaultBuilder) extras() {
	g := v.g
	cp := g.ago(22*hour + 17*minute)
	v.put(".clawvault/last-checkpoint.json", append(jsonIndent2(nil, o("timestamp", isoMillis(cp), "workingOn", "Northwind cut-over plan",
		"focus", "dry-run on staging", "blocked", "access-review evidence", "urgent", false,
		"sessionId", g.man.MainNeverObserved.SessionID, "sessionKey", "agent:main:main", "model", "anthropic/claude-sonnet-4-6",
		"tokenEstimate", 141200, "sessionStartedAt", isoMillis(g.ago(41*dayDur+3*hour)))), '\n'), cp)
	var facts []byte
	for i, f := range []struct{ entity, relation, value, cat, raw string }{
		{"Northwind", "uses_database", "PostgreSQL", "decisions", "We decided to use PostgreSQL instead of MongoDB for the Northwind billing service."},
		{"Acme", "has_seats", "340", "facts", "Acme has 340 seats on the Business plan."},
		{"Elena Vasquez", "works_at", "Northwind", "people", "Talked to Elena from Northwind about the invoice backlog."},
		{"Telegram bot", "version", "v0.3", "projects", "Shipped the Telegram bot v0.3 to staging."},
	} {
		at := g.ago(time.Duration(30-7*i) * dayDur)
		facts = jsonCompact(facts, o("id", uuid4(g.rand("fact:"+f.entity)), "entity", f.entity, "entityNorm", strings.ToLower(f.entity),
			"relation", f.relation, "value", f.value, "validFrom", isoMillis(at), "validUntil", nil, "confidence", 0.85,
			"category", f.cat, "source", "observer", "rawText", f.raw))
		facts = append(facts, '\n')
	}
	v.put(".clawvault/facts.jsonl", facts, g.ago(9*dayDur))
	v.graphIndex()
}

// graphIndex writes .clawvault/graph-index.json over the non-ledger notes: note and tag
// nodes, tag edges and wiki-link edges between existing notes.
func (v *vaultBuilder) graphIndex() {
	g := v.g
	var paths []string
	for p := range v.files {
		if strings.HasSuffix(p, ".md") && !strings.HasPrefix(p, "ledger/") && !strings.HasPrefix(p, "observations/") && !strings.HasPrefix(p, ".") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	exists := map[string]bool{}
	for _, p := range paths {
		exists[strings.TrimSuffix(p, ".md")] = true
	}
	wiki := regexp.MustCompile(`\[\[([^\]|#]+)`)
	var nodes, edges []any
	tagNodes := map[string]bool{}
	degree := map[string]int{}
	var es []graphEdge
	for _, p := range paths {
		id := strings.TrimSuffix(p, ".md")
		body := string(v.files[p].data)
		for _, tag := range frontmatterTags(body) {
			es = append(es, graphEdge{"tag:note:" + id + "->tag:" + tag, "note:" + id, "tag:" + tag, "tag"})
			tagNodes[tag] = true
		}
		for _, m := range wiki.FindAllStringSubmatch(body, -1) {
			if target := strings.TrimSpace(m[1]); exists[target] && target != id {
				es = append(es, graphEdge{"wiki_link:note:" + id + "->note:" + target, "note:" + id, "note:" + target, "wiki_link"})
			}
		}
	}
	for _, e := range es {
		degree[e.src]++
		degree[e.dst]++
		edges = append(edges, o("id", e.id, "source", e.src, "target", e.dst, "type", e.typ))
	}
	for _, p := range paths {
		id := "note:" + strings.TrimSuffix(p, ".md")
		nodes = append(nodes, o("id", id, "title", titleOf(p, string(v.files[p].data)), "type", "note", "category", "note",
			"path", p, "tags", frontmatterTags(string(v.files[p].data)), "missing", false, "degree", degree[id],
			"modifiedAt", isoMillis(v.files[p].mtime)))
	}
	tags := make([]string, 0, len(tagNodes))
	for t := range tagNodes {
		tags = append(tags, t)
	}
	slices.Sort(tags)
	for _, t := range tags {
		nodes = append(nodes, o("id", "tag:"+t, "title", "#"+t, "type", "tag", "category", "tag", "path", nil,
			"tags", []string{}, "missing", false, "degree", degree["tag:"+t], "modifiedAt", nil))
	}
	at := g.ago(20 * minute)
	if nodes == nil {
		nodes = []any{}
	}
	if edges == nil {
		edges = []any{}
	}
	index := o("schemaVersion", 1, "vaultPath", g.vault, "generatedAt", isoMillis(at), "graph", o(
		"schemaVersion", 1, "nodes", nodes, "edges", edges, "stats", o("generatedAt", isoMillis(at),
			"nodeCount", len(nodes), "edgeCount", len(edges),
			"nodeTypeCounts", o("note", len(paths), "tag", len(tags)), "edgeTypeCounts", edgeCounts(es))))
	v.put(".clawvault/graph-index.json", jsonIndent2(nil, index), at)
}

type graphEdge struct{ id, src, dst, typ string }

func edgeCounts(es []graphEdge) obj {
	out := obj{}
	for _, e := range es {
		n, _ := out.get(e.typ).(int)
		out = out.set(e.typ, n+1)
	}
	return out
}

// frontmatterTags reads `tags: [a, b]` or a `tags:` block list from a note's frontmatter.
func frontmatterTags(body string) []string {
	tags := []string{}
	if !strings.HasPrefix(body, "---\n") {
		return tags
	}
	fm, _, _ := strings.Cut(body[4:], "\n---")
	lines := strings.Split(fm, "\n")
	for i, l := range lines {
		if v, ok := strings.CutPrefix(l, "tags:"); ok {
			v = strings.TrimSpace(v)
			if strings.HasPrefix(v, "[") {
				for _, t := range strings.Split(strings.Trim(v, "[]"), ",") {
					tags = append(tags, strings.TrimSpace(t))
				}
				return tags
			}
			for _, l := range lines[i+1:] {
				t, ok := strings.CutPrefix(l, "  - ")
				if !ok {
					break
				}
				tags = append(tags, t)
			}
		}
	}
	return tags
}

func titleOf(path, body string) string {
	if strings.HasPrefix(body, "---\n") {
		fm, _, _ := strings.Cut(body[4:], "\n---")
		for _, l := range strings.Split(fm, "\n") {
			if t, ok := strings.CutPrefix(l, "title: "); ok {
				return strings.Trim(t, `"'`)
			}
		}
	}
	return strings.TrimSuffix(filepath.Base(path), ".md")
}

// meta writes .clawvault.json as ClawVault rewrites it on every load (no trailing newline).
func (v *vaultBuilder) meta(created time.Time) {
	g := v.g
	docs := 0
	var last time.Time
	for p, f := range v.files {
		if strings.HasSuffix(p, ".md") && !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "ledger/archive/") {
			docs++
		}
		last = latest(last, f.mtime)
	}
	name := filepath.Base(g.vault)
	v.put(".clawvault.json", jsonIndent2(nil, o("name", name, "version", "1.0.0", "created", isoMillis(created),
		"lastUpdated", isoMillis(last), "categories", vaultCategories, "documentCount", docs,
		"qmdCollection", name, "qmdRoot", g.vault, "search", o("backend", "in-process", "qmdFallback", true))), last)
}
