package model

import (
	"fmt"
	"hash/maphash"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"clawvault-tui/jscompat"
)

// A leftover JSONL transcript of an agent that has a SQLite store (in its
// sessions folder, or the importer's session-sqlite-import-archive) is
// compared entry by entry with the store's events of the same session id,
// each entry as OpenClaw's importer stores it (importnorm.go). The verdict
// is one of four diagnosis codes.
const (
	// CodeImportVerified: every entry of the file is in the store,
	// identical: the file can be archived.
	CodeImportVerified DiagnosisCode = "import-verified"
	// CodeImportIncomplete: entries of the file are absent from the store.
	CodeImportIncomplete DiagnosisCode = "import-incomplete"
	// CodeImportDiffers: entries whose id the store holds with other content.
	CodeImportDiffers DiagnosisCode = "import-differs"
	// CodeNotImported: the store has no session of the file's id.
	CodeNotImported DiagnosisCode = "not-imported"
)

// EventDigest names an event's JSON text: 128 bits of two hashes seeded per
// process, so that no file can be made to collide with a stored event.
type EventDigest [2]uint64

var digestSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// DigestEvent is the digest of one event's JSON text.
func DigestEvent(b []byte) EventDigest {
	return EventDigest{maphash.Bytes(digestSeeds[0], b), maphash.Bytes(digestSeeds[1], b)}
}

// ImportEvents are a store session's events as the check needs them: each
// event's digest, seq and JSONL-equivalent bytes through it (for carrying a
// byte cursor over), found by digest; and, loaded only when a line is not
// among them, the ids the store holds.
type ImportEvents struct {
	SessionID string
	Exists    bool // the store has a session of this id
	Key       string
	Events    int64
	LastSeq   int64
	// The events by position: the first half of their digest finds them,
	// the second confirms (a first half two events share goes to extra).
	index   map[uint64]int32
	extra   map[EventDigest]int32
	second  []uint64
	seqs    []int64 // in order
	through []int64 // the JSONL-equivalent bytes through seqs[i]
	// IDsLoaded: AddID has been given every id of the store's session.
	IDsLoaded bool
	ids       map[string]struct{}
	idOf      map[int64]string // by seq
}

// NewImportEvents makes the set of session id of the store (exists: it
// has one of this id) under key, for about n events.
func NewImportEvents(id string, exists bool, key string, n int) *ImportEvents {
	return &ImportEvents{SessionID: id, Exists: exists, Key: key, LastSeq: -1, index: make(map[uint64]int32, n),
		second: make([]uint64, 0, n), seqs: make([]int64, 0, n), through: make([]int64, 0, n),
		ids: map[string]struct{}{}, idOf: map[int64]string{}}
}

// find returns the position of the event of digest d.
func (e *ImportEvents) find(d EventDigest) (int32, bool) {
	i, ok := e.index[d[0]]
	if ok && e.second[i] == d[1] {
		return i, true
	}
	i, ok = e.extra[d]
	return i, ok
}

// V1Prefix is the prefix of the ids the importer gave the entries of a
// version-1 file (16 hex digits, a dash, the entry's index in base 36), as
// the store's ids show it; "" when none has that form.
func (e *ImportEvents) V1Prefix() string {
	for id := range e.ids {
		if len(id) > 17 && id[16] == '-' && isHex(id[:16]) && isBase36(id[17:]) {
			return id[:16]
		}
	}
	return ""
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isBase36(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// Add adds the event seq, of size bytes (its UTF-8 length) and JSON text
// text (nil when it was too long to read: only its size counts).
func (e *ImportEvents) Add(seq, size int64, text []byte) {
	e.Events++
	e.LastSeq = max(e.LastSeq, seq)
	at := int32(len(e.seqs))
	var d EventDigest
	if text != nil {
		d = DigestEvent(text)
		if _, dup := e.find(d); !dup {
			if _, taken := e.index[d[0]]; taken {
				if e.extra == nil {
					e.extra = map[EventDigest]int32{}
				}
				e.extra[d] = at
			} else {
				e.index[d[0]] = at
			}
		}
	}
	total := size + 1
	if n := len(e.through); n > 0 {
		total += e.through[n-1]
	}
	e.second = append(e.second, d[1])
	e.seqs = append(e.seqs, seq)
	e.through = append(e.through, total)
}

// AddID records the id (trimmed) of the store's event seq.
func (e *ImportEvents) AddID(seq int64, id string) {
	id = jscompat.JSTrim(id)
	e.ids[id] = struct{}{}
	e.idOf[seq] = id
}

// Through is the number and JSONL-equivalent size of the events through
// seq.
func (e *ImportEvents) Through(seq int64) (events, bytes int64) {
	i, found := slices.BinarySearch(e.seqs, seq)
	if !found {
		i--
	}
	if i < 0 {
		return 0, 0
	}
	return int64(i + 1), e.through[i]
}

// ImportCheck is what comparing one JSONL file with the store found.
type ImportCheck struct {
	File      string
	SessionID string
	// Key is the session key the store gives the session ("" when it has
	// none of this id).
	Key      string
	Archived bool // the file is in the importer's archive folder
	Size     int64
	ModTime  time.Time
	Verdict  DiagnosisCode
	// Entries are the file's entries (non-blank lines that parse to
	// something other than null, false, 0 or ""), Present those in the
	// store, identical.
	Entries, Present int
	// Absent entries: neither their content nor their id is in the store.
	Absent, FirstAbsentLine int
	// Differs: entries whose id the store holds with other content.
	Differs, FirstDiffersLine int
	FirstDiffersID            string
	// Duplicates are entries identical to an earlier one (stored once).
	Duplicates int
	// LaterHeaders are session header lines after the first that differ
	// from it: the importer stores the first header of a session only, and
	// they are no entries of its history.
	LaterHeaders int
	// Shadowed entries are those of Differs whose id an earlier entry of
	// the file has: the importer keeps the first entry of an id and never
	// stores these, so the store lacks what they say.
	Shadowed, FirstShadowedLine int
	// Malformed lines do not parse (or are not UTF-8); OpenClaw's importer
	// stops reading a file at the first one.
	Malformed, FirstMalformedLine int
	// TornTail: the last line has no newline and does not parse.
	TornTail bool
	// Unchecked lines are longer than the line cap: not compared.
	Unchecked, FirstUncheckedLine int
	StoreEvents                   int64
	// LastPresentSeq is the highest seq an entry of the file matched.
	LastPresentSeq int64
	// Err says why the file could not be compared ("" when it was).
	Err string
	// Carry is the ClawVault byte cursor of the session mapped onto the
	// store's seqs (nil without one).
	Carry *CarriedCursor
}

// CarriedCursor is a byte cursor on a JSONL transcript carried over to the
// seq of the store's event whose line ended at that byte.
type CarriedCursor struct {
	Offset int64 // ClawVault's lastObservedOffset
	// LastSeq and ObservedBytes are the seq cursor it becomes (LastSeq -1:
	// nothing observed); Events are the events through LastSeq.
	LastSeq, ObservedBytes, Events int64
	// Problem says why it cannot be carried over ("" when it can).
	Problem string
}

// ImportComparer compares a file's lines with a store session's events.
// A line found among them is an entry present; what the others are
// (absent, or an id the store or an earlier line holds) needs the store's
// ids, which Finish asks for only then.
type ImportComparer struct {
	Events *ImportEvents
	Check  ImportCheck
	norm   ImportNormalizer
	record int
	// entries are the file's entries in order: a present one by its
	// event's position, a missing one as -1-i for misses[i].
	entries []int32
	misses  []importMiss
	matched []bool // by event position
	// cursor is the byte cursor to carry over (-1: none), and what the
	// lines before it said.
	cursor     int64
	carrySeq   int64
	carryFault string
	carryEnd   bool
}

// importMiss is an entry of the file not among the store's events.
type importMiss struct {
	line   int
	id     string
	header bool // a session header line
}

// NewImportComparer compares against events with the importer's plan; a
// byte cursor (>= 0) is carried over.
func NewImportComparer(events *ImportEvents, plan ImportPlan, cursor int64) *ImportComparer {
	return &ImportComparer{Events: events, norm: ImportNormalizer{Plan: plan}, matched: make([]bool, len(events.seqs)),
		cursor: cursor, carrySeq: -1, carryEnd: cursor == 0,
		Check: ImportCheck{SessionID: plan.SessionID, Key: events.Key, StoreEvents: events.Events, LastPresentSeq: -1}}
}

// Line compares one line (without its newline) numbered n (from 1), whose
// newline ends at byte end (-1: it has none).
func (c *ImportComparer) Line(n int, line []byte, end int64) {
	if end >= 0 && end == c.cursor {
		c.carryEnd = true
	}
	before := end >= 0 && end <= c.cursor
	text := TrimJSSpaceBytes(line)
	if len(text) == 0 {
		return
	}
	if c.norm.Plan.Version >= 2 {
		// Lines as pi and OpenClaw wrote them are the events as stored:
		// one lookup, no parse.
		if at, ok := c.Events.find(DigestEvent(text)); ok {
			c.record++
			c.present(at, before)
			return
		}
	}
	var v *jscompat.Value
	var err error
	if utf8.Valid(text) {
		v, err = jscompat.ParseJSON(text)
	}
	if v == nil || err != nil {
		c.Check.Malformed++
		if c.Check.FirstMalformedLine == 0 {
			c.Check.FirstMalformedLine = n
		}
		c.Check.TornTail = end < 0
		return
	}
	if !v.Truthy() {
		return
	}
	header := isStr(v.Field("type"), "session")
	event, id := c.norm.Normalize(c.record, v)
	c.record++
	if at, ok := c.Events.find(DigestEvent(event)); ok {
		c.present(at, before)
		return
	}
	c.Check.Entries++
	c.misses = append(c.misses, importMiss{line: n, id: id, header: header})
	c.entries = append(c.entries, int32(-len(c.misses)))
	if before && c.carryFault == "" {
		c.carryFault = fmt.Sprintf("line %d, before it, is not in the store as the file has it", n)
	}
}

// TooLong counts line n, too long to compare.
func (c *ImportComparer) TooLong(n int) {
	c.Check.Unchecked++
	if c.Check.FirstUncheckedLine == 0 {
		c.Check.FirstUncheckedLine = n
	}
}

func (c *ImportComparer) present(at int32, before bool) {
	seq := c.Events.seqs[at]
	c.entries = append(c.entries, at)
	c.Check.Entries++
	c.Check.Present++
	c.Check.LastPresentSeq = max(c.Check.LastPresentSeq, seq)
	if c.matched[at] {
		c.Check.Duplicates++
	}
	c.matched[at] = true
	if before {
		c.carrySeq = max(c.carrySeq, seq)
	}
}

// NeedsIDs says Finish needs the store's ids: some entry is not among
// its events.
func (c *ImportComparer) NeedsIDs() bool { return len(c.misses) > 0 && !c.Events.IDsLoaded }

// classifyMisses sorts the entries not among the store's events: one whose
// id the store holds differs (shadowed too when an earlier entry of the
// file has that id: the importer kept the first of an id, so what this one
// says is in no store event), but for a later session header, which is no
// entry; the others are absent.
func (c *ImportComparer) classifyMisses() {
	fileID := map[string]bool{}
	for _, e := range c.entries {
		if e >= 0 {
			if id := c.Events.idOf[c.Events.seqs[e]]; id != "" {
				fileID[id] = true
			}
			continue
		}
		m := c.misses[-e-1]
		_, held := c.Events.ids[m.id]
		switch {
		case m.id != "" && held && m.header && fileID[m.id]:
			c.Check.Entries-- // a later header: the session's, kept from the first
			c.Check.LaterHeaders++
		case m.id != "" && held:
			c.Check.Differs++
			if c.Check.FirstDiffersLine == 0 {
				c.Check.FirstDiffersLine, c.Check.FirstDiffersID = m.line, m.id
			}
			if fileID[m.id] {
				c.Check.Shadowed++
				if c.Check.FirstShadowedLine == 0 {
					c.Check.FirstShadowedLine = m.line
				}
			}
		default:
			c.Check.Absent++
			if c.Check.FirstAbsentLine == 0 {
				c.Check.FirstAbsentLine = m.line
			}
		}
		if m.id != "" {
			fileID[m.id] = true
		}
	}
}

// Finish gives the verdict (after the store's ids are loaded, when
// NeedsIDs says so).
func (c *ImportComparer) Finish() ImportCheck {
	c.classifyMisses()
	ch := c.Check
	switch {
	case !c.Events.Exists:
		ch.Verdict = CodeNotImported
	case ch.Differs > 0 || ch.Unchecked > 0:
		ch.Verdict = CodeImportDiffers
	case ch.Absent > 0:
		ch.Verdict = CodeImportIncomplete
	default:
		ch.Verdict = CodeImportVerified
	}
	if c.cursor >= 0 {
		cc := &CarriedCursor{Offset: c.cursor, LastSeq: c.carrySeq}
		switch {
		case !c.Events.Exists:
			cc.Problem = "the store has no such session"
		case !c.carryEnd:
			cc.Problem = fmt.Sprintf("byte %s is not the end of a line of the file", Count(c.cursor))
		case c.carryFault != "":
			cc.Problem = c.carryFault
		}
		if cc.LastSeq >= 0 {
			cc.Events, cc.ObservedBytes = c.Events.Through(cc.LastSeq)
		}
		ch.Carry = cc
	}
	return ch
}

// TrimJSSpaceBytes is String.prototype.trim on UTF-8 bytes.
func TrimJSSpaceBytes(b []byte) []byte {
	for len(b) > 0 {
		if c := b[0]; c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				break
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if !jscompat.IsJSSpace(r) {
			break
		}
		b = b[size:]
	}
	for len(b) > 0 {
		if c := b[len(b)-1]; c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				break
			}
			b = b[:len(b)-1]
			continue
		}
		r, size := utf8.DecodeLastRune(b)
		if !jscompat.IsJSSpace(r) {
			break
		}
		b = b[:len(b)-size]
	}
	return b
}

// Diagnosis is the check's verdict as a diagnosis, its sentence naming the
// numbers.
func (ch *ImportCheck) Diagnosis(storeName string) Diagnosis {
	if ch.Err != "" {
		return Diagnosis{CodeImportDiffers, fmt.Sprintf("This JSONL could not be compared with %s: %s.", storeName, ch.Err)}
	}
	of := fmt.Sprintf("%s of its %s", Count(int64(ch.Absent+ch.Differs+ch.Unchecked)), plural(ch.Entries, "entry", "entries"))
	switch ch.Verdict {
	case CodeNotImported:
		return Diagnosis{ch.Verdict, fmt.Sprintf("%s has no session %s: none of this file's %s were imported. Stop the gateway and run `openclaw doctor --session-sqlite import` to bring it in.%s",
			storeName, ch.SessionID, plural(ch.Entries, "entry", "entries"), ch.notes())}
	case CodeImportDiffers:
		msg := fmt.Sprintf("%s differ from %s's session %s: %s with an id the store holds with other content (first at line %d, id %s)",
			of, storeName, ch.Key, plural(ch.Differs, "entry", "entries"), ch.FirstDiffersLine, ch.FirstDiffersID)
		if ch.Differs == 0 {
			msg = fmt.Sprintf("%s could not be compared with %s's session %s: %s longer than the line cap (first at line %d)",
				of, storeName, ch.Key, plural(ch.Unchecked, "line is", "lines are"), ch.FirstUncheckedLine)
		}
		if ch.Absent > 0 {
			msg += fmt.Sprintf(", and %s absent (from line %d)", plural(ch.Absent, "entry is", "entries are"), ch.FirstAbsentLine)
		}
		return Diagnosis{ch.Verdict, msg + ". The file and the store disagree: compare them before archiving either." + ch.notes()}
	case CodeImportIncomplete:
		return Diagnosis{ch.Verdict, fmt.Sprintf("%s are absent from %s's session %s (from line %d): history the gateway no longer sees. %s%s",
			of, storeName, ch.Key, ch.FirstAbsentLine, ch.bringIn(), ch.notes())}
	}
	return Diagnosis{ch.Verdict, fmt.Sprintf("All %s of this file are in %s's session %s (through seq %d), identical as OpenClaw's importer stores them: it can be archived (`clawvault-tui retention --apply` moves it to its archive folder).%s",
		plural(ch.Entries, "entry", "entries"), storeName, ch.Key, ch.LastPresentSeq, ch.notes())}
}

// bringIn says how to import the missing entries.
func (ch *ImportCheck) bringIn() string {
	s := "To bring them in, stop the gateway"
	if ch.Archived {
		s += fmt.Sprintf(", move this file back to sessions/%s.jsonl", ch.SessionID)
	}
	if ch.Malformed > 0 {
		s += fmt.Sprintf(", fix or remove line %d (OpenClaw's importer stops reading at a line that does not parse)", ch.FirstMalformedLine)
	}
	return s + " and run `openclaw doctor --session-sqlite recover`."
}

// notes name what the check passed over.
func (ch *ImportCheck) notes() string {
	var n []string
	if ch.Duplicates > 0 {
		n = append(n, fmt.Sprintf("%s an earlier entry (stored once)", plural(ch.Duplicates, "line repeats", "lines repeat")))
	}
	if ch.LaterHeaders > 0 {
		n = append(n, fmt.Sprintf("%s the first (OpenClaw's importer stores a session's first header only)", plural(ch.LaterHeaders, "later session header differs from", "later session headers differ from")))
	}
	if ch.Shadowed > 0 {
		what := "they say"
		if ch.Shadowed == 1 {
			what = "it says"
		}
		n = append(n, fmt.Sprintf("%s the id of an earlier entry of the file with other content (first at line %d): OpenClaw's importer keeps the first entry of an id, so the store never holds what %s",
			plural(ch.Shadowed, "line has", "lines have"), ch.FirstShadowedLine, what))
	}
	switch {
	case ch.TornTail && ch.Malformed == 1:
		n = append(n, "the last line is torn (no newline, does not parse) and is not an entry")
	case ch.Malformed > 0:
		n = append(n, fmt.Sprintf("%s not parse (first at line %d)", plural(ch.Malformed, "line does", "lines do"), ch.FirstMalformedLine))
	}
	if len(n) == 0 {
		return ""
	}
	return " Also: " + strings.Join(n, "; ") + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(int64(n)) + " " + many
}

// ImportArchiveName parses a name the importer gives an archived
// transcript, <key>.<name>.imported-<epoch ms>[.<n>] (n tells apart two
// archived in the same millisecond): the part before .jsonl, whose end is
// the transcript's name without .jsonl, and whether the name is one.
func ImportArchiveName(name string) (stem string, ok bool) {
	i := strings.LastIndex(name, ".jsonl.imported-")
	if i <= 0 {
		return "", false
	}
	ms, n, two := strings.Cut(name[i+len(".jsonl.imported-"):], ".")
	if !digits(ms) || two && !digits(n) {
		return "", false
	}
	return name[:i], true
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// ImportArchiveDir is the importer's archive folder of an agent.
func ImportArchiveDir(agentDir string) string {
	return filepath.Join(agentDir, "session-sqlite-import-archive")
}
