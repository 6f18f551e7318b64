package model

import (
	"testing"
	"time"
)

// lineSeq builds lines of 100 bytes each, in order; ts are days before now.
type lineSpec struct {
	kind  LineKind
	role  Role
	reply ReplyKind
	days  float64 // age; <0: no timestamp
	typ   EntryType
}

func buildLines(now time.Time, specs []lineSpec) []RetentionLine {
	out := make([]RetentionLine, len(specs))
	for i, s := range specs {
		ts := NoTime
		if s.days >= 0 {
			ts = now.Add(-time.Duration(s.days * float64(24*time.Hour))).UnixMilli()
		}
		typ := s.typ
		if typ == TypeOther && s.role != RoleNone {
			typ = TypeMessage
		}
		out[i] = RetentionLine{Offset: int64(i) * 100, Span: 100, TimeMs: ts, Kind: s.kind, Type: typ, Role: s.role, Reply: s.reply}
	}
	return out
}

var (
	header   = lineSpec{kind: LineHeader, days: 40, typ: TypeSession}
	user     = func(d float64) lineSpec { return lineSpec{role: RoleUser, days: d} }
	silent   = func(d float64) lineSpec { return lineSpec{role: RoleAssistant, reply: ReplySilent, days: d} }
	said     = func(d float64) lineSpec { return lineSpec{role: RoleAssistant, reply: ReplyText, days: d} }
	toolCall = func(d float64) lineSpec { return lineSpec{role: RoleAssistant, reply: ReplyNone, days: d} }
	result   = func(d float64) lineSpec { return lineSpec{role: RoleToolResult, days: d} }
	custom   = func(d float64) lineSpec { return lineSpec{typ: TypeCustom, days: d} }
	broken   = lineSpec{kind: LineOther, days: -1}
)

func TestPlanTranscriptRetention(t *testing.T) {
	now := maintNow
	specs := []lineSpec{
		header,
		user(40), said(40), // 1-2: an old real exchange
		user(20), toolCall(20), result(20), silent(20), // 3-6: heartbeat with tool chatter
		custom(20),           // 7: bookkeeping between turns: kept
		user(10), silent(10), // 8-9: a NO_REPLY turn
		user(5), said(5), silent(5), // 10-12: says something, then NO_REPLY: not noise
		broken,               // 13: a damaged line: kept
		user(1), toolCall(1), // 14-15: an aborted turn with no reply at all: not noise
	}
	lines := buildLines(now, specs)
	size := int64(len(lines)) * 100
	for _, tc := range []struct {
		name  string
		pol   TranscriptPolicy
		drops [dropReasons]DropCount
	}{
		{"off", TranscriptPolicy{}, [dropReasons]DropCount{}},
		{"heartbeats", TranscriptPolicy{Heartbeats: true}, [dropReasons]DropCount{DropHeartbeat: {6, 600}}},
		{"age: the header and damaged lines stay", TranscriptPolicy{MaxAgeDays: 30}, [dropReasons]DropCount{DropAge: {2, 200}}},
		{"age first, then heartbeats", TranscriptPolicy{MaxAgeDays: 15, Heartbeats: true},
			[dropReasons]DropCount{DropAge: {7, 700}, DropHeartbeat: {2, 200}}},
		{"size: oldest first until it fits", TranscriptPolicy{MaxSizeBytes: 1250},
			[dropReasons]DropCount{DropSize: {4, 400}}},
		{"size after heartbeats", TranscriptPolicy{Heartbeats: true, MaxSizeBytes: 700},
			[dropReasons]DropCount{DropHeartbeat: {6, 600}, DropSize: {3, 300}}},
	} {
		p := PlanTranscriptRetention(lines, size, tc.pol, now, "", nil)
		if p.Drops != tc.drops {
			t.Errorf("%s: drops = %+v, want %+v", tc.name, p.Drops, tc.drops)
		}
		if p.KeptBytes != size-p.DropBytes() || p.HeartbeatTurns != 2 || p.Entries != 14 {
			t.Errorf("%s: kept %d, turns %d, entries %d", tc.name, p.KeptBytes, p.HeartbeatTurns, p.Entries)
		}
	}
}

func TestTranscriptRetentionCursor(t *testing.T) {
	now := maintNow
	// header, heartbeat turn (2 lines), real turn (2 lines): 500 bytes.
	lines := buildLines(now, []lineSpec{header, user(1), silent(1), user(1), said(1)})
	pol := TranscriptPolicy{Heartbeats: true}
	for _, tc := range []struct {
		name   string
		offset int64
		want   CursorEffect
	}{
		{"cursor before the dropped bytes stays valid", 100, CursorEffect{CursorID: "c", Offset: 100, NewOffset: 100}},
		{"cursor after them must move; inside the new file it skips bytes", 300,
			CursorEffect{CursorID: "c", Offset: 300, NewOffset: 100, DroppedBefore: 200, Invalidated: true, SkippedBytes: 200}},
		{"cursor past the new end: ClawVault re-reads everything", 500,
			CursorEffect{CursorID: "c", Offset: 500, NewOffset: 300, DroppedBefore: 200, Invalidated: true, RereadBytes: 300}},
		{"cursor mid-line counts the part before it", 150,
			CursorEffect{CursorID: "c", Offset: 150, NewOffset: 100, DroppedBefore: 50, Invalidated: true, SkippedBytes: 50}},
	} {
		c := &Cursor{LastObservedOffset: float64(tc.offset)}
		p := PlanTranscriptRetention(lines, 500, pol, now, "c", c)
		if p.Cursor == nil || *p.Cursor != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, p.Cursor, tc.want)
		}
	}
}

func TestIsSilentReply(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"HEARTBEAT_OK": true, " NO_REPLY\n": true, "**HEARTBEAT_OK**": true, "NO_REPLY.": true,
		"heartbeat_ok": false, "HEARTBEAT_OK — nothing due": false, "": false, "Reminder: pay the invoice": false,
	} {
		if IsSilentReply(text) != want {
			t.Errorf("IsSilentReply(%q) = %v", text, !want)
		}
	}
}
