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
	r := &entryRenderer{c: c, t: t, style: style, width: width}
	r.heading(b, e, where)
	switch b.Type {
	case "message", "custom_message":
		r.message(b)
	case "compaction", "branch_summary":
		r.summary(b)
	case "reset", "leaf", "context_edit":
		r.contextControl(b)
	default:
		r.record(b)
	}
	return strings.Join(r.out, "\n")
}

// entryRenderer collects the lines of one entry's rendering.
type entryRenderer struct {
	c     *Common
	t     *themes.Theme
	style string // glamour's style name
	width int
	out   []string
}

func (r *entryRenderer) add(s string) { r.out = append(r.out, s) }

// md adds Markdown text, rendered by glamour (wrapped as it is when
// glamour fails).
func (r *entryRenderer) md(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if out, err := r.c.markdown.Render(r.style, max(20, r.width-2), text); err == nil {
		r.add(strings.Trim(out, "\n"))
	} else {
		r.add(wrap(text, r.width))
	}
}

// plain adds text wrapped to the width, in a style.
func (r *entryRenderer) plain(st func(...string) string, text string) {
	if text != "" {
		r.add(st(wrap(text, r.width)))
	}
}

// json adds a JSON value, indented and coloured.
func (r *entryRenderer) json(raw json.RawMessage, prefix string) {
	r.code("json", inertText(indentJSON(raw, prefix)))
}

// code adds escaped text coloured as code in a language (in the Value
// style when it cannot be).
func (r *entryRenderer) code(lang, text string) {
	if out, ok := colourCode(r.t, lang, text); ok {
		r.add(out)
		return
	}
	r.add(r.t.Value.Render(text))
}

// heading adds the entry's kind and facts: id, position, time, parent.
func (r *entryRenderer) heading(b *model.EntryBody, e model.Entry, where string) {
	t := r.t
	kind := b.Type
	if b.Role != "" {
		kind = b.Role
	}
	r.add(t.Title.Render(kind) + t.Muted.Render(fmt.Sprintf("  %s · %s %d · %s", orDash(b.ID), where, e.Line, b.Timestamp)))
	if b.ParentID != "" {
		r.add(t.Muted.Render("parent " + b.ParentID))
	}
	if b.AppendMode == "side" {
		r.add(t.Muted.Render("appended aside: OpenClaw does not move the active leaf to it"))
	}
	if b.ExcludeFromContext {
		r.add(t.Muted.Render("excluded from the model's context"))
	}
	r.add("")
}

// message adds a message: what kind of message it is, its blocks, and
// how it ended.
func (r *entryRenderer) message(b *model.EntryBody) {
	r.messageFacts(b)
	for _, bl := range b.Blocks {
		r.block(b, bl)
		r.add("")
	}
	if len(b.Blocks) == 0 && b.StopReason == "aborted" {
		r.add(r.t.Muted.Render("aborted before any content"))
	}
	if b.ErrorMessage != "" {
		r.plain(r.t.Error.Render, b.ErrorMessage)
	}
	r.usage(b)
}

// messageFacts adds what a message is besides its text: a system prompt's
// sections, the tool it answers, the command it ran, its custom type.
func (r *entryRenderer) messageFacts(b *model.EntryBody) {
	t := r.t
	if b.Role == "system" {
		r.add(t.Label.Render("system prompt: " + strings.Join(b.Sections, ", ")))
		if len(b.ToolsAdded)+len(b.ToolsRemoved) > 0 {
			r.add(t.Muted.Render(wrap(fmt.Sprintf("tools added: %s · removed: %s", orDash(strings.Join(b.ToolsAdded, ", ")), orDash(strings.Join(b.ToolsRemoved, ", "))), r.width)))
		}
	}
	if b.ToolName != "" {
		state := "result"
		if b.IsError {
			state = t.Error.Render("error")
		}
		r.add(t.Label.Render(fmt.Sprintf("%s of %s (%s)", state, b.ToolName, b.ToolCallID)))
	}
	if b.Command != "" {
		code := ""
		if b.ExitCode != nil {
			code = fmt.Sprintf(" (exit %d)", *b.ExitCode)
		}
		cmd, ok := colourCode(t, "bash", b.Command)
		if !ok {
			cmd = t.Label.Render(b.Command)
		}
		r.add(t.Label.Render("$ ") + cmd + t.Label.Render(code))
	}
	if b.CustomType != "" {
		r.add(t.Label.Render("custom type " + b.CustomType))
	}
}

// block adds one content block of a message.
func (r *entryRenderer) block(b *model.EntryBody, bl model.Block) {
	t := r.t
	switch bl.Kind {
	case model.BlockText:
		switch {
		case (b.Role == "toolResult" || b.Role == "bashExecution") && isJSON(bl.Text):
			r.json(json.RawMessage(strings.TrimSpace(bl.Text)), "")
		case b.Role == "toolResult" || b.Role == "bashExecution":
			r.plain(t.Value.Render, bl.Text)
		default:
			r.md(bl.Text)
		}
	case model.BlockThinking:
		if bl.Redacted {
			r.add(t.Muted.Render("thinking (redacted)"))
		} else {
			r.plain(t.Muted.Render, "thinking: "+bl.Text)
		}
	case model.BlockToolCall:
		r.add(t.Label.Render("→ " + bl.Name + " " + bl.CallID))
		r.json(bl.Arguments, "  ")
	case model.BlockImage:
		r.add(t.Muted.Render(fmt.Sprintf("[image %s, %s of base64]", bl.MimeType, model.Bytes(int64(bl.DataBytes)))))
	default:
		r.add(t.Muted.Render("[" + bl.Text + " block]"))
	}
}

// usage adds a message's model, tokens and cost.
func (r *entryRenderer) usage(b *model.EntryBody) {
	u := b.Usage
	if u == nil {
		return
	}
	line := fmt.Sprintf("%s/%s · %s in · %s out · %s cache read · %s cache write · $%.4f",
		b.Provider, b.Model, model.Count(u.Input), model.Count(u.Output), model.Count(u.CacheRead), model.Count(u.CacheWrite), u.Cost)
	if b.StopReason != "" {
		line += " · " + b.StopReason
	}
	if b.Bookkeeping() {
		line += " · bookkeeping row, left out of totals"
	}
	r.add(r.t.Muted.Render(wrap(line, r.width)))
}

// summary adds a compaction or a branch summary: what it keeps or where
// it comes from, the summary, the files it names.
func (r *entryRenderer) summary(b *model.EntryBody) {
	t := r.t
	if b.Type == "compaction" {
		r.add(t.Label.Render(fmt.Sprintf("%s tokens before · keeps from %s", model.Count(b.TokensBefore), b.FirstKeptEntryID)))
		if b.HasSystemMessage {
			r.add(t.Muted.Render("with a system prompt checkpoint (pi 1.5)"))
		}
	} else {
		r.add(t.Label.Render("branch summary from " + b.FromID))
	}
	r.md(b.Summary)
	if len(b.ReadFiles) > 0 {
		r.add(t.Muted.Render(wrap("read: "+strings.Join(b.ReadFiles, ", "), r.width)))
	}
	if len(b.ModifiedFiles) > 0 {
		r.add(t.Muted.Render(wrap("modified: "+strings.Join(b.ModifiedFiles, ", "), r.width)))
	}
}

// contextControl adds an entry that changes what the model sees from
// here on: a reset, a leaf control, a context edit.
func (r *entryRenderer) contextControl(b *model.EntryBody) {
	t := r.t
	switch b.Type {
	case "reset":
		reason := b.Reason
		if reason == "" {
			reason = "no reason given"
		}
		kept := "nothing from before it"
		if b.FirstKeptEntryID != "" {
			kept = "the user and assistant messages from " + b.FirstKeptEntryID + " on"
		}
		r.add(t.Label.Render("reset (" + reason + ")"))
		r.add(wrap("The model's context restarts here, in the same session; it keeps "+kept+".", r.width))
	case "leaf":
		target := b.TargetID
		if target == "" {
			target = "none (the active branch is cleared)"
		}
		r.add(t.Label.Render("leaf control → " + target))
		r.add(wrap("A navigation: OpenClaw makes the target the active leaf; what follows continues from it.", r.width))
		if b.AppendParentID != "" && b.AppendParentID != b.TargetID {
			r.add(t.Muted.Render("appends continue from " + b.AppendParentID))
		}
	case "context_edit":
		if b.ReplacementNull {
			r.add(t.Label.Render(b.TargetID + " leaves the model's context from here on"))
		} else {
			r.add(t.Label.Render(b.TargetID + "'s content is replaced in the model's context from here on"))
		}
		r.json(b.Raw, "  ")
	}
}

// record adds an entry that keeps state beside the conversation (labels,
// names, model and thinking changes, usage, custom state), or any other
// kind as its JSON.
func (r *entryRenderer) record(b *model.EntryBody) {
	t := r.t
	switch b.Type {
	case "label":
		if b.Label == "" {
			r.add("label cleared on " + b.TargetID)
		} else {
			r.add(fmt.Sprintf("label %q on %s", b.Label, b.TargetID))
		}
	case "session_info":
		r.add("name: " + b.Name)
	case "model_change":
		r.add("model → " + b.Provider + "/" + b.ModelID)
	case "thinking_level_change":
		r.add("thinking level → " + b.ThinkingLevel)
	case "custom":
		r.add(t.Label.Render("custom type " + b.CustomType + " (state only, never in context)"))
		r.json(b.Data, "  ")
	case "usage":
		r.add(t.Label.Render("usage: " + orDash(b.Kind)))
		if u := b.Usage; u != nil {
			r.add(t.Muted.Render(wrap(fmt.Sprintf("%s · %s in · %s out · %s cache read · %s cache write · $%.4f · not a context message",
				b.Model, model.Count(u.Input), model.Count(u.Output), model.Count(u.CacheRead), model.Count(u.CacheWrite), u.Cost), r.width)))
		}
	default:
		r.json(b.Raw, "")
	}
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

// isJSON reports a tool's output that is a JSON object or array, to be
// shown indented and coloured.
func isJSON(text string) bool {
	text = strings.TrimSpace(text)
	return len(text) > 1 && (text[0] == '{' || text[0] == '[') && json.Valid([]byte(text))
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
