package store

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// decodeSessionEntry reads one sessions.json row into e without
// reflection: a store of 10,000 rows must load in a fraction of status's
// 250 ms budget, and encoding/json alone took longer. With full, every
// named field is decoded and Raw keeps the row as written; without, only
// the fields a scan's readers use (statusField), and the row's bytes are
// not kept. A field of an unexpected type is skipped and named in problem;
// the rest of the row is kept. OpenClaw's load-time renames
// (provider→channel, lastProvider→lastChannel, room→groupChannel) are
// applied.
func decodeSessionEntry(raw []byte, full bool, e *model.SessionEntry) (problem string) {
	if full {
		e.Raw = raw
	}
	var provider, lastProvider, room string
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
	i64 := func(key, v []byte) *int64 {
		if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
			if n, ok := jsonscan.Int(v); ok {
				return &n
			}
		}
		if string(v) != "null" {
			bad(key, "a number")
		}
		return nil
	}
	intp := func(key, v []byte) *int {
		if n := i64(key, v); n != nil {
			m := int(*n)
			return &m
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
		if !full && !statusField(string(name)) {
			return true
		}
		switch string(name) {
		case "sessionId":
			if len(v) > 0 && v[0] == '"' {
				e.SessionID = jsonscan.Unquote(v)
			}
		case "updatedAt":
			_ = e.UpdatedAt.UnmarshalJSON(v)
		case "sessionFile":
			str(key, v, &e.SessionFile)
		case "label":
			str(key, v, &e.Label)
		case "displayName":
			str(key, v, &e.DisplayName)
		case "chatType":
			str(key, v, &e.ChatType)
		case "channel":
			str(key, v, &e.Channel)
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
			str(key, v, &e.ModelProvider)
		case "model":
			str(key, v, &e.Model)
		case "modelOverride":
			str(key, v, &e.ModelOverride)
		case "provider":
			str(key, v, &provider)
		case "lastProvider":
			str(key, v, &lastProvider)
		case "room":
			str(key, v, &room)
		case "spawnDepth":
			e.SpawnDepth = intp(key, v)
		case "contextTokens":
			e.ContextTokens = i64(key, v)
		case "totalTokens":
			e.TotalTokens = i64(key, v)
		case "inputTokens":
			e.InputTokens = i64(key, v)
		case "outputTokens":
			e.OutputTokens = i64(key, v)
		case "cacheRead":
			e.CacheRead = i64(key, v)
		case "cacheWrite":
			e.CacheWrite = i64(key, v)
		case "compactionCount":
			e.CompactionCount = intp(key, v)
		case "memoryFlushCompactionCount":
			e.MemoryFlushCompactionCount = intp(key, v)
		case "memoryFlushAt":
			if n := i64(key, v); n != nil {
				e.MemoryFlushAt = *n
			}
		case "estimatedCostUsd":
			if f, err := strconv.ParseFloat(string(v), 64); err == nil && !math.IsInf(f, 0) {
				e.EstimatedCostUSD = &f
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
	if !ok && problem == "" {
		problem = "the row is not a JSON object"
	}
	if e.Channel == "" {
		e.Channel = provider
	}
	if e.LastChannel == "" {
		e.LastChannel = lastProvider
	}
	if e.GroupChannel == "" {
		e.GroupChannel = room
	}
	return problem
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
