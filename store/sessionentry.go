package store

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// decodeSessionEntry reads one sessions.json row into e, every named
// field, and keeps the row's bytes in Raw (see decodeEntry).
func decodeSessionEntry(raw []byte, e *model.SessionEntry, alloc *entryAlloc) (problem string) {
	e.Raw = raw
	return decodeEntry(raw, &e.StatusEntry, e, alloc)
}

// decodeStatusEntry reads the fields of one sessions.json row that a
// scan keeps (statusField) into st; the others are validated and skipped.
func decodeStatusEntry(raw []byte, st *model.StatusEntry, alloc *entryAlloc) (problem string) {
	return decodeEntry(raw, st, nil, alloc)
}

// decodeEntry reads one sessions.json row into st and e without
// reflection: a store of 10,000 rows must load in a fraction of status's
// 250 ms budget, and encoding/json alone took longer. With e, every
// named field is decoded; without, only the fields a scan's readers use
// (statusField). A field of an unexpected type is skipped and named in problem;
// the rest of the row is kept. OpenClaw's load-time renames
// (provider→channel, lastProvider→lastChannel, room→groupChannel) are
// applied.
//
// alloc, when not nil, is shared by the rows of one file (see entryAlloc).
func decodeEntry(raw []byte, st *model.StatusEntry, e *model.SessionEntry, alloc *entryAlloc) (problem string) {
	d := entryDecoder{st: st, e: e, alloc: alloc}
	_, ok := jsonscan.Object(raw, 0, func(key, v []byte) bool {
		name := key[1 : len(key)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name = []byte(jsonscan.Unquote(key))
		}
		if e == nil && !statusField(string(name)) {
			return true
		}
		_ = d.stringField(string(name), key, v) || d.numberField(string(name), key, v) || d.flagField(string(name), key, v)
		return true
	})
	return d.finish(ok)
}

// entryDecoder is decodeEntry's state: the row's destinations, the fields
// OpenClaw renames at load time, and the first problem.
type entryDecoder struct {
	st    *model.StatusEntry
	e     *model.SessionEntry
	alloc *entryAlloc

	provider, lastProvider, room string
	// rawID is the quoted sessionId, unquoted after the row: most rows
	// name their transcript <sessionsDir>/<sessionId>.jsonl, and the id
	// is then the path's own bytes, not a string of its own.
	rawID   []byte
	problem string
}

// stringField decodes the string fields; false for another name.
func (d *entryDecoder) stringField(name string, key, v []byte) bool {
	st := d.st
	switch name {
	case "sessionId":
		if len(v) > 0 && v[0] == '"' {
			d.rawID = v
		}
	case "sessionFile":
		d.str(key, v, &st.SessionFile)
	case "chatType":
		d.common(key, v, &st.ChatType)
	case "channel":
		d.common(key, v, &st.Channel)
	case "modelProvider":
		d.common(key, v, &st.ModelProvider)
	case "model":
		d.common(key, v, &st.Model)
	case "provider":
		d.common(key, v, &d.provider)
	case "lastProvider":
		d.str(key, v, &d.lastProvider)
	case "room":
		d.str(key, v, &d.room)
	case "memoryFlushLastFailureError":
		d.str(key, v, &st.FlushFailure.LastError)
	default:
		dst := entryString(d.e, name)
		if dst == nil {
			return false
		}
		d.str(key, v, dst)
	}
	return true
}

// entryString is where the plain string field name of a full entry goes
// (nil for another name).
func entryString(e *model.SessionEntry, name string) *string {
	switch name {
	case "label":
		return &e.Label
	case "displayName":
		return &e.DisplayName
	case "groupId":
		return &e.GroupID
	case "subject":
		return &e.Subject
	case "groupChannel":
		return &e.GroupChannel
	case "lastChannel":
		return &e.LastChannel
	case "lastTo":
		return &e.LastTo
	case "spawnedBy":
		return &e.SpawnedBy
	case "parentSessionKey":
		return &e.ParentSessionKey
	case "status":
		return &e.Status
	case "thinkingLevel":
		return &e.ThinkingLevel
	case "modelOverride":
		return &e.ModelOverride
	}
	return nil
}

// numberField decodes the numeric fields; false for another name.
func (d *entryDecoder) numberField(name string, key, v []byte) bool {
	st, e := d.st, d.e
	switch name {
	case "updatedAt":
		_ = st.UpdatedAt.UnmarshalJSON(v)
	case "spawnDepth":
		e.SpawnDepth = d.intp(key, v)
	case "contextTokens":
		st.ContextTokens = d.i64(key, v)
	case "totalTokens":
		st.TotalTokens = d.i64(key, v)
	case "inputTokens":
		e.InputTokens = d.i64(key, v)
	case "outputTokens":
		e.OutputTokens = d.i64(key, v)
	case "cacheRead":
		e.CacheRead = d.i64(key, v)
	case "cacheWrite":
		e.CacheWrite = d.i64(key, v)
	case "compactionCount":
		st.CompactionCount = d.intp(key, v)
	case "memoryFlushCompactionCount":
		st.MemoryFlushCompactionCount = d.intp(key, v)
	case "memoryFlushFailureCount":
		st.FlushFailure.Count = d.intp(key, v)
	case "memoryFlushLastFailedAt":
		if n, ok := d.num(key, v); ok {
			st.FlushFailure.LastFailedAt = n
		}
	case "memoryFlush": // 2026.9's object of the counts above
		if !decodeMemoryFlush(v, st, d.alloc) && string(v) != "null" {
			d.bad(key, "an object")
		}
	case "memoryFlushAt":
		if n, ok := d.num(key, v); ok {
			e.MemoryFlushAt = n
		}
	case "estimatedCostUsd":
		if f, err := strconv.ParseFloat(string(v), 64); err == nil && !math.IsInf(f, 0) {
			st.EstimatedCostUSD = d.alloc.float64p(f)
		} else if string(v) != "null" {
			d.bad(key, "a number")
		}
	default:
		return false
	}
	return true
}

// flagField decodes the true/false fields; false for another name.
func (d *entryDecoder) flagField(name string, key, v []byte) bool {
	e := d.e
	switch name {
	case "totalTokensFresh":
		e.TotalTokensFresh = d.boolean(key, v)
	case "systemSent":
		if b := d.boolean(key, v); b != nil {
			e.SystemSent = *b
		}
	case "abortedLastRun":
		if b := d.boolean(key, v); b != nil {
			e.AbortedLastRun = *b
		}
	default:
		return false
	}
	return true
}

// finish applies what is known once the whole row is read: the id, the
// renames, and the problem of a row that is not an object.
func (d *entryDecoder) finish(ok bool) string {
	if d.rawID != nil {
		d.st.SessionID = idOf(d.rawID, d.st.SessionFile)
	}
	if !ok && d.problem == "" {
		d.problem = "the row is not a JSON object"
	}
	if d.st.Channel == "" {
		d.st.Channel = d.provider
	}
	if d.e == nil {
		return d.problem
	}
	if d.e.LastChannel == "" {
		d.e.LastChannel = d.lastProvider
	}
	if d.e.GroupChannel == "" {
		d.e.GroupChannel = d.room
	}
	return d.problem
}

func (d *entryDecoder) bad(key []byte, want string) {
	if d.problem == "" {
		d.problem = fmt.Sprintf("%s is not %s", jsonscan.Unquote(key), want)
	}
}

func (d *entryDecoder) str(key, v []byte, dst *string) {
	if len(v) > 0 && v[0] == '"' {
		*dst = jsonscan.Unquote(v)
	} else if string(v) != "null" {
		d.bad(key, "a string")
	}
}

// common decodes a string most rows share (a chat type, a channel, a
// model), kept once (entryAlloc.common).
func (d *entryDecoder) common(key, v []byte, dst *string) {
	if len(v) > 0 && v[0] == '"' {
		*dst = d.alloc.common(v)
	} else {
		d.str(key, v, dst)
	}
}

func (d *entryDecoder) num(key, v []byte) (int64, bool) {
	if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
		if n, ok := jsonscan.Int(v); ok {
			return n, true
		}
	}
	if string(v) != "null" {
		d.bad(key, "a number")
	}
	return 0, false
}

func (d *entryDecoder) i64(key, v []byte) *int64 {
	if n, ok := d.num(key, v); ok {
		return d.alloc.int64p(n)
	}
	return nil
}

func (d *entryDecoder) intp(key, v []byte) *int {
	if n, ok := d.num(key, v); ok {
		return d.alloc.intp(int(n))
	}
	return nil
}

func (d *entryDecoder) boolean(key, v []byte) *bool {
	switch string(v) {
	case "true", "false":
		b := string(v) == "true"
		return &b
	case "null":
	default:
		d.bad(key, "true or false")
	}
	return nil
}

// idOf unquotes the sessionId rawID, as the part of sessionFile that spells
// it when sessionFile ends in /<id>.jsonl (an id with escapes or bytes
// outside printable ASCII is unquoted on its own).
func idOf(rawID []byte, sessionFile string) string {
	id := rawID[1 : len(rawID)-1]
	if printableASCII(id) {
		if name, ok := strings.CutSuffix(sessionFile, ".jsonl"); ok && len(name) > len(id) &&
			name[len(name)-len(id)-1] == '/' && name[len(name)-len(id):] == string(id) {
			return name[len(name)-len(id):]
		}
	}
	return jsonscan.Unquote(rawID)
}

// printableASCII: b holds no escape, control or non-ASCII byte, so it
// unquotes to itself.
func printableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return false
		}
	}
	return true
}

// statusField names the row fields a scan decodes: what discovery
// (sessionId, updatedAt), the transcript's path (sessionFile), the
// diagnosis (compaction and flush counts), status's meta and the Sessions
// screen show.
func statusField(name string) bool {
	switch name {
	case "sessionId", "updatedAt", "sessionFile", "chatType", "channel", "provider", "model", "modelProvider",
		"contextTokens", "totalTokens", "compactionCount", "memoryFlushCompactionCount", "estimatedCostUsd",
		"memoryFlush", "memoryFlushFailureCount", "memoryFlushLastFailedAt", "memoryFlushLastFailureError":
		return true
	}
	return false
}

// decodeMemoryFlush reads OpenClaw 2026.9's memoryFlush object ({kind:
// "succeeded", compactionCount} or {kind: "failed", compactionCount?,
// failureCount}), which replaced the memoryFlush* fields: its counts are
// read where the old fields are not there. It reports whether v is an
// object.
func decodeMemoryFlush(v []byte, st *model.StatusEntry, alloc *entryAlloc) bool {
	var kind string
	var compactions, failures int64 = -1, -1
	_, ok := jsonscan.Object(v, 0, func(key, val []byte) bool {
		switch {
		case jsonscan.KeyIs(key, "kind") && len(val) > 0 && val[0] == '"':
			kind = jsonscan.Unquote(val)
		case jsonscan.KeyIs(key, "compactionCount"):
			if n, ok := jsonscan.Int(val); ok && n >= 0 {
				compactions = n
			}
		case jsonscan.KeyIs(key, "failureCount"):
			if n, ok := jsonscan.Int(val); ok && n >= 0 {
				failures = n
			}
		}
		return true
	})
	if !ok {
		return false
	}
	if compactions >= 0 && st.MemoryFlushCompactionCount == nil {
		st.MemoryFlushCompactionCount = alloc.intp(int(compactions))
	}
	if kind == "failed" && failures > 0 && st.FlushFailure.Count == nil {
		st.FlushFailure.Count = alloc.intp(int(failures))
	}
	return true
}

// entryAlloc holds what decoding the rows of one sessions.json allocates a
// little of for each row: the numbers its optional fields point at, handed
// out from blocks (five small allocations a row were a sixth of decoding
// 50,000 rows), and the strings most rows repeat, kept once. A nil
// entryAlloc allocates each on its own.
type entryAlloc struct {
	ints   []int64
	nums   []int
	floats []float64
	seen   map[string]string
}

const entryAllocBlock = 1024

func (a *entryAlloc) int64p(n int64) *int64 {
	if a == nil {
		return &n
	}
	return fromBlock(&a.ints, n)
}

func (a *entryAlloc) intp(n int) *int {
	if a == nil {
		return &n
	}
	return fromBlock(&a.nums, n)
}

func (a *entryAlloc) float64p(f float64) *float64 {
	if a == nil {
		return &f
	}
	return fromBlock(&a.floats, f)
}

// fromBlock puts v in the current block, a new one when it is full, and
// points at it.
func fromBlock[T any](block *[]T, v T) *T {
	if len(*block) == cap(*block) {
		*block = make([]T, 0, entryAllocBlock)
	}
	*block = append(*block, v)
	return &(*block)[len(*block)-1]
}

// common unquotes a JSON string that many rows share, keeping one copy of
// each of the first few hundred distinct ones.
func (a *entryAlloc) common(quoted []byte) string {
	if a == nil || bytes.IndexByte(quoted, '\\') >= 0 {
		return jsonscan.Unquote(quoted)
	}
	if s, ok := a.seen[string(quoted)]; ok {
		return s
	}
	s := jsonscan.Unquote(quoted)
	if a.seen == nil {
		a.seen = map[string]string{}
	}
	if len(a.seen) < 256 {
		a.seen[string(quoted)] = s
	}
	return s
}
