package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// convo writes a believable OpenClaw conversation into a transcript: user turns built
// from the phrase bank, assistant turns with thinking, tool calls and results, usage
// and cost that grow with the context, memory flushes and compactions, until a byte
// budget is reached. Pacing spreads the turns evenly between the start and end times.
type convo struct {
	t        *transcript
	r        *rand.Rand
	m        modelSpec
	thinking bool
	cwd      string
	speakers []string // group chats: who talks; "" entries = the operator
	mix      turnMix
	bigBytes int   // typical size of a large tool output
	compact  int64 // compact after this many bytes since the last compaction; 0 = never
	flush    flushPolicy
	beat     bool // heartbeat session: every turn is a heartbeat poll
	noCustom bool // v1/v2 files: no custom entries
	// beforeCompaction runs right before a compaction entry is written (checkpoints).
	beforeCompaction func(c *convo)

	ctx, pending int     // tokens in the prompt prefix, and added since the last call
	tpb          float64 // prompt tokens per transcript byte
	compactBase  int64   // t.size right after the last compaction
	lastCall     time.Time
	lastStop     string // stop reason of the last model call ("toolUse" while tools run)
	gap          time.Duration

	keep          []keptRef // recent user messages since the last compaction (firstKeptEntryId candidates)
	afterCompact  string    // first user message after the last compaction
	readFiles     []string
	modifiedFiles []string
	progress      []string

	stats sessionStats
	notes []note
	turns int
	marks []mark // line boundaries scripts chose for cursors
}

type turnMix struct{ chat, tool, note, big float64 }

var (
	mixDefault = turnMix{chat: 0.45, tool: 0.30, note: 0.25}
	mixWorkday = turnMix{chat: 0.25, tool: 0.35, note: 0.15, big: 0.25} // the long main session
	mixGroup   = turnMix{chat: 0.65, tool: 0.15, note: 0.20}
)

type flushPolicy int

const (
	flushEveryCompaction flushPolicy = iota
	flushFirstOnly                   // later flushes silently fail: the FlushSkipped case
)

// sessionStats is what sessions.json remembers about the run.
type sessionStats struct {
	lastCall                   usage
	runInput, runOutput        int
	cost                       float64
	compactions                int
	compactionIDs              []string
	firstKept                  []string
	memoryFlushAt              time.Time
	memoryFlushCompactionCount int
	lastTokensBefore           int
}

// note is an observable sentence and where it ends in the file.
type note struct {
	at   time.Time
	role string
	kind string
	text string
	end  int64
}

// keptRef locates a user message: its id (v2+) and its index in the file (v1).
type keptRef struct {
	id    string
	index int
}

// mark is a line boundary and the time of the line before it (cursor material).
type mark struct {
	offset int64
	at     time.Time
}

const systemPromptTokens = 17800

func newConvo(t *transcript, r *rand.Rand, m modelSpec, cwd string) *convo {
	return &convo{t: t, r: r, m: m, cwd: cwd, thinking: m.provider == "anthropic", mix: mixDefault,
		bigBytes: 8 * kib, ctx: systemPromptTokens, tpb: 0.25}
}

// setCompaction makes the convo compact every `every` bytes, with token counts scaled so
// that each compaction happens near the model window, as it would in real life.
func (c *convo) setCompaction(every int64) {
	c.compact = every
	if every > 0 {
		c.tpb = (0.86*float64(c.m.window) - systemPromptTokens - 9000) / float64(every)
	}
}

// open writes the header and the entries OpenClaw writes when a session starts.
func (c *convo) open(version int, id, parentSession, thinkingLevel string) {
	c.afterCompact = ""
	c.t.header(version, id, c.cwd, parentSession)
	c.t.tick(between(c.r, 90*time.Millisecond, 220*time.Millisecond))
	c.t.entry("model_change", "provider", c.m.provider, "modelId", c.m.id)
	c.t.tick(time.Millisecond)
	c.t.entry("thinking_level_change", "thinkingLevel", thinkingLevel)
	if version < 3 {
		return
	}
	c.t.tick(2 * time.Millisecond)
	c.t.custom("model-snapshot", o("timestamp", c.t.at.UnixMilli(), "provider", c.m.provider,
		"modelApi", c.m.api, "modelId", c.m.id))
}

// runUntil writes turns until the file reaches target bytes, pacing them to end near end.
func (c *convo) runUntil(target int64, end time.Time) {
	fromSize, fromTurns := c.t.size, c.turns
	for c.t.size < target && !c.t.stopped() {
		avg := int64(2500)
		if c.turns > fromTurns {
			avg = (c.t.size - fromSize) / int64(c.turns-fromTurns)
		}
		left := float64(target-c.t.size) / float64(max(avg, 1))
		c.gap = time.Duration(float64(end.Sub(c.t.at)) / (left + 0.5))
		if c.gap < 2*time.Second {
			c.gap = 2 * time.Second
		}
		if left <= 1 && end.Sub(c.t.at) > 4*minute {
			// Probably the phase's last turn: start it shortly before the phase ends, so
			// that phase ends (and the cursors placed there) land where they were planned.
			c.t.tick(end.Sub(c.t.at) - between(c.r, time.Minute, 3*minute))
		} else {
			c.t.tick(time.Duration(float64(c.gap) * (0.4 + 1.2*c.r.Float64())))
		}
		c.turn()
		if len(c.progress) > 12 {
			c.progress = c.progress[len(c.progress)-12:]
		}
		c.turns++
		if c.compact > 0 && c.t.size-c.compactBase >= c.compact {
			c.compactNow()
		}
	}
}

// delay is an intra-turn pause, shrunk when turns are packed densely.
func (c *convo) delay(lo, hi time.Duration) time.Duration {
	d := between(c.r, lo, hi)
	if c.gap > 0 && d > c.gap/6 {
		d = c.gap / 6
	}
	return d
}

func (c *convo) turn() {
	if c.beat {
		c.heartbeatTurn()
		return
	}
	x := c.r.Float64() * (c.mix.chat + c.mix.tool + c.mix.note + c.mix.big)
	switch {
	case x < c.mix.chat:
		c.chatTurn()
	case x < c.mix.chat+c.mix.tool:
		c.toolTurn(false)
	case x < c.mix.chat+c.mix.tool+c.mix.note:
		c.noteTurn()
	default:
		c.toolTurn(true)
	}
}

// --- primitives ---

func (c *convo) grow(before int64) { c.pending += int(float64(c.t.size-before) * c.tpb) }

func (c *convo) speaker() string {
	if len(c.speakers) == 0 {
		return ""
	}
	return pick(c.r, c.speakers)
}

// user appends a user message; half of them use a text-block array, as channels do.
func (c *convo) user(text string) string {
	before := c.t.size
	var content any = text
	if chance(c.r, 0.5) {
		content = []any{textBlock(text)}
	}
	index := c.t.lines
	id := c.t.message(userMessage(content, c.t.at.Add(-between(c.r, 40*time.Millisecond, 300*time.Millisecond))))
	c.grow(before)
	if len(c.keep) == 8 {
		c.keep = append(c.keep[:0], c.keep[1:]...)
	}
	c.keep = append(c.keep, keptRef{id, index})
	if c.afterCompact == "" {
		c.afterCompact = id
	}
	c.stats.runInput, c.stats.runOutput = 0, 0
	return id
}

// say builds a user text from an optional statement (recorded as a note) and an ask.
func (c *convo) say(st *statement, ask string) string {
	var parts []string
	who := c.speaker()
	if who != "" {
		parts = append(parts, who+":")
	}
	var stText string
	if st != nil {
		stText = render(c.r, st.tmpl, c.t.at)
		parts = append(parts, stText)
	}
	if ask != "" {
		parts = append(parts, render(c.r, ask, c.t.at))
	}
	text := strings.Join(parts, " ")
	c.user(text)
	if st != nil {
		c.notes = append(c.notes, note{c.t.last, "user", st.kind, text, c.t.size})
	}
	return text
}

// callUsage prices one model call: the cached prefix is read, new tokens are written to
// the cache (Anthropic) or billed as input (OpenAI); after an hour the cache is cold.
func (c *convo) callUsage(start time.Time, outTokens int) usage {
	prefix, fresh := c.ctx, c.pending
	if c.lastCall.IsZero() || start.Sub(c.lastCall) > time.Hour {
		prefix, fresh = 0, c.ctx+c.pending
	}
	var u usage
	if c.m.provider == "anthropic" {
		u = usage{input: 3 + c.r.IntN(40), output: outTokens, cacheRead: prefix, cacheWrite: fresh}
	} else {
		u = usage{input: fresh + 3, output: outTokens, cacheRead: prefix}
	}
	c.ctx += c.pending + outTokens
	c.pending = 0
	c.lastCall = start
	c.stats.lastCall = u
	c.stats.runInput += u.input
	c.stats.runOutput += u.output
	_, _, _, _, total := u.cost(c.m)
	c.stats.cost += total
	return u
}

// assistant appends one model response; the message timestamp is the request start.
func (c *convo) assistant(content []any, outChars int, stop string) string {
	start := c.t.at
	c.t.tick(c.delay(time.Duration(1200+outChars*4)*time.Millisecond, time.Duration(4000+outChars*12)*time.Millisecond))
	u := c.callUsage(start, outChars/4+8+c.r.IntN(30))
	respID := ""
	if c.m.provider == "anthropic" {
		respID = responseID(c.r)
	}
	id := c.t.message(assistantMessage(content, c.m, respID, u, stop, "", start))
	c.lastStop = stop
	if stop == "stop" && !c.noCustom && chance(c.r, 0.12) { // after a run, never mid-tool-call
		c.t.tick(3 * time.Millisecond)
		c.t.custom("openclaw.cache-ttl", o("timestamp", c.t.at.UnixMilli(), "provider", c.m.provider, "modelId", c.m.id))
	}
	return id // the message, even when a cache-ttl entry followed it
}

func (c *convo) thought(kind string) []any {
	if !c.thinking {
		return nil
	}
	return []any{thinkingBlock(pick(c.r, thoughts[kind]), signature(c.r, 96+c.r.IntN(160)))}
}

// reply closes a turn with text; sometimes the assistant adds a lesson of its own.
// It returns the assistant message's id.
func (c *convo) reply(text string) string {
	text = render(c.r, text, c.t.at)
	var lesson *statement
	if chance(c.r, 0.08) {
		st := pick(c.r, statementsOf("lesson"))
		lesson = &st
		text += "\n\n" + st.tmpl
	}
	var blocks []any
	if c.lastStop != "toolUse" { // after tool results the model answers without thinking again
		blocks = c.thought("chat")
	}
	blocks = append(blocks, textBlock(text))
	id := c.assistant(blocks, len(text), "stop")
	if lesson != nil {
		c.notes = append(c.notes, note{c.t.last, "assistant", "lesson", lesson.tmpl, c.t.size})
	}
	return id
}

// useTool writes the assistant's tool call and the tool's result.
func (c *convo) useTool(u toolUse, withThought bool) {
	var blocks []any
	if withThought {
		kind := "tool"
		if u.modified != "" {
			kind = "note"
		}
		blocks = c.thought(kind)
	}
	callID := toolCallID(c.r, c.m.provider)
	blocks = append(blocks, toolCallBlock(callID, u.name, u.args))
	c.assistant(blocks, 60+len(u.name)*4, "toolUse")
	c.t.tick(c.delay(150*time.Millisecond, 2500*time.Millisecond))
	before := c.t.size
	c.t.message(toolResultMessage(callID, u.name, u.result, u.details, u.isError, c.t.at))
	c.grow(before)
	c.lastStop = "toolUse"
	if u.read != "" && !slices.Contains(c.readFiles, u.read) {
		c.readFiles = append(c.readFiles, u.read)
	}
	if u.modified != "" && !slices.Contains(c.modifiedFiles, u.modified) {
		c.modifiedFiles = append(c.modifiedFiles, u.modified)
	}
	c.t.tick(c.delay(200*time.Millisecond, 900*time.Millisecond))
}

// --- turns ---

func (c *convo) chatTurn() {
	switch x := c.r.Float64(); {
	case x < 0.15:
		c.say(nil, pick(c.r, chatter))
		c.t.tick(c.delay(200*time.Millisecond, 800*time.Millisecond))
		c.reply(pick(c.r, acks))
	case x < 0.55:
		st := pick(c.r, statements)
		c.say(&st, pick(c.r, []string{"", "What do you think?", "Keep that in mind."}))
		c.t.tick(c.delay(200*time.Millisecond, 800*time.Millisecond))
		c.reply(pick(c.r, acks))
	default:
		ex := pick(c.r, exchanges)
		c.say(nil, ex.ask)
		c.t.tick(c.delay(200*time.Millisecond, 800*time.Millisecond))
		c.reply(ex.reply)
	}
	c.progress = append(c.progress, "Answered a question about "+pick(c.r, projects))
}

func (c *convo) toolTurn(big bool) {
	ex := pick(c.r, exchanges)
	var st *statement
	if chance(c.r, 0.3) {
		s := pick(c.r, statements)
		st = &s
	}
	c.say(st, ex.ask)
	c.t.tick(c.delay(200*time.Millisecond, 800*time.Millisecond))
	if big {
		c.useTool(c.bigTool(), true)
	}
	c.useTool(c.tool(ex.tool), !big)
	if chance(c.r, 0.25) {
		c.useTool(c.tool(pick(c.r, []string{"memory", "search", "memory-file"})), false)
	}
	c.reply(ex.reply)
	c.progress = append(c.progress, "Checked "+pick(c.r, projects)+" with "+ex.tool+" tools")
}

func (c *convo) noteTurn() {
	st := pick(c.r, statements)
	c.say(&st, pick(c.r, []string{"", "Please remember that.", "Write that down.", "Add it to today's notes."}))
	c.t.tick(c.delay(200*time.Millisecond, 800*time.Millisecond))
	path := "memory/" + day(c.t.at) + ".md"
	if chance(c.r, 0.7) {
		line := "- " + hhmm(c.t.at) + " " + render(c.r, st.tmpl, c.t.at)
		c.useTool(toolUse{name: "edit", args: o("path", path, "oldText", "## Log\n", "newText", "## Log\n"+line+"\n"),
			result: "Successfully replaced text in " + path + ".", details: undef, modified: path}, true)
	} else {
		content := "# " + day(c.t.at) + "\n\n## Log\n- " + hhmm(c.t.at) + " " + render(c.r, st.tmpl, c.t.at) + "\n"
		c.useTool(toolUse{name: "write", args: o("path", path, "content", content),
			result: fmt.Sprintf("Successfully wrote %d bytes to %s", len(content), path), details: undef, modified: path}, true)
	}
	c.reply(pick(c.r, []string{"Noted, saved to memory/{d+0}.md.", "Saved. I'll bring it up when it matters.", "Got it, it's in today's notes."}))
	c.progress = append(c.progress, "Saved a "+st.kind+" to memory/"+day(c.t.at)+".md")
}

// heartbeatPrompt is our wording of the poll OpenClaw's heartbeat runner sends.
const heartbeatPrompt = "Heartbeat poll: read HEARTBEAT.md if it exists and follow it. Do not repeat old tasks from earlier chats. If nothing needs attention, reply HEARTBEAT_OK."

func (c *convo) heartbeatTurn() {
	c.user(heartbeatPrompt)
	c.t.tick(c.delay(100*time.Millisecond, 400*time.Millisecond))
	switch x := c.r.Float64(); {
	case x < 0.04:
		c.useTool(toolUse{name: "read", args: o("path", "HEARTBEAT.md"), result: heartbeatFile, details: undef, read: "HEARTBEAT.md"}, false)
		c.assistant([]any{textBlock("HEARTBEAT_OK")}, 12, "stop")
	case x < 0.05:
		// A rare heartbeat that finds something to say, and OpenClaw's mirror of the delivery.
		st := pick(c.r, statementsOf("todo"))
		text := "Reminder: " + render(c.r, st.tmpl, c.t.at)
		c.assistant([]any{textBlock(text)}, len(text), "stop")
		c.notes = append(c.notes, note{c.t.last, "assistant", st.kind, text, c.t.size})
		c.t.tick(c.delay(300*time.Millisecond, 900*time.Millisecond))
		c.mirror(text)
	case x < 0.09:
		c.assistant([]any{textBlock("NO_REPLY")}, 8, "stop")
	default:
		c.assistant([]any{textBlock("HEARTBEAT_OK")}, 12, "stop")
	}
}

// mirror appends OpenClaw's delivery-mirror bookkeeping row: zero usage, not a model call.
func (c *convo) mirror(text string) {
	c.t.message(assistantMessage([]any{textBlock(text)}, deliveryMirror, "", usage{}, "stop", "", c.t.at))
}

// aborted appends an assistant turn the user cancelled: no content, zero usage.
func (c *convo) aborted() {
	c.say(nil, pick(c.r, exchanges).ask)
	start := c.t.at
	c.t.tick(c.delay(800*time.Millisecond, 3*time.Second))
	c.t.message(assistantMessage(nil, c.m, "", usage{}, "aborted", "Request was aborted.", start))
}

// flushMemory writes OpenClaw's pre-compaction memory flush turn.
func (c *convo) flushMemory() {
	path := "memory/" + day(c.t.at) + ".md"
	c.user("Memory flush before compaction: write anything worth keeping to " + path + " now. Reply NO_REPLY when done.")
	c.t.tick(c.delay(200*time.Millisecond, 800*time.Millisecond))
	st := pick(c.r, statements)
	line := "- " + hhmm(c.t.at) + " " + render(c.r, st.tmpl, c.t.at)
	c.useTool(toolUse{name: "edit", args: o("path", path, "oldText", "## Log\n", "newText", "## Log\n"+line+"\n"),
		result: "Successfully replaced text in " + path + ".", details: undef, modified: path}, true)
	c.assistant([]any{textBlock("NO_REPLY")}, 8, "stop")
	c.stats.memoryFlushAt = c.t.last
}

// compactNow writes a compaction: pi keeps the recent turns (from firstKeptEntryId, an
// entry of the active path after the previous compaction) and summarizes the rest.
func (c *convo) compactNow() {
	if c.flush == flushEveryCompaction || c.stats.compactions == 0 {
		c.flushMemory()
		c.stats.memoryFlushCompactionCount = c.stats.compactions + 1
	}
	kept := keptRef{id: c.afterCompact}
	if n := len(c.keep); n >= 3 {
		kept = c.keep[n-2]
	} else if n > 0 {
		kept = c.keep[n-1]
	}
	c.t.tick(c.delay(20*time.Second, 70*time.Second))
	tokensBefore := c.ctx + c.pending
	readFiles, modifiedFiles := c.readFiles, c.modifiedFiles
	if readFiles == nil {
		readFiles = []string{}
	}
	if modifiedFiles == nil {
		modifiedFiles = []string{}
	}
	if c.beforeCompaction != nil {
		c.beforeCompaction(c)
	}
	var id string
	if c.t.v1 {
		// v1 named the first kept entry by its index in the file (0 = header).
		c.t.entry("compaction", "summary", c.summary(), "firstKeptEntryIndex", kept.index, "tokensBefore", tokensBefore)
	} else {
		id = c.t.entry("compaction", "summary", c.summary(), "firstKeptEntryId", kept.id, "tokensBefore", tokensBefore,
			"details", o("readFiles", readFiles, "modifiedFiles", modifiedFiles))
	}
	c.stats.compactions++
	c.stats.compactionIDs = append(c.stats.compactionIDs, id)
	c.stats.firstKept = append(c.stats.firstKept, kept.id)
	c.stats.lastTokensBefore = tokensBefore
	c.ctx = systemPromptTokens + 2500 + c.r.IntN(9000)
	c.pending = 0
	c.lastCall = time.Time{}
	c.compactBase = c.t.size
	c.keep, c.readFiles, c.modifiedFiles, c.progress = nil, nil, nil, nil
	c.afterCompact = ""
}

// summary has the shape of pi's compaction summaries (Goal, Progress, Key Decisions …).
func (c *convo) summary() string {
	var b strings.Builder
	b.WriteString("## Goal\n")
	b.WriteString("Keep " + pick(c.r, projects) + " and " + pick(c.r, projects) + " moving; answer the operator's questions with data.\n\n")
	b.WriteString("## Constraints & Preferences\n- " + render(c.r, pick(c.r, statementsOf("preference")).tmpl, c.t.at) + "\n\n")
	b.WriteString("## Progress\n### Done\n")
	done := c.progress
	if len(done) > 6 {
		done = done[len(done)-6:]
	}
	for _, p := range done {
		b.WriteString("- [x] " + p + "\n")
	}
	b.WriteString("\n### In Progress\n- [ ] " + render(c.r, pick(c.r, statementsOf("todo")).tmpl, c.t.at) + "\n\n")
	b.WriteString("### Blocked\n- " + pick(c.r, []string{"(none)", "Waiting on Priya for access-review evidence", "Acme legal has not signed the DPA"}) + "\n\n")
	b.WriteString("## Key Decisions\n- **" + render(c.r, pick(c.r, statementsOf("decision")).tmpl, c.t.at) + "**\n\n")
	b.WriteString("## Next Steps\n1. " + render(c.r, pick(c.r, statementsOf("task")).tmpl, c.t.at) + "\n\n")
	b.WriteString("## Critical Context\n- " + render(c.r, pick(c.r, statementsOf("fact")).tmpl, c.t.at))
	if len(c.readFiles) > 0 {
		b.WriteString("\n\n<read-files>\n" + strings.Join(c.readFiles, "\n") + "\n</read-files>")
	}
	if len(c.modifiedFiles) > 0 {
		b.WriteString("\n\n<modified-files>\n" + strings.Join(c.modifiedFiles, "\n") + "\n</modified-files>")
	}
	return b.String()
}

// --- tools ---

// toolUse is one tool call and its result.
type toolUse struct {
	name           string
	args           obj
	result         string
	details        any // undef when the tool reports none
	isError        bool
	read, modified string
}

func execDetails(r *rand.Rand, cwd string, exit int) obj {
	status := "completed"
	if exit != 0 {
		status = "failed"
	}
	return o("status", status, "exitCode", exit, "durationMs", 40+r.IntN(2400), "cwd", cwd)
}

// bigTool reads something large: a log tail, an export, a webhook log.
func (c *convo) bigTool() toolUse {
	r, at := c.r, c.t.at
	size := c.bigBytes/3 + r.IntN(c.bigBytes*2)
	switch r.IntN(3) {
	case 0:
		cmd := "tail -n " + strconv.Itoa(size/130+1) + " /var/log/northwind-billing/worker.log"
		return toolUse{name: "exec", args: o("command", cmd), result: workerLog(r, at, size), details: execDetails(r, c.cwd, 0)}
	case 1:
		path := "exports/northwind-invoices-" + day(at.AddDate(0, 0, -1)) + ".csv"
		return toolUse{name: "read", args: o("path", path), result: invoiceCSV(r, at, size), details: undef, read: path}
	default:
		path := "~/src/telegram-bot/logs/webhook-" + day(at) + ".log"
		return toolUse{name: "read", args: o("path", path), result: webhookLog(r, at, size), details: undef, read: path}
	}
}

// tool makes the call an exchange needs, with a plausible result.
func (c *convo) tool(kind string) toolUse {
	r, at := c.r, c.t.at
	switch kind {
	case "log":
		cmd := "journalctl -u northwind-billing --since '" + hhmm(at.Add(-3*time.Hour)) + "' -p warning --no-pager"
		return toolUse{name: "exec", args: o("command", cmd), result: workerLog(r, at, 600+r.IntN(1500)), details: execDetails(r, c.cwd, 0)}
	case "memory":
		date := at.AddDate(0, 0, -1-r.IntN(5))
		path := "memory/" + day(date) + ".md"
		return toolUse{name: "memory_get", args: o("path", path), result: dailyNoteText(r, date), details: undef, read: path}
	case "search":
		q := strings.ToLower(pick(r, projects))
		return toolUse{name: "memory_search", args: o("query", q, "maxResults", 5), result: memorySearchResult(r, at, q), details: undef}
	case "git":
		cmd := "git -C ~/src/northwind-billing log --oneline --since=" + day(at.AddDate(0, 0, -2))
		return toolUse{name: "exec", args: o("command", cmd), result: gitLog(r, 4+r.IntN(6)), details: execDetails(r, c.cwd, 0)}
	case "db":
		cmd := `psql "$BILLING_DB_URL" -c "select status, count(*) from invoices where created_at > now() - interval '1 day' group by 1 order by 1"`
		if chance(r, 0.1) {
			return toolUse{name: "exec", args: o("command", cmd), result: "psql: error: connection to server at \"10.0.4.12\", port 5432 failed: timeout expired\n\n(Command exited with code 2)",
				details: execDetails(r, c.cwd, 2), isError: true}
		}
		return toolUse{name: "exec", args: o("command", cmd), result: invoiceCounts(r), details: execDetails(r, c.cwd, 0)}
	case "release":
		path := "~/src/northwind-billing/docs/release-notes.md"
		return toolUse{name: "read", args: o("path", path), result: releaseNotes(r, at), details: undef, read: path}
	case "web":
		q := pick(r, []string{"telegram bot api rate limits group chats", "postgresql jsonb vs mongodb invoices", "soc2 access review evidence examples"})
		return toolUse{name: "web_search", args: o("query", q, "count", 5), result: searchResults(r, q), details: undef}
	case "send":
		msg := "Billing status: v" + slot(r, "v", at) + " is live, 0 failed invoices overnight, cut-over on " + day(at.AddDate(0, 0, 5)) + "."
		return toolUse{name: "message", args: o("action", "send", "channel", "telegram", "target", northwindOps, "message", msg),
			result: `{"ok":true,"messageId":"` + strconv.Itoa(4000+r.IntN(6000)) + `"}`, details: undef}
	case "notes":
		path := "memory/" + day(at) + ".md"
		content := dailyNoteText(r, at)
		return toolUse{name: "write", args: o("path", path, "content", content),
			result: fmt.Sprintf("Successfully wrote %d bytes to %s", len(content), path), details: undef, modified: path}
	}
	return toolUse{name: "read", args: o("path", "MEMORY.md"), details: undef, read: "MEMORY.md",
		result: "# MEMORY.md\n\n## People\n- **Marco Bianchi** (Acme): procurement, pays in USD.\n\n## Projects\n- Northwind billing: PostgreSQL, dual writes until the cut-over.\n"}
}

// --- tool outputs (deterministic, plausible text) ---

// dailyNoteText is the content of memory/<date>.md as the agent wrote it that day.
func dailyNoteText(r *rand.Rand, date time.Time) string {
	var b strings.Builder
	b.WriteString("# " + day(date) + "\n\n## Log\n")
	t := startOfDay(date).Add(8*time.Hour + time.Duration(r.IntN(90))*time.Minute)
	for range 3 + r.IntN(4) {
		b.WriteString("- " + hhmm(t) + " " + render(r, pick(r, statements).tmpl, t) + "\n")
		t = t.Add(time.Duration(20+r.IntN(120)) * time.Minute)
	}
	return b.String()
}

func memorySearchResult(r *rand.Rand, at time.Time, q string) string {
	var results []any
	for i := range 3 + r.IntN(3) {
		line := 3 + r.IntN(40)
		results = append(results, o("path", "memory/"+day(at.AddDate(0, 0, -1-i*2))+".md", "startLine", line, "endLine", line+4,
			"score", float64(90-i*9-r.IntN(5))/100, "snippet", render(r, pick(r, statements).tmpl, at), "source", "memory"))
	}
	return string(jsonIndent2(nil, o("results", results, "query", q)))
}

var commitSubjects = []string{
	"fix: proration rounding for EU VAT", "feat: credit notes for corrected invoices", "chore: bump pg driver",
	"feat(export): Northwind CSV export v2", "fix: retry webhook deliveries with backoff", "docs: release notes for billing v2",
	"refactor: split invoice service from ledger", "test: dual-write consistency checks", "fix: currency guard for Acme invoices",
}

func gitLog(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		fmt.Fprintf(&b, "%07x %s\n", r.Uint32()&0xfffffff, pick(r, commitSubjects))
	}
	return b.String()
}

func invoiceCounts(r *rand.Rand) string {
	paid, open, failed := 300+r.IntN(200), 20+r.IntN(40), r.IntN(4)
	return fmt.Sprintf("  status  | count\n---------+-------\n failed  |     %d\n open    |    %d\n paid    |   %d\n(3 rows)\n", failed, open, paid)
}

func releaseNotes(r *rand.Rand, at time.Time) string {
	return "# Release notes\n\n## Billing v" + slot(r, "v", at) + " (" + day(at.AddDate(0, 0, -2)) + ")\n" +
		"- Invoices now show proration for mid-cycle plan changes\n- EU VAT reverse charge for B2B customers\n- Credit notes replace invoice edits\n\n" +
		"## Telegram bot v0.3\n- Daily digest at 08:00 UTC\n- /status command for on-call\n"
}

func searchResults(r *rand.Rand, q string) string {
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "%d. %s (https://docs.example.com/%s/%d)\n   %s\n", i+1, strings.ToUpper(q[:1])+q[1:], slugify(q), r.IntN(900)+100,
			pick(r, []string{"Limits apply per chat; bursts are throttled.", "JSONB supports indexing nested fields.", "Keep evidence per control and date it.", "Transactions span multiple documents only with replica sets."}))
	}
	return b.String()
}

// workerLog, invoiceCSV and webhookLog make large outputs of about size bytes.
func workerLog(r *rand.Rand, at time.Time, size int) string {
	var b strings.Builder
	t := at.Add(-2 * time.Hour)
	for b.Len() < size {
		t = t.Add(time.Duration(200+r.IntN(20000)) * time.Millisecond)
		level := "INFO "
		status := "paid"
		if r.IntN(40) == 0 {
			level, status = "WARN ", "retry"
		}
		fmt.Fprintf(&b, "%s %s worker invoice=INV-%d-%06d customer=%s amount=%d.%02d %s status=%s duration_ms=%d\n",
			isoMillis(t), level, t.Year(), r.IntN(999999), pick(r, []string{"northwind", "acme", "globex", "initech"}),
			50+r.IntN(9000), r.IntN(100), pick(r, []string{"EUR", "USD"}), status, 20+r.IntN(400))
	}
	return b.String()
}

func invoiceCSV(r *rand.Rand, at time.Time, size int) string {
	var b strings.Builder
	b.WriteString("invoice_id,customer,issued_at,amount,currency,vat_rate,status\n")
	for b.Len() < size {
		fmt.Fprintf(&b, "INV-%d-%06d,northwind,%s,%d.%02d,EUR,0.%02d,%s\n", at.Year(), r.IntN(999999),
			day(at.AddDate(0, 0, -r.IntN(30))), 20+r.IntN(5000), r.IntN(100), pick(r, []int{0, 19, 20, 21}), pick(r, []string{"paid", "paid", "paid", "open", "void"}))
	}
	return b.String()
}

func webhookLog(r *rand.Rand, at time.Time, size int) string {
	var b strings.Builder
	t := at.Add(-6 * time.Hour)
	for b.Len() < size {
		t = t.Add(time.Duration(500+r.IntN(60000)) * time.Millisecond)
		fmt.Fprintf(&b, "[%s] update_id=%d chat=-1001234567890 from=%d type=%s latency=%dms\n", isoMillis(t), 700000000+r.IntN(9999999),
			100000000+r.IntN(899999999), pick(r, []string{"message", "message", "callback_query", "edited_message"}), 30+r.IntN(900))
	}
	return b.String()
}

// heartbeatFile is the workspace HEARTBEAT.md the heartbeat turns read.
const heartbeatFile = "# HEARTBEAT.md\n\n- If a TODO in memory/ is due today, remind the operator once.\n- If the nightly digest failed, say so.\n- Otherwise reply HEARTBEAT_OK.\n"
