package model

import "strings"

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
