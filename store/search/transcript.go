package search

import (
	"bytes"
	"encoding/json"
	"strings"
)

// SplitTranscript makes one Message section per transcript line that holds
// user or assistant text: `{"type":"message","message":{role, content}}`
// (pi, OpenClaw) or a bare `{role, content}`. Content is a string or an
// array of blocks whose `text` blocks are kept (thinking, tool calls, tool
// results and images are not memory anyone searches for). Line numbers
// count every line, so a hit opens the JSONL at the right line. Lines that
// are not JSON are skipped, as pi skips them. base is the line number of
// data's first line and off its byte offset (to index only the appended
// part of a transcript that grew).
func SplitTranscript(data []byte, base, off int) []Section {
	var out []Section
	line := base
	for len(data) > 0 {
		raw, rest, _ := bytes.Cut(data, []byte("\n"))
		if role, text := messageText(raw); text != "" {
			out = append(out, Section{Kind: Message, Line: line, Offset: off, Heading: role, Text: text})
		}
		off += len(raw) + 1
		line++
		data = rest
	}
	return out
}

type messageLine struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Message *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// messageText returns the role and the text of a user or assistant message
// line, or "" when the line holds none.
func messageText(line []byte) (role, text string) {
	line = bytes.TrimSpace(line)
	// Cheap refusals before decoding: most lines of a transcript are tool
	// results and bookkeeping entries.
	if len(line) < 2 || line[0] != '{' || !bytes.Contains(line, []byte(`"role"`)) {
		return "", ""
	}
	var m messageLine
	if json.Unmarshal(line, &m) != nil {
		return "", ""
	}
	role, content := m.Role, m.Content
	if m.Message != nil && m.Type == "message" {
		role, content = m.Message.Role, m.Message.Content
	}
	role = strings.ToLower(strings.TrimSpace(role))
	if role != "user" && role != "assistant" {
		return "", ""
	}
	return role, contentText(content)
}

// contentText joins the text of a message's content, blocks separated by a
// blank line (invalid UTF-8 in the strings decodes to U+FFFD).
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var text string
	switch raw[0] {
	case '"':
		if json.Unmarshal(raw, &text) != nil {
			return ""
		}
	case '[':
		var blocks []json.RawMessage
		if json.Unmarshal(raw, &blocks) != nil {
			return ""
		}
		var parts []string
		for _, raw := range blocks {
			var b struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			// A block of another shape is skipped, not the whole message.
			if json.Unmarshal(raw, &b) == nil && b.Type == "text" && strings.TrimSpace(b.Text) != "" {
				parts = append(parts, b.Text)
			}
		}
		text = strings.Join(parts, "\n\n")
	}
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return text
}
