package model

import "clawvault-tui/jscompat"

// OpenClaw's transcript schemas (transcript-payload's indexedSessionEntry
// and readableMessage, zod looseObjects: the fields named must have their
// types, any others pass), which decide whether the importer migrates an
// entry or stores it as it is.

// classifyEntry is classifySessionFileEntry: the entry as the importer
// keeps it (a custom message without a customType gets "hook" when that
// makes it recognized), and whether it is recognized.
func classifyEntry(v *jscompat.Value, version float64) (*jscompat.Value, bool) {
	e := withHookType(v)
	if version < 3 && readableLegacyEntry(e) || indexedEntry(e) {
		return e, true
	}
	return v, false
}

// withHookType is normalizePersistedLegacyHookMessage.
func withHookType(v *jscompat.Value) *jscompat.Value {
	m := v.Field("message")
	if !isStr(v.Field("type"), "message") || !m.IsRecord() {
		return v
	}
	if !isStr(m.Field("role"), "custom") || m.Obj.Has("customType") || !readableContent(m.Field("content")) {
		return v
	}
	msg := m.Obj.Clone()
	msg.Set("customType", jscompat.NewString("hook"))
	o := v.Obj.Clone()
	o.Set("message", jscompat.NewObject(msg))
	return jscompat.NewObject(o)
}

// readableContent: a string, or an array of objects each with a string type.
func readableContent(v *jscompat.Value) bool {
	if v.IsString() {
		return true
	}
	if v == nil || v.Kind != jscompat.Array {
		return false
	}
	for _, e := range v.Arr {
		if !e.IsRecord() || !e.Field("type").IsString() {
			return false
		}
	}
	return true
}

// readableMessage is readableMessageSchema, by role.
func readableMessage(m *jscompat.Value) bool {
	if !m.IsRecord() {
		return false
	}
	role := m.Field("role")
	switch {
	case isStr(role, "user"), isStr(role, "assistant"):
		return readableContent(m.Field("content"))
	case isStr(role, "toolResult"):
		c := m.Field("content")
		return m.Field("toolCallId").IsString() && m.Field("toolName").IsString() && isBool(m.Field("isError")) && c != nil && c.Kind == jscompat.Array
	case isStr(role, "custom"):
		return m.Field("customType").IsString() && readableContent(m.Field("content"))
	case isStr(role, "bashExecution"):
		return m.Field("command").IsString() && m.Field("output").IsString()
	}
	return false
}

// sessionEntryTypes are sessionEntryTypeSchema's.
var sessionEntryTypes = []string{"message", "thinking_level_change", "model_change", "compaction", "reset", "branch_summary",
	"custom", "custom_message", "label", "session_info"}

// readableLegacyEntry is isReadableLegacySessionEntry (files before
// version 3).
func readableLegacyEntry(v *jscompat.Value) bool {
	if !v.IsRecord() {
		return false
	}
	t := v.Field("type")
	known := false
	for _, s := range sessionEntryTypes {
		known = known || isStr(t, s)
	}
	if !known {
		return false
	}
	if !isStr(t, "message") {
		return true
	}
	m := v.Field("message")
	if m.IsRecord() && isStr(m.Field("role"), "hookMessage") {
		return readableContent(m.Field("content"))
	}
	return readableMessage(m)
}

// indexedEntry is isIndexedSessionEntry.
func indexedEntry(v *jscompat.Value) bool {
	if !v.IsRecord() || !nonEmpty(v.Field("id")) || !optional(v, "timestamp", (*jscompat.Value).IsString) {
		return false
	}
	if p, ok := v.Obj.Get("parentId"); ok && !p.IsString() && p.Kind != jscompat.Null {
		return false
	}
	f := v.Field
	switch t := f("type"); {
	case isStr(t, "message"):
		return readableMessage(f("message"))
	case isStr(t, "thinking_level_change"):
		return nonEmpty(f("thinkingLevel"))
	case isStr(t, "model_change"):
		return nonEmpty(f("provider")) && nonEmpty(f("modelId"))
	case isStr(t, "compaction"):
		tb := f("tokensBefore")
		return f("summary").IsString() && nonEmpty(f("firstKeptEntryId")) && tb != nil && tb.Kind == jscompat.Number
	case isStr(t, "reset"):
		return resetReason(f("reason")) && optional(v, "firstKeptEntryId", (*jscompat.Value).IsString)
	case isStr(t, "branch_summary"):
		return f("fromId").IsString() && f("summary").IsString()
	case isStr(t, "custom"):
		return nonEmpty(f("customType"))
	case isStr(t, "custom_message"):
		return nonEmpty(f("customType")) && readableContent(f("content")) && isBool(f("display"))
	case isStr(t, "label"):
		return nonEmpty(f("targetId")) && optional(v, "label", (*jscompat.Value).IsString)
	case isStr(t, "session_info"):
		return optional(v, "name", (*jscompat.Value).IsString)
	}
	return false
}

// resetReason: zod's coerced string (String(value)) is one of the reasons.
func resetReason(v *jscompat.Value) bool {
	if v == nil {
		return false
	}
	switch jsString(v) {
	case "new", "reset", "idle", "daily", "cron-stale":
		return true
	}
	return false
}

// jsString is String(v) for the values that can make a reason: a string, a
// number, a boolean, null, and arrays of those (joined by commas).
func jsString(v *jscompat.Value) string {
	switch v.Kind {
	case jscompat.String:
		return v.Str
	case jscompat.Null:
		return "null"
	case jscompat.True:
		return "true"
	case jscompat.False:
		return "false"
	case jscompat.Number:
		return string(jscompat.AppendJSNumber(nil, v.Num))
	case jscompat.Array:
		s := ""
		for i, e := range v.Arr {
			if i > 0 {
				s += ","
			}
			if e.Kind != jscompat.Null {
				s += jsString(e)
			}
		}
		return s
	}
	return "[object Object]"
}

// nonEmpty is z.string().min(1).
func nonEmpty(v *jscompat.Value) bool { return v.IsString() && v.Str != "" }

func isBool(v *jscompat.Value) bool {
	return v != nil && (v.Kind == jscompat.True || v.Kind == jscompat.False)
}

// optional: the key is absent, or its value passes (JSON has no undefined).
func optional(v *jscompat.Value, key string, ok func(*jscompat.Value) bool) bool {
	f, has := v.Obj.Get(key)
	return !has || ok(f)
}
