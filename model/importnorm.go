package model

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"clawvault-tui/jscompat"
)

// OpenClaw's importer (`openclaw doctor --session-sqlite import`, the same
// in 2026.9.5 and 2026.9.6) turns each line of a JSONL transcript into the
// event it stores, and the checks of leftover JSONL against a store must
// compute the same event. What it does, in order (its
// doctor-session-sqlite-readers, session-manager-codec, transcript-payload,
// legacy-transcript-repair and sqlite-transcript-store modules):
//
//   - the file is read as UTF-8 in chunks of 64 KiB and split on "\n";
//     each line is trimmed (String.prototype.trim) and a blank one skipped;
//   - each line is JSON.parse'd; a value that is falsy (null, false, 0, "")
//     is skipped and counts for nothing; the first line that does not parse
//     (or bytes that are not UTF-8) ends the file: what follows is never
//     read;
//   - an assistant or toolResult message whose content is a string gets
//     [{type:"text",text}] (and loses a compaction replay checkpoint); a
//     toolResult whose content is one object gets [content];
//   - the first record whose type is "session" is the header: its id
//     becomes the session id, its timestamp and cwd strings ("" when not
//     strings), and a sessionId property goes; its version (a number, else
//     1) is the file's;
//   - every other record is classified by OpenClaw's schemas; one that is
//     recognized is migrated to version 3 (files of version 1 get ids and
//     parent links from the importer; version 2's hookMessage role becomes
//     custom); one that is not is stored as it is;
//   - a message's legacy provider codex or openai-codex becomes openai, its
//     api openai-codex-responses openai-chatgpt-responses;
//   - the event is JSON.stringify'd; one identical to an event already
//     stored is not stored again, nor one whose id (trimmed) an event
//     already holds.
//
// ImportPlan and ImportNormalizer compute these events. Two steps are not
// reproduced: user media fields (Media*, media) canonicalised into
// __openclaw.media, and the repair of branches left by an interrupted
// prompt rewrite (runtime-context prompts only); entries they change are
// found different, by id, as OpenClaw's own verification finds them.

// ImportPlan is what the importer learns of a file before it reads it for
// events: the header's place and the file's version.
type ImportPlan struct {
	SessionID string
	// HeaderIndex is the header's record index (-1: none); records are
	// counted from 0, skipped (falsy) values not counted.
	HeaderIndex int
	// Version is the header's version (1 without one).
	Version float64
	// V1Prefix names the ids the importer gives a version-1 file's
	// entries: the first 16 hex digits of SHA-256(original path, NUL,
	// session id).
	V1Prefix string
	// CompactionTargets are the record indexes a version-1 compaction's
	// firstKeptEntryIndex names.
	CompactionTargets map[int]bool
}

// ImportV1Prefix is the prefix of the ids the importer gives the entries
// of a version-1 file imported from path.
func ImportV1Prefix(path, sessionID string) string {
	sum := sha256.Sum256([]byte(path + "\x00" + sessionID))
	return hex.EncodeToString(sum[:])[:16]
}

// PlanRecord feeds the plan one record (a parsed, non-falsy line) at
// record index i; it returns true once the plan needs no more records.
func (p *ImportPlan) PlanRecord(i int, v *jscompat.Value) bool {
	if p.HeaderIndex < 0 && v.IsRecord() && isStr(v.Field("type"), "session") {
		p.HeaderIndex = i
		p.Version = 1
		if ver := v.Field("version"); ver != nil && ver.Kind == jscompat.Number {
			p.Version = ver.Num
		}
		if p.Version >= 2 {
			return true
		}
	}
	if v.IsRecord() && isStr(v.Field("type"), "compaction") {
		if k := v.Field("firstKeptEntryIndex"); k != nil && k.Kind == jscompat.Number && k.Num >= 0 && k.Num == float64(int(k.Num)) {
			if p.CompactionTargets == nil {
				p.CompactionTargets = map[int]bool{}
			}
			p.CompactionTargets[int(k.Num)] = true
		}
	}
	return false
}

// ImportNormalizer turns records into events, in file order.
type ImportNormalizer struct {
	Plan ImportPlan
	// previous is the last migrated id of a version-1 file (nil: null).
	previous *jscompat.Value
	targets  map[int]string
}

// Normalize returns the JSON of the event the importer stores for record
// i (a parsed, non-falsy line), and its identity (the trimmed id, "" for
// none), changing v.
func (n *ImportNormalizer) Normalize(i int, v *jscompat.Value) (event []byte, id string) {
	normalizeLoadedEntry(v)
	if i == n.Plan.HeaderIndex && v.IsRecord() {
		o := v.Obj.Clone()
		o.Set("id", jscompat.NewString(n.Plan.SessionID))
		o.Set("type", jscompat.NewString("session"))
		o.Set("timestamp", jscompat.NewString(strOr(o, "timestamp")))
		o.Set("cwd", jscompat.NewString(strOr(o, "cwd")))
		o.Delete("sessionId")
		v = jscompat.NewObject(o)
		n.migrate(i, v)
	} else if e, ok := classifyEntry(v, n.Plan.Version); ok {
		v = e
		n.migrate(i, v)
	}
	normalizeCodexMessage(v)
	return v.AppendJSON(nil), eventIdentity(v)
}

// normalizeLoadedEntry is the codec's normalizeLoadedFileEntry.
func normalizeLoadedEntry(v *jscompat.Value) {
	if !v.IsRecord() || !isStr(v.Field("type"), "message") || !v.Field("message").IsRecord() {
		return
	}
	m := v.Field("message").Obj
	role, _ := m.Get("role")
	content, _ := m.Get("content")
	switch {
	case (isStr(role, "assistant") || isStr(role, "toolResult")) && content.IsString():
		block := &jscompat.Object{}
		block.Set("type", jscompat.NewString("text"))
		block.Set("text", content)
		m.Set("content", &jscompat.Value{Kind: jscompat.Array, Arr: []*jscompat.Value{jscompat.NewObject(block)}})
		if r, ok := m.Get("providerReplay"); ok && r.IsRecord() {
			switch t := r.Field("type"); {
			case isStr(t, "anthropic-compaction"), isStr(t, "openai-responses-compaction"), isStr(t, "openai-responses-retained-compaction"):
				m.Delete("providerReplay")
			}
		}
	case isStr(role, "toolResult") && content.IsRecord():
		m.Set("content", &jscompat.Value{Kind: jscompat.Array, Arr: []*jscompat.Value{content}})
	}
}

// migrate is migrateSessionFileEntryToCurrentVersion.
func (n *ImportNormalizer) migrate(i int, v *jscompat.Value) {
	o := v.Obj
	session := isStr(v.Field("type"), "session")
	if n.Plan.Version < 2 {
		if session {
			o.Set("version", &jscompat.Value{Kind: jscompat.Number, Num: 2})
		} else {
			id := jscompat.NewString(n.Plan.V1Prefix + "-" + strconv.FormatInt(int64(i), 36))
			o.Set("id", id)
			if n.previous == nil {
				o.Set("parentId", &jscompat.Value{Kind: jscompat.Null})
			} else {
				o.Set("parentId", n.previous)
			}
			n.previous = id
			n.compactionTarget(o)
			if n.Plan.CompactionTargets[i] {
				if n.targets == nil {
					n.targets = map[int]string{}
				}
				n.targets[i] = id.Str
			}
		}
	}
	if n.Plan.Version < 3 {
		if session {
			o.Set("version", &jscompat.Value{Kind: jscompat.Number, Num: 3})
		} else if isStr(v.Field("type"), "message") && v.Field("message").Truthy() && v.Field("message").IsRecord() {
			m := v.Field("message").Obj
			if r, _ := m.Get("role"); isStr(r, "hookMessage") {
				m.Set("role", jscompat.NewString("custom"))
				if c, ok := m.Get("customType"); !ok || !c.Truthy() {
					m.Set("customType", jscompat.NewString("hook"))
				}
			}
		}
	}
}

// compactionTarget turns a version-1 compaction's firstKeptEntryIndex into
// the firstKeptEntryId of the entry it named, when that one came before.
func (n *ImportNormalizer) compactionTarget(o *jscompat.Object) {
	t, _ := o.Get("type")
	k, ok := o.Get("firstKeptEntryIndex")
	if !isStr(t, "compaction") || !ok || k.Kind != jscompat.Number {
		return
	}
	if k.Num == float64(int(k.Num)) {
		if id, ok := n.targets[int(k.Num)]; ok {
			o.Set("firstKeptEntryId", jscompat.NewString(id))
		}
	}
	o.Delete("firstKeptEntryIndex")
}

// normalizeCodexMessage is normalizeLegacyOpenAICodexTranscriptMetadata.
func normalizeCodexMessage(v *jscompat.Value) {
	m := v.Field("message")
	if !m.IsRecord() {
		return
	}
	if p, ok := m.Obj.Get("provider"); ok && p.IsString() {
		switch jscompat.JSToLower(jscompat.JSTrim(p.Str)) {
		case "codex", "openai-codex":
			m.Obj.Set("provider", jscompat.NewString("openai"))
		}
	}
	if isStr(m.Field("api"), "openai-codex-responses") {
		m.Obj.Set("api", jscompat.NewString("openai-chatgpt-responses"))
	}
}

// eventIdentity is the id the store's identities table holds for an
// event: its id, trimmed, when that is a non-blank string.
func eventIdentity(v *jscompat.Value) string {
	if id := v.Field("id"); id.IsString() {
		return jscompat.JSTrim(id.Str)
	}
	return ""
}

func isStr(v *jscompat.Value, s string) bool { return v.IsString() && v.Str == s }

func strOr(o *jscompat.Object, key string) string {
	if v, ok := o.Get(key); ok && v.IsString() {
		return v.Str
	}
	return ""
}
