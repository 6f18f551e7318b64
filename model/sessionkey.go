package model

import "strings"

// SourceLabel is the label ClawVault 3.5.2 tags observations with
// (parseSessionSourceLabel): main, telegram-dm, telegram-group, discord,
// telegram, slack, or the first scope segment.
func SourceLabel(sessionKey string) string {
	// The fields after agent:<id>: are cut out, not split into a slice:
	// status labels 50,000 rows.
	rest, ok := strings.CutPrefix(sessionKey, "agent:")
	if !ok {
		return "session"
	}
	_, rest, ok = strings.Cut(rest, ":")
	if !ok {
		return "session"
	}
	first, rest, _ := strings.Cut(rest, ":")
	second, _, _ := strings.Cut(rest, ":")
	switch {
	case first == "main":
		return "main"
	case first == "telegram" && second == "dm":
		return "telegram-dm"
	case first == "telegram" && second == "group":
		return "telegram-group"
	case first == "discord":
		return "discord"
	case first == "telegram":
		return "telegram"
	case first == "slack":
		return "slack"
	case first == "":
		return "session"
	}
	return first
}
