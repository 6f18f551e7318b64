package demo

import (
	"path/filepath"
	"time"

	"clawvault-tui/model"
)

// phase is a stretch of conversation: write until the file holds bytes, pacing the
// turns to end around end. Every phase end is a line boundary recorded as a mark,
// which is where the demo places observer cursors.
type phase struct {
	bytes int64
	end   time.Time
}

// sessionSpec describes one transcript to write.
type sessionSpec struct {
	name          string // stable label for the PRNG stream
	agent         string
	id            string
	file          string // file name in the sessions dir; default <id>.jsonl
	dir           string // another directory (the SQLite import archive)
	memory        bool   // collect the lines in memory instead of a file (SQLite-only sessions)
	cwd           string // default: the agent's workspace
	start         time.Time
	phases        []phase
	model         modelSpec
	thinkingLevel string
	mix           turnMix
	speakers      []string
	bigBytes      int
	compactEvery  int64
	flush         flushPolicy
	heartbeat     bool
	parentSession string
	checkpoint    string         // file name of a pre-compaction copy taken before the first compaction
	extras        bool           // also an aborted turn, a delivery-mirror row and a custom_message
	intro         func(c *convo) // written right after the session start entries
	script        func(c *convo) // replaces phases entirely
	version       int            // header version; 0 = 3
}

// sessionResult is what was written.
type sessionResult struct {
	spec           *sessionSpec
	path           string
	size           int64
	first, last    time.Time
	stats          sessionStats
	notes          []note
	marks          []mark
	lines          [][]byte // memory sessions only
	checkpointPath string
	checkpointLeaf string
	checkpointAt   time.Time
}

func (g *generator) uuid(label string) string { return uuid4(g.rand("uuid:" + label)) }

func (g *generator) workspaceOf(agent string) string {
	switch agent {
	case "main":
		return g.mainWorkspace
	case "work":
		return g.workWorkspace
	}
	return g.opsWorkspace
}

// writeSession writes one transcript as described by s.
func (g *generator) writeSession(s *sessionSpec) (*sessionResult, error) {
	r := g.rand("session:" + s.name)
	g.completeSpec(s)
	res := &sessionResult{spec: s, path: filepath.Join(s.dir, s.file), first: s.start}
	var t *transcript
	if s.memory {
		t = memTranscript(r, s.start)
	} else {
		var err error
		if t, err = createTranscript(res.path, r, s.start); err != nil {
			return nil, err
		}
	}
	t.stop = g.ctx.Done()
	c := specConvo(t, r, s)
	var snapErr error
	if s.checkpoint != "" {
		c.beforeCompaction = func(c *convo) {
			if res.checkpointPath != "" {
				return
			}
			res.checkpointPath = filepath.Join(s.dir, s.checkpoint)
			res.checkpointLeaf, res.checkpointAt = c.t.leaf, c.t.last
			snapErr = c.t.snapshot(res.checkpointPath)
		}
	}
	openSession(c, s)
	res.marks = runSession(c, s)
	if err := t.close(); err != nil {
		return nil, err
	}
	if err := g.ctx.Err(); err != nil {
		return nil, err // the transcript stopped short
	}
	if snapErr != nil {
		return nil, snapErr
	}
	res.size, res.last, res.stats, res.notes = t.size, t.last, c.stats, c.notes
	if s.memory {
		res.lines = t.memLines()
	}
	return res, nil
}

// completeSpec fills what a spec leaves out: the file name from the id,
// the agent's sessions folder and workspace, the thinking level.
func (g *generator) completeSpec(s *sessionSpec) {
	s.start = s.start.Truncate(time.Millisecond) // JS clocks tick in milliseconds
	if s.file == "" {
		s.file = s.id + ".jsonl"
	}
	if s.dir == "" {
		s.dir = g.sessionsDir(s.agent)
	}
	if s.cwd == "" {
		s.cwd = g.workspaceOf(s.agent)
	}
	if s.thinkingLevel == "" {
		s.thinkingLevel = "off"
		if s.model.provider == "anthropic" {
			s.thinkingLevel = "low"
		}
	}
}

// specConvo is the conversation a spec asks for, writing to t.
func specConvo(t *transcript, r *randSource, s *sessionSpec) *convo {
	c := newConvo(t, r, s.model, s.cwd)
	c.thinking = c.thinking && s.thinkingLevel != "off"
	if s.mix != (turnMix{}) {
		c.mix = s.mix
	}
	c.speakers = s.speakers
	if s.bigBytes > 0 {
		c.bigBytes = s.bigBytes
	}
	c.setCompaction(s.compactEvery)
	c.flush = s.flush
	c.beat = s.heartbeat
	return c
}

// openSession writes the transcript's header in the spec's format version,
// then the bootstrap context and the intro when the spec has them.
func openSession(c *convo, s *sessionSpec) {
	switch s.version {
	case 1:
		// pi before version 2: a header without version, entries without id/parentId.
		c.t.v1 = true
		c.noCustom = true
		c.t.header(0, s.id, s.cwd, "")
	case 2:
		c.noCustom = true
		c.open(2, s.id, s.parentSession, s.thinkingLevel)
	default:
		c.open(3, s.id, s.parentSession, s.thinkingLevel)
	}
	if s.extras {
		c.t.tick(5 * time.Millisecond)
		c.t.customMessage("openclaw:bootstrap-context:full",
			"Workspace context loaded: AGENTS.md, SOUL.md, USER.md, HEARTBEAT.md, MEMORY.md.", false,
			o("files", []string{"AGENTS.md", "SOUL.md", "USER.md", "HEARTBEAT.md", "MEMORY.md"}))
	}
	if s.intro != nil {
		s.intro(c)
	}
}

// runSession writes the conversation, by the spec's script or phase by
// phase, and returns the marks: where each phase ended.
func runSession(c *convo, s *sessionSpec) []mark {
	if s.script != nil {
		s.script(c)
		return c.marks
	}
	var marks []mark
	for i, ph := range s.phases {
		if s.extras && i == 0 {
			// Early in the first phase: a cancelled turn, then a delivered reply mirrored.
			from, span := c.t.at, ph.end.Sub(c.t.at)
			c.runUntil(ph.bytes*3/10, from.Add(span*3/10))
			c.aborted()
			c.runUntil(ph.bytes/2, from.Add(span/2))
			c.say(nil, "Post the status update to the Northwind Ops group.")
			c.reply("Posted to Northwind Ops: billing v2 is live, the SOC2 questionnaire is on track.")
			c.t.tick(400 * time.Millisecond)
			c.mirror("Billing v2 is live; the SOC2 questionnaire is on track.")
		}
		c.runUntil(ph.bytes, ph.end)
		marks = append(marks, mark{c.t.size, c.t.last})
	}
	return marks
}

// session is writeSession with a sticky error: after a failure it returns an empty
// result and the step reports g.err, which keeps the long scripted steps readable.
func (g *generator) session(s *sessionSpec) *sessionResult {
	if g.err == nil {
		g.err = g.ctx.Err()
	}
	if g.err == nil {
		res, err := g.writeSession(s)
		if err == nil {
			return res
		}
		g.err = err
	}
	return &sessionResult{spec: s, path: filepath.Join(s.dir, s.file), first: s.start, last: s.start}
}

// mark returns the i-th phase mark (a zero mark after an error).
func (res *sessionResult) mark(i int) mark {
	if i < len(res.marks) {
		return res.marks[i]
	}
	return mark{}
}

// --- sessions.json rows ---

// storeRow is one sessions.json entry.
type storeRow struct {
	key     string
	created time.Time // JS objects keep insertion order: rows sit in creation order
	entry   obj
	updated time.Time
	agent   string
	id      string
	file    string
}

// route is how a session reaches its chat (origin, deliveryContext, last*).
type route struct {
	chatType           string
	channel            string
	groupID, subject   string
	label, displayName string
	to, from, account  string
	originLabel        string
	threadID           any
	bare               bool // a row the agent never ran for: identity fields only
	updated            time.Time
	flushCount         int // memoryFlushCompactionCount override when >= 0 and set
	overrideFlush      bool
	extra              []any // more key/value pairs, appended
}

func dm(channel, to, originLabel string) route {
	return route{chatType: "direct", channel: channel, to: to, from: to, account: "default", originLabel: originLabel}
}

func group(channel, chatType, id, to, subject, displayName string) route {
	return route{chatType: chatType, channel: channel, groupID: id, subject: subject, displayName: displayName,
		to: to, from: channel + ":" + chatType + ":" + id, account: "default", originLabel: subject + " id:" + id}
}

// addRow records the sessions.json row of a written session.
func (g *generator) addRow(agent, key string, res *sessionResult, rt route) *storeRow {
	e, updated := rowEntry(key, res, rt)
	row := &storeRow{key: key, created: res.first, entry: e, updated: updated, agent: agent, id: res.spec.id, file: res.path}
	g.rows[agent] = append(g.rows[agent], row)
	g.sessionCount++
	if label := model.SourceLabel(key); g.bySource[label].Key == "" {
		g.bySource[label] = Case{agent, key, res.spec.id, res.path}
	}
	return row
}

// rowEntry builds a SessionEntry with the fields OpenClaw keeps, in its usual order.
func rowEntry(key string, res *sessionResult, rt route) (obj, time.Time) {
	s := res.spec
	updated := rt.updated
	if updated.IsZero() {
		updated = res.last.Add(time.Duration(40+len(key)*7) * time.Millisecond)
	}
	e := o("sessionId", s.id, "updatedAt", updated.UnixMilli(), "sessionFile", res.path)
	e = append(e, o("systemSent", !rt.bare, "chatType", rt.chatType, "channel", optional(rt.channel),
		"groupId", optional(rt.groupID), "subject", optional(rt.subject),
		"label", optional(rt.label), "displayName", optional(rt.displayName))...)
	if rt.channel != "" && rt.to != "" {
		e = append(e, kv{"origin", o("label", rt.originLabel, "provider", rt.channel, "surface", rt.channel,
			"chatType", rt.chatType, "from", rt.from, "to", rt.to, "accountId", rt.account, "threadId", threadOrUndef(rt.threadID))})
		e = append(e, kv{"deliveryContext", o("channel", rt.channel, "to", rt.to, "accountId", rt.account,
			"threadId", threadOrUndef(rt.threadID))})
		// OpenClaw saves rows normalized: a delivery thread is also lastThreadId.
		e = append(e, o("lastChannel", rt.channel, "lastTo", rt.to, "lastAccountId", rt.account,
			"lastThreadId", threadOrUndef(rt.threadID))...)
	}
	if !rt.bare {
		st := res.stats
		if s.thinkingLevel != "off" {
			e = append(e, kv{"thinkingLevel", s.thinkingLevel})
		}
		e = append(e, o("modelProvider", s.model.provider, "model", s.model.id, "contextTokens", s.model.window,
			"inputTokens", st.runInput, "outputTokens", st.runOutput,
			"cacheRead", st.lastCall.cacheRead, "cacheWrite", st.lastCall.cacheWrite,
			"totalTokens", st.lastCall.input+st.lastCall.cacheRead+st.lastCall.cacheWrite, "totalTokensFresh", true,
			"estimatedCostUsd", st.cost, "compactionCount", st.compactions)...)
		if st.compactions > 0 {
			flushed := st.memoryFlushCompactionCount
			if rt.overrideFlush {
				flushed = rt.flushCount
			}
			flushAt := st.memoryFlushAt
			if flushAt.IsZero() {
				flushAt = res.first.Add(res.last.Sub(res.first) / 2)
			}
			e = append(e, o("memoryFlushAt", flushAt.UnixMilli(), "memoryFlushCompactionCount", flushed)...)
		}
	}
	e = append(e, o(rt.extra...)...)
	return e, updated
}

func threadOrUndef(v any) any {
	if v == nil {
		return undef
	}
	return v
}

// --- observer cursors ---

// cursorEntry is one entry of .clawvault/observe-cursors.json.
type cursorEntry struct {
	id       string
	offset   int64
	at       time.Time
	key      string
	fileSize int64
}

// observedSession feeds the vault: the notes ClawVault's observer has read.
type observedSession struct {
	key, id, label string
	notes          []note
}

// observe records a cursor for a session and the notes before it as observed.
func (g *generator) observe(key string, res *sessionResult, offset int64, at time.Time) {
	at = at.Truncate(time.Millisecond)
	if at.After(g.now) {
		at = g.now.Add(-time.Minute)
	}
	g.cursors = append(g.cursors, cursorEntry{res.spec.id, offset, at, key, offset})
	var seen []note
	for _, n := range res.notes {
		if n.end <= offset {
			seen = append(seen, n)
		}
	}
	if len(seen) > 0 {
		g.observed = append(g.observed, observedSession{key, res.spec.id, model.SourceLabel(key), seen})
	}
}
