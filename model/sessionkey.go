package model

import "strings"

// KeyKind classifies a session key by its shape (OpenClaw's routing keys).
type KeyKind uint8

const (
	KindOther KeyKind = iota
	KindMain
	KindDirect
	KindGroup
	KindChannel
	KindCron
	KindCronRun
	KindHook
	KindSubagent
	KindACP
	KindExplicit
	KindGlobal
	// KindUnknown is OpenClaw's "unknown" key, and ClawVault's fallback key
	// agent:<a>:unknown:<id> for transcripts no sessions.json row names.
	KindUnknown
)

var keyKindNames = [...]string{
	KindOther:    "other",
	KindMain:     "main",
	KindDirect:   "direct",
	KindGroup:    "group",
	KindChannel:  "channel",
	KindCron:     "cron",
	KindCronRun:  "cron-run",
	KindHook:     "hook",
	KindSubagent: "subagent",
	KindACP:      "acp",
	KindExplicit: "explicit",
	KindGlobal:   "global",
	KindUnknown:  "unknown",
}

func (k KeyKind) String() string {
	if int(k) < len(keyKindNames) {
		return keyKindNames[k]
	}
	return "other"
}

// SessionKey is a parsed OpenClaw session key such as
// agent:main:telegram:group:-100123:topic:42.
type SessionKey struct {
	Raw     string
	AgentID string // "" when the key is not agent-scoped
	Kind    KeyKind
	Channel string // telegram, discord, slack, … ("" for bare direct keys)
	Account string // the account of agent:<a>:<ch>:<account>:direct:<peer>
	Peer    string // the peer of a direct key
	GroupID string // the group or channel id
	Thread  string // :thread:<id>
	Topic   string // telegram :topic:<n>
	CronJob string
	RunID   string // the session id of a cron run
	ID      string // hook, subagent, acp, explicit or unknown id
	// SubagentDepth counts the ":subagent:" segments.
	SubagentDepth int
	// Heartbeat marks a <base>:heartbeat key.
	Heartbeat bool
}

// ParseSessionKey parses any string; parts it does not recognise leave the
// fields empty and the kind KindOther. It never fails.
func ParseSessionKey(raw string) SessionKey {
	k := SessionKey{Raw: raw}
	switch raw {
	case "global":
		k.Kind = KindGlobal
		return k
	case "unknown":
		k.Kind = KindUnknown
		return k
	}
	parts := strings.Split(raw, ":")
	if len(parts) < 3 || parts[0] != "agent" {
		return k
	}
	k.AgentID = parts[1]
	scope := parts[2:]
	if len(scope) > 1 && scope[len(scope)-1] == "heartbeat" {
		k.Heartbeat = true
		scope = scope[:len(scope)-1]
	}
	k.SubagentDepth = strings.Count(raw, ":subagent:")
	if strings.HasSuffix(raw, ":subagent") {
		k.SubagentDepth++
	}
	at := func(i int) string {
		if i < len(scope) {
			return scope[i]
		}
		return ""
	}
	switch scope[0] {
	case "main":
		k.Kind = KindMain
		return k
	case "direct", "dm":
		k.Kind = KindDirect
		k.Peer = at(1)
		k.parseSuffix(scope, 2)
		return k
	case "cron":
		k.CronJob = at(1)
		k.Kind = KindCron
		if at(2) == "run" {
			k.Kind = KindCronRun
			k.RunID = at(3)
		}
		return k
	case "hook":
		k.Kind, k.ID = KindHook, at(1)
		return k
	case "subagent":
		k.Kind, k.ID = KindSubagent, at(1)
		if k.SubagentDepth > 1 {
			k.ID = scope[len(scope)-1]
		}
		return k
	case "acp":
		k.Kind, k.ID = KindACP, strings.Join(scope[1:], ":")
		return k
	case "explicit":
		k.Kind, k.ID = KindExplicit, strings.Join(scope[1:], ":")
		return k
	case "unknown":
		k.Kind, k.ID = KindUnknown, strings.Join(scope[1:], ":")
		return k
	}
	// <channel>:direct:<peer>, <channel>:<account>:direct:<peer>,
	// <channel>:group|channel:<id>[:topic:<n>][:thread:<id>].
	k.Channel = scope[0]
	rest := 1
	if at(2) == "direct" || at(2) == "dm" {
		k.Account = at(1)
		rest = 2
	}
	switch at(rest) {
	case "direct", "dm":
		k.Kind = KindDirect
		k.Peer = at(rest + 1)
	case "group":
		k.Kind = KindGroup
		k.GroupID = at(rest + 1)
	case "channel":
		k.Kind = KindChannel
		k.GroupID = at(rest + 1)
	default:
		return k
	}
	k.parseSuffix(scope, rest+2)
	return k
}

// parseSuffix reads the :topic:<n> and :thread:<id> pairs that follow a
// direct, group or channel key.
func (k *SessionKey) parseSuffix(scope []string, from int) {
	for i := from; i+1 < len(scope); i += 2 {
		switch scope[i] {
		case "topic":
			k.Topic = scope[i+1]
		case "thread":
			k.Thread = scope[i+1]
		}
	}
}

// ParentKey is the key a thread key hangs off: the part before its last
// :thread: segment, or "" when the key has no thread.
func (k SessionKey) ParentKey() string {
	i := strings.LastIndex(k.Raw, ":thread:")
	if i < 0 {
		return ""
	}
	return k.Raw[:i]
}

// SourceLabel is the label ClawVault 3.5.2 tags observations with
// (parseSessionSourceLabel): main, telegram-dm, telegram-group, discord,
// telegram, slack, or the first scope segment.
func SourceLabel(sessionKey string) string {
	parts := strings.Split(sessionKey, ":")
	if len(parts) < 3 || parts[0] != "agent" {
		return "session"
	}
	scope := parts[2:]
	second := ""
	if len(scope) > 1 {
		second = scope[1]
	}
	switch {
	case scope[0] == "main":
		return "main"
	case scope[0] == "telegram" && second == "dm":
		return "telegram-dm"
	case scope[0] == "telegram" && second == "group":
		return "telegram-group"
	case scope[0] == "discord":
		return "discord"
	case scope[0] == "telegram":
		return "telegram"
	case scope[0] == "slack":
		return "slack"
	case scope[0] == "":
		return "session"
	}
	return scope[0]
}

// ChatKind is OpenClaw's "Kind" column: global, unknown, group (chatType
// group or channel, or a key with :group: or :channel:) or direct.
func ChatKind(sessionKey, chatType string) string {
	switch {
	case sessionKey == "global":
		return "global"
	case sessionKey == "unknown":
		return "unknown"
	case chatType == "group" || chatType == "channel" || chatType == "room",
		strings.Contains(sessionKey, ":group:"), strings.Contains(sessionKey, ":channel:"):
		return "group"
	}
	return "direct"
}
