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
	var provider, lastProvider, room string
	// The sessionId is unquoted after the row: most rows name their
	// transcript <sessionsDir>/<sessionId>.jsonl, and the id is then the
	// path's own bytes, not a string of its own.
	var rawID []byte
	bad := func(key []byte, want string) {
		if problem == "" {
			problem = fmt.Sprintf("%s is not %s", jsonscan.Unquote(key), want)
		}
	}
	str := func(key, v []byte, dst *string) {
		if len(v) > 0 && v[0] == '"' {
			*dst = jsonscan.Unquote(v)
		} else if string(v) != "null" {
			bad(key, "a string")
		}
	}
	// common: a string most rows share (a chat type, a channel, a model).
	common := func(key, v []byte, dst *string) {
		if len(v) > 0 && v[0] == '"' {
			*dst = alloc.common(v)
		} else {
			str(key, v, dst)
		}
	}
	num := func(key, v []byte) (int64, bool) {
		if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
			if n, ok := jsonscan.Int(v); ok {
				return n, true
			}
		}
		if string(v) != "null" {
			bad(key, "a number")
		}
		return 0, false
	}
	i64 := func(key, v []byte) *int64 {
		if n, ok := num(key, v); ok {
			return alloc.int64p(n)
		}
		return nil
	}
	intp := func(key, v []byte) *int {
		if n, ok := num(key, v); ok {
			return alloc.intp(int(n))
		}
		return nil
	}
	boolean := func(key, v []byte) *bool {
		switch string(v) {
		case "true", "false":
			b := string(v) == "true"
			return &b
		case "null":
		default:
			bad(key, "true or false")
		}
		return nil
	}
	_, ok := jsonscan.Object(raw, 0, func(key, v []byte) bool {
		name := key[1 : len(key)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name = []byte(jsonscan.Unquote(key))
		}
		if e == nil && !statusField(string(name)) {
			return true
		}
		switch string(name) {
		case "sessionId":
			if len(v) > 0 && v[0] == '"' {
				rawID = v
			}
		case "updatedAt":
			_ = st.UpdatedAt.UnmarshalJSON(v)
		case "sessionFile":
			str(key, v, &st.SessionFile)
		case "label":
			str(key, v, &e.Label)
		case "displayName":
			str(key, v, &e.DisplayName)
		case "chatType":
			common(key, v, &st.ChatType)
		case "channel":
			common(key, v, &st.Channel)
		case "groupId":
			str(key, v, &e.GroupID)
		case "subject":
			str(key, v, &e.Subject)
		case "groupChannel":
			str(key, v, &e.GroupChannel)
		case "lastChannel":
			str(key, v, &e.LastChannel)
		case "lastTo":
			str(key, v, &e.LastTo)
		case "spawnedBy":
			str(key, v, &e.SpawnedBy)
		case "parentSessionKey":
			str(key, v, &e.ParentSessionKey)
		case "status":
			str(key, v, &e.Status)
		case "thinkingLevel":
			str(key, v, &e.ThinkingLevel)
		case "modelProvider":
			common(key, v, &st.ModelProvider)
		case "model":
			common(key, v, &st.Model)
		case "modelOverride":
			str(key, v, &e.ModelOverride)
		case "provider":
			common(key, v, &provider)
		case "lastProvider":
			str(key, v, &lastProvider)
		case "room":
			str(key, v, &room)
		case "spawnDepth":
			e.SpawnDepth = intp(key, v)
		case "contextTokens":
			st.ContextTokens = i64(key, v)
		case "totalTokens":
			st.TotalTokens = i64(key, v)
		case "inputTokens":
			e.InputTokens = i64(key, v)
		case "outputTokens":
			e.OutputTokens = i64(key, v)
		case "cacheRead":
			e.CacheRead = i64(key, v)
		case "cacheWrite":
			e.CacheWrite = i64(key, v)
		case "compactionCount":
			st.CompactionCount = intp(key, v)
		case "memoryFlushCompactionCount":
			st.MemoryFlushCompactionCount = intp(key, v)
		case "memoryFlushAt":
			if n, ok := num(key, v); ok {
				e.MemoryFlushAt = n
			}
		case "estimatedCostUsd":
			if f, err := strconv.ParseFloat(string(v), 64); err == nil && !math.IsInf(f, 0) {
				st.EstimatedCostUSD = alloc.float64p(f)
			} else if string(v) != "null" {
				bad(key, "a number")
			}
		case "totalTokensFresh":
			e.TotalTokensFresh = boolean(key, v)
		case "systemSent":
			if b := boolean(key, v); b != nil {
				e.SystemSent = *b
			}
		case "abortedLastRun":
			if b := boolean(key, v); b != nil {
				e.AbortedLastRun = *b
			}
		}
		return true
	})
	if rawID != nil {
		st.SessionID = idOf(rawID, st.SessionFile)
	}
	if !ok && problem == "" {
		problem = "the row is not a JSON object"
	}
	if st.Channel == "" {
		st.Channel = provider
	}
	if e == nil {
		return problem
	}
	if e.LastChannel == "" {
		e.LastChannel = lastProvider
	}
	if e.GroupChannel == "" {
		e.GroupChannel = room
	}
	return problem
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
		"contextTokens", "totalTokens", "compactionCount", "memoryFlushCompactionCount", "estimatedCostUsd":
		return true
	}
	return false
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
