package transcript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"clawvault-tui/model"
)

// asJSONParse decodes as JavaScript's JSON.parse reads what pi and OpenClaw
// wrote: names match exactly ("TYPE" is not "type"; encoding/json would
// take it for one), the last of a repeated name wins, and bytes that are
// not UTF-8 are kept, not refused.
var asJSONParse = []jsonv2.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// lenient is asJSONParse where a value of the wrong kind for its field (an
// object as "type", a number as "id") reads as nothing: JSON.parse takes
// such a line, and pi and OpenClaw find no string there. It is the second
// try of a line the first one refused, so that a well-formed line pays
// nothing for it.
var lenient = append(slices.Clip(asJSONParse), jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(skipWrongKind)))

// skipWrongKind skips a value below the top level that its Go field cannot
// hold; the others decode as usual.
func skipWrongKind(dec *jsontext.Decoder, v any) error {
	if dec.StackDepth() == 0 || fits(dec.PeekKind(), reflect.TypeOf(v).Elem()) {
		return errors.ErrUnsupported
	}
	return dec.SkipValue()
}

var v1Unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// fits reports whether a JSON value of kind k can decode into a t.
func fits(k jsontext.Kind, t reflect.Type) bool {
	if k == 'n' || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(v1Unmarshaler) {
		return true // null is every type's zero value; json.RawMessage takes anything
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch k {
	case '"':
		return t.Kind() == reflect.String
	case '0':
		return t.Kind() >= reflect.Int && t.Kind() <= reflect.Float64
	case 't', 'f':
		return t.Kind() == reflect.Bool
	case '{':
		return t.Kind() == reflect.Struct || t.Kind() == reflect.Map
	case '[':
		return t.Kind() == reflect.Slice || t.Kind() == reflect.Array
	}
	return false
}

// wireEntry is a transcript line as pi writes it, for decoding in full.
type wireEntry struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ParentID  *string         `json:"parentId"`
	Timestamp string          `json:"timestamp"`
	Message   *wireMessage    `json:"message"`
	Summary   json.RawMessage `json:"summary"`
	FirstKept string          `json:"firstKeptEntryId"`
	Tokens    int64           `json:"tokensBefore"`
	FromID    string          `json:"fromId"`
	Details   *struct {
		ReadFiles     []string `json:"readFiles"`
		ModifiedFiles []string `json:"modifiedFiles"`
	} `json:"details"`
	TargetID      string          `json:"targetId"`
	Label         string          `json:"label"`
	Name          string          `json:"name"`
	Provider      string          `json:"provider"`
	ModelID       string          `json:"modelId"`
	ThinkingLevel string          `json:"thinkingLevel"`
	CustomType    string          `json:"customType"`
	Content       json.RawMessage `json:"content"`
	Display       bool            `json:"display"`
	Data          json.RawMessage `json:"data"`
	// OpenClaw 2026.9 (reset, leaf, side appends) and pi 1.5 (usage,
	// context_edit, a compaction's system checkpoint).
	Reason         string          `json:"reason"`
	AppendMode     string          `json:"appendMode"`
	AppendParentID *string         `json:"appendParentId"`
	Replacement    json.RawMessage `json:"replacement"`
	Kind           string          `json:"kind"`
	Model          string          `json:"model"`
	Usage          *wireUsage      `json:"usage"`
	SystemMessage  json.RawMessage `json:"systemMessage"`
}

type wireUsage struct {
	Input       int64 `json:"input"`
	Output      int64 `json:"output"`
	CacheRead   int64 `json:"cacheRead"`
	CacheWrite  int64 `json:"cacheWrite"`
	TotalTokens int64 `json:"totalTokens"`
	Cost        *struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

func (u *wireUsage) model() *model.Usage {
	if u == nil {
		return nil
	}
	m := &model.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, TotalTokens: u.TotalTokens}
	if u.Cost != nil {
		m.Cost = u.Cost.Total
	}
	return m
}

type wireMessage struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	API          string          `json:"api"`
	Provider     string          `json:"provider"`
	Model        string          `json:"model"`
	StopReason   string          `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
	Usage        *wireUsage      `json:"usage"`
	ToolName     string          `json:"toolName"`
	ToolCallID   string          `json:"toolCallId"`
	IsError      bool            `json:"isError"`
	Command      string          `json:"command"`
	Output       string          `json:"output"`
	ExitCode     *int            `json:"exitCode"`
	CustomType   string          `json:"customType"`
	// pi 1.5 system messages: prompt sections and tool changes.
	Sections     map[string]json.RawMessage `json:"sections"`
	ToolsAdded   []struct{ Name string }    `json:"toolsAdded"`
	ToolsRemoved []struct{ Name string }    `json:"toolsRemoved"`
	Excluded     bool                       `json:"excludeFromContext"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Redacted  bool            `json:"redacted"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	MimeType  string          `json:"mimeType"`
	Data      json.RawMessage `json:"data"`
}

// DecodeBody decodes one line in full. A line that the index accepted but
// that does not decode (a bad escape, say) is an error naming its number.
func DecodeBody(line []byte, lineNo int32) (*model.EntryBody, error) {
	return DecodeEntry(line, fmt.Sprintf("line %d", lineNo))
}

// DecodeEntry decodes one transcript entry, a JSON object: a JSONL line or
// a SQLite transcript event alike. where names it in an error ("line 12",
// "event seq 12").
func DecodeEntry(line []byte, where string) (*model.EntryBody, error) {
	var w wireEntry
	if err := jsonv2.Unmarshal(line, &w, asJSONParse...); err != nil {
		w = wireEntry{}
		if _, wrongKind := errors.AsType[*jsonv2.SemanticError](err); !wrongKind || jsonv2.Unmarshal(line, &w, lenient...) != nil {
			return nil, fmt.Errorf("%s does not decode: %v", where, err)
		}
	}
	b := &model.EntryBody{
		Type: w.Type, ID: w.ID, Timestamp: w.Timestamp, FirstKeptEntryID: w.FirstKept, TokensBefore: w.Tokens,
		FromID: w.FromID, TargetID: w.TargetID, Label: w.Label, Name: w.Name, Provider: w.Provider,
		ModelID: w.ModelID, ThinkingLevel: w.ThinkingLevel, CustomType: w.CustomType, Display: w.Display,
		Data: w.Data, Raw: line, Reason: w.Reason, AppendMode: w.AppendMode, Kind: w.Kind,
		HasSystemMessage: len(w.SystemMessage) > 0 && string(w.SystemMessage) != "null",
	}
	if w.AppendParentID != nil {
		b.AppendParentID = *w.AppendParentID
	}
	switch w.Type {
	case "context_edit":
		b.ReplacementNull = string(w.Replacement) == "null"
	case "usage":
		b.Model, b.Usage = w.Model, w.Usage.model()
	}
	if w.ParentID != nil {
		b.ParentID = *w.ParentID
	}
	_ = json.Unmarshal(w.Summary, &b.Summary)
	if w.Details != nil {
		b.ReadFiles, b.ModifiedFiles = w.Details.ReadFiles, w.Details.ModifiedFiles
	}
	if len(w.Content) > 0 { // custom_message
		b.Blocks = decodeBlocks(w.Content)
	}
	if m := w.Message; m != nil {
		b.Role, b.API, b.Provider, b.Model = m.Role, m.API, m.Provider, m.Model
		b.StopReason, b.ErrorMessage = m.StopReason, m.ErrorMessage
		b.ToolName, b.ToolCallID, b.IsError = m.ToolName, m.ToolCallID, m.IsError
		b.Command, b.ExitCode = m.Command, m.ExitCode
		if m.CustomType != "" {
			b.CustomType = m.CustomType
		}
		b.Blocks = decodeBlocks(m.Content)
		if m.Role == "bashExecution" && m.Output != "" {
			b.Blocks = append(b.Blocks, model.Block{Kind: model.BlockText, Text: m.Output})
		}
		b.Usage = m.Usage.model()
		b.ExcludeFromContext = m.Excluded
		for name := range m.Sections {
			b.Sections = append(b.Sections, name)
		}
		slices.Sort(b.Sections)
		for _, t := range m.ToolsAdded {
			b.ToolsAdded = append(b.ToolsAdded, t.Name)
		}
		for _, t := range m.ToolsRemoved {
			b.ToolsRemoved = append(b.ToolsRemoved, t.Name)
		}
	}
	return b, nil
}

// decodeBlocks reads content that is a string or an array of blocks.
func decodeBlocks(raw json.RawMessage) []model.Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []model.Block{{Kind: model.BlockText, Text: s}}
	}
	var wire []wireBlock
	if json.Unmarshal(raw, &wire) != nil {
		return nil
	}
	out := make([]model.Block, 0, len(wire))
	for _, w := range wire {
		switch w.Type {
		case "text":
			out = append(out, model.Block{Kind: model.BlockText, Text: w.Text})
		case "thinking":
			out = append(out, model.Block{Kind: model.BlockThinking, Text: w.Thinking, Redacted: w.Redacted})
		case "toolCall":
			out = append(out, model.Block{Kind: model.BlockToolCall, Name: w.Name, CallID: w.ID, Arguments: w.Arguments})
		case "image":
			out = append(out, model.Block{Kind: model.BlockImage, MimeType: w.MimeType, DataBytes: len(w.Data)})
		default:
			out = append(out, model.Block{Kind: model.BlockOther, Text: w.Type})
		}
	}
	return out
}

// ReadBody reads and decodes the entry at e.
func ReadBody(r io.ReaderAt, e model.Entry) (*model.EntryBody, error) {
	line, err := ReadLine(r, e)
	if err != nil {
		return nil, err
	}
	return DecodeBody(line, e.Line)
}

// PreviewLine is one entry's row text, with what its body says about the
// entry that an index may not know: the role of a message. A SQLite-era
// index is built from the store's identity rows, which hold no role, so the
// roles of the rows on screen come with their previews.
type PreviewLine struct {
	Text string
	Role model.Role // RoleNone for an entry that is not a message or was not read
}

// PreviewLines is a Reader's Previews over its way of reading one body:
// an entry that cannot be read shows why instead of its text; a cancel
// stops it between entries.
func PreviewLines(ctx context.Context, entries []model.Entry, width int, body func(model.Entry) (*model.EntryBody, error)) ([]PreviewLine, error) {
	out := make([]PreviewLine, len(entries))
	for i, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := body(e)
		switch {
		case err != nil:
			out[i].Text = "(" + err.Error() + ")"
		case b.Type == "message":
			out[i] = PreviewLine{Text: Preview(b, width), Role: model.ParseRole(b.Role)}
		default:
			out[i].Text = Preview(b, width)
		}
	}
	return out, nil
}

// Preview is one line of text that says what an entry is, for a tree row.
func Preview(b *model.EntryBody, width int) string {
	var s string
	switch b.Type {
	case "message":
		s = messagePreview(b)
	case "compaction":
		s = "compaction: " + firstLine(b.Summary)
	case "branch_summary":
		s = "branch summary: " + firstLine(b.Summary)
	case "label":
		if b.Label == "" {
			s = "label cleared on " + b.TargetID
		} else {
			s = fmt.Sprintf("label %q on %s", b.Label, b.TargetID)
		}
	case "session_info":
		s = "name: " + b.Name
	case "model_change":
		s = "model → " + b.Provider + "/" + b.ModelID
	case "thinking_level_change":
		s = "thinking → " + b.ThinkingLevel
	case "custom":
		s = "custom " + b.CustomType
	case "custom_message":
		s = b.CustomType + ": " + firstLine(b.Text())
	case "session":
		s = "session header"
	case "reset":
		s = "reset"
		if b.Reason != "" {
			s += " (" + b.Reason + ")"
		}
		if b.FirstKeptEntryID != "" {
			s += ": the context restarts, keeping from " + b.FirstKeptEntryID
		} else {
			s += ": the context restarts"
		}
	case "leaf":
		if b.TargetID == "" {
			s = "leaf → none (the active branch is cleared)"
		} else {
			s = "leaf → " + b.TargetID
		}
	case "usage":
		s = "usage " + b.Kind
		if b.Usage != nil {
			s += fmt.Sprintf(" · %s tokens · $%.4g", model.Count(b.Usage.TotalTokens), b.Usage.Cost)
		}
	case "context_edit":
		if b.ReplacementNull {
			s = "context edit: " + b.TargetID + " leaves the context"
		} else {
			s = "context edit: " + b.TargetID + " replaced in the context"
		}
	default:
		s = b.Type
	}
	return clip(s, width)
}

func messagePreview(b *model.EntryBody) string {
	if b.Role == "system" {
		s := "system prompt"
		if len(b.Sections) > 0 {
			s += ": " + strings.Join(b.Sections, ", ")
		}
		if n := len(b.ToolsAdded) + len(b.ToolsRemoved); n > 0 {
			s += fmt.Sprintf(" (+%d/−%d tools)", len(b.ToolsAdded), len(b.ToolsRemoved))
		}
		return s
	}
	if t := b.Text(); t != "" {
		return firstLine(t)
	}
	var parts []string
	for _, bl := range b.Blocks {
		switch bl.Kind {
		case model.BlockToolCall:
			parts = append(parts, "→ "+bl.Name+"("+firstLine(string(bl.Arguments))+")")
		case model.BlockThinking:
			parts = append(parts, "(thinking)")
		case model.BlockImage:
			parts = append(parts, "[image "+bl.MimeType+"]")
		}
	}
	if len(parts) == 0 {
		switch {
		case b.StopReason == "aborted":
			return "(aborted, no content)"
		case b.Command != "":
			return "$ " + b.Command
		}
		return "(empty)"
	}
	return strings.Join(parts, " ")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// clip cuts s to at most width runes.
func clip(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:max(0, width-1)]) + "…"
}
