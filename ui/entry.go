package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/themes"
)

// renderEntry draws one decoded entry for the detail pane: a heading with
// its facts, Markdown text through glamour, thinking dimmed, tool calls as
// indented JSON, and usage and cost. It runs in a command, off the event
// loop, with the theme captured when the command was made.
// where names the entry's position: "line" in a file, "seq" in a SQLite-era
// store.
func renderEntry(c *Common, t *themes.Theme, style string, b *model.EntryBody, e model.Entry, where string, width int) string {
	b = inertBody(b)
	var out []string
	add := func(s string) { out = append(out, s) }
	md := func(text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		if r, err := c.markdown.Render(style, max(20, width-2), text); err == nil {
			add(strings.Trim(r, "\n"))
		} else {
			add(wrap(text, width))
		}
	}
	plain := func(st func(...string) string, text string) {
		if text != "" {
			add(st(wrap(text, width)))
		}
	}
	kind := b.Type
	if b.Role != "" {
		kind = b.Role
	}
	add(t.Title.Render(kind) + t.Muted.Render(fmt.Sprintf("  %s · %s %d · %s", orDash(b.ID), where, e.Line, b.Timestamp)))
	if b.ParentID != "" {
		add(t.Muted.Render("parent " + b.ParentID))
	}
	if b.AppendMode == "side" {
		add(t.Muted.Render("appended aside: OpenClaw does not move the active leaf to it"))
	}
	if b.ExcludeFromContext {
		add(t.Muted.Render("excluded from the model's context"))
	}
	add("")

	switch b.Type {
	case "message", "custom_message":
		if b.Role == "system" {
			add(t.Label.Render("system prompt: " + strings.Join(b.Sections, ", ")))
			if len(b.ToolsAdded)+len(b.ToolsRemoved) > 0 {
				add(t.Muted.Render(wrap(fmt.Sprintf("tools added: %s · removed: %s", orDash(strings.Join(b.ToolsAdded, ", ")), orDash(strings.Join(b.ToolsRemoved, ", "))), width)))
			}
		}
		if b.ToolName != "" {
			state := "result"
			if b.IsError {
				state = t.Error.Render("error")
			}
			add(t.Label.Render(fmt.Sprintf("%s of %s (%s)", state, b.ToolName, b.ToolCallID)))
		}
		if b.Command != "" {
			code := ""
			if b.ExitCode != nil {
				code = fmt.Sprintf(" (exit %d)", *b.ExitCode)
			}
			add(t.Label.Render("$ " + b.Command + code))
		}
		if b.CustomType != "" {
			add(t.Label.Render("custom type " + b.CustomType))
		}
		for _, bl := range b.Blocks {
			switch bl.Kind {
			case model.BlockText:
				if b.Role == "toolResult" || b.Role == "bashExecution" {
					plain(t.Value.Render, bl.Text)
				} else {
					md(bl.Text)
				}
			case model.BlockThinking:
				if bl.Redacted {
					add(t.Muted.Render("thinking (redacted)"))
				} else {
					plain(t.Muted.Render, "thinking: "+bl.Text)
				}
			case model.BlockToolCall:
				add(t.Label.Render("→ " + bl.Name + " " + bl.CallID))
				add(t.Value.Render(inertText(indentJSON(bl.Arguments, "  "))))
			case model.BlockImage:
				add(t.Muted.Render(fmt.Sprintf("[image %s, %s of base64]", bl.MimeType, model.Bytes(int64(bl.DataBytes)))))
			default:
				add(t.Muted.Render("[" + bl.Text + " block]"))
			}
			add("")
		}
		if len(b.Blocks) == 0 && b.StopReason == "aborted" {
			add(t.Muted.Render("aborted before any content"))
		}
		if b.ErrorMessage != "" {
			plain(t.Error.Render, b.ErrorMessage)
		}
		if u := b.Usage; u != nil {
			line := fmt.Sprintf("%s/%s · %s in · %s out · %s cache read · %s cache write · $%.4f",
				b.Provider, b.Model, model.Count(u.Input), model.Count(u.Output), model.Count(u.CacheRead), model.Count(u.CacheWrite), u.Cost)
			if b.StopReason != "" {
				line += " · " + b.StopReason
			}
			if b.Bookkeeping() {
				line += " · bookkeeping row, left out of totals"
			}
			add(t.Muted.Render(wrap(line, width)))
		}
	case "compaction":
		add(t.Label.Render(fmt.Sprintf("%s tokens before · keeps from %s", model.Count(b.TokensBefore), b.FirstKeptEntryID)))
		if b.HasSystemMessage {
			add(t.Muted.Render("with a system prompt checkpoint (pi 1.5)"))
		}
		md(b.Summary)
		files(t, add, b, width)
	case "branch_summary":
		add(t.Label.Render("branch summary from " + b.FromID))
		md(b.Summary)
		files(t, add, b, width)
	case "label":
		if b.Label == "" {
			add("label cleared on " + b.TargetID)
		} else {
			add(fmt.Sprintf("label %q on %s", b.Label, b.TargetID))
		}
	case "session_info":
		add("name: " + b.Name)
	case "model_change":
		add("model → " + b.Provider + "/" + b.ModelID)
	case "thinking_level_change":
		add("thinking level → " + b.ThinkingLevel)
	case "custom":
		add(t.Label.Render("custom type " + b.CustomType + " (state only, never in context)"))
		add(t.Value.Render(inertText(indentJSON(b.Data, "  "))))
	case "reset":
		reason := b.Reason
		if reason == "" {
			reason = "no reason given"
		}
		kept := "nothing from before it"
		if b.FirstKeptEntryID != "" {
			kept = "the user and assistant messages from " + b.FirstKeptEntryID + " on"
		}
		add(t.Label.Render("reset (" + reason + ")"))
		add(wrap("The model's context restarts here, in the same session; it keeps "+kept+".", width))
	case "leaf":
		target := b.TargetID
		if target == "" {
			target = "none (the active branch is cleared)"
		}
		add(t.Label.Render("leaf control → " + target))
		add(wrap("A navigation: OpenClaw makes the target the active leaf; what follows continues from it.", width))
		if b.AppendParentID != "" && b.AppendParentID != b.TargetID {
			add(t.Muted.Render("appends continue from " + b.AppendParentID))
		}
	case "usage":
		add(t.Label.Render("usage: " + orDash(b.Kind)))
		if u := b.Usage; u != nil {
			add(t.Muted.Render(wrap(fmt.Sprintf("%s · %s in · %s out · %s cache read · %s cache write · $%.4f · not a context message",
				b.Model, model.Count(u.Input), model.Count(u.Output), model.Count(u.CacheRead), model.Count(u.CacheWrite), u.Cost), width)))
		}
	case "context_edit":
		if b.ReplacementNull {
			add(t.Label.Render(b.TargetID + " leaves the model's context from here on"))
		} else {
			add(t.Label.Render(b.TargetID + "'s content is replaced in the model's context from here on"))
		}
		add(t.Value.Render(inertText(indentJSON(b.Raw, "  "))))
	default:
		add(t.Value.Render(inertText(indentJSON(b.Raw, ""))))
	}
	return strings.Join(out, "\n")
}

// inertBody is a copy of b with every text escaped for the terminal
// (inert, inertText for the multi-line ones); the JSON fields are escaped
// once indented.
func inertBody(b *model.EntryBody) *model.EntryBody {
	c := *b
	for _, f := range []*string{&c.Type, &c.ID, &c.ParentID, &c.Timestamp, &c.Role, &c.API, &c.Provider, &c.Model, &c.StopReason,
		&c.ToolName, &c.ToolCallID, &c.Command, &c.FirstKeptEntryID, &c.FromID, &c.TargetID, &c.Label, &c.Name, &c.ModelID,
		&c.ThinkingLevel, &c.CustomType, &c.Reason, &c.AppendParentID, &c.AppendMode, &c.Kind} {
		*f = inert(*f)
	}
	c.ErrorMessage, c.Summary = inertText(c.ErrorMessage), inertText(c.Summary)
	c.ReadFiles, c.ModifiedFiles = inertAll(c.ReadFiles), inertAll(c.ModifiedFiles)
	c.Sections, c.ToolsAdded, c.ToolsRemoved = inertAll(c.Sections), inertAll(c.ToolsAdded), inertAll(c.ToolsRemoved)
	c.Blocks = make([]model.Block, len(b.Blocks))
	for i, bl := range b.Blocks {
		bl.Text, bl.Name, bl.CallID, bl.MimeType = inertText(bl.Text), inert(bl.Name), inert(bl.CallID), inert(bl.MimeType)
		c.Blocks[i] = bl
	}
	return &c
}

func inertAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = inert(s)
	}
	return out
}

func files(t *themes.Theme, add func(string), b *model.EntryBody, width int) {
	if len(b.ReadFiles) > 0 {
		add(t.Muted.Render(wrap("read: "+strings.Join(b.ReadFiles, ", "), width)))
	}
	if len(b.ModifiedFiles) > 0 {
		add(t.Muted.Render(wrap("modified: "+strings.Join(b.ModifiedFiles, ", "), width)))
	}
}

func indentJSON(raw json.RawMessage, prefix string) string {
	if len(raw) == 0 {
		return prefix + "{}"
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, prefix, "  "); err != nil {
		return prefix + string(raw)
	}
	return prefix + b.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
