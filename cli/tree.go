package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/search"
	"clawvault-tui/store/transcript"
)

func (a *app) treeCommand() *cobra.Command {
	var draw bool
	c := &cobra.Command{
		Use:   "tree FILE|SESSION",
		Short: "The entry tree of a transcript",
		Long: `The parsed transcript: header, entry count, leaf, roots, branch points,
compactions, active path, the entries in the model's context, labels, name,
malformed line numbers and a torn last line. SESSION is a session id, key,
cursor id or unique id prefix, looked up in the workspace. --draw draws the
tree instead, one line per entry, as the Transcript screen does.`,
		Example: `clawvault-tui tree agent:main:direct:zoe
clawvault-tui tree agent:main:direct:zoe --draw | less -S
clawvault-tui tree ~/.openclaw/agents/main/sessions/SESSION.jsonl --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("tree takes one FILE or SESSION (a session id, key or id prefix)")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if draw && a.common.json {
				return usageError("--draw draws the tree as text and --json writes its document: pass one of them")
			}
			return a.tree(args[0], draw)
		},
	}
	c.Flags().BoolVar(&draw, "draw", false, "Draw the tree, one line per entry (branches indented, compactions as dividers)")
	return c
}

func (a *app) tree(arg string, draw bool) error {
	ctx := a.ctx
	src, err := resolveTranscript(ctx, &a.common, arg, a.remote == nil)
	if err != nil {
		return err
	}
	if draw {
		return a.drawTree(ctx, src)
	}
	var ix *transcript.Index
	var sqlite *sqliteDoc
	if r := src.target.Row; r.Origin == model.OriginSQLite && r.Generation != nil && !r.Generation.Cold {
		// A SQLite session: its tree from the store's identities, and
		// OpenClaw's own active branch beside it.
		ix, sqlite, err = sqliteTree(ctx, r)
	} else {
		cfg, cfgErr := store.LoadConfig(store.ConfigPath(store.OSEnv()))
		if cfgErr != nil {
			return cfgErr
		}
		opt := transcript.Options{ProcessLifetime: true, MaxLineBytes: cfg.Transcripts.MaxLineBytes()}
		ix, err = store.TranscriptReader(transcript.NewCache(), src.target.Row).Index(ctx, opt)
	}
	if err != nil {
		return fmt.Errorf("cannot index %s: %w", src.target.Row.File, err)
	}
	doc := treeSummary(ctx, ix, src)
	doc.SQLite = sqlite
	if a.common.json {
		return writeTreeJSON(a.stdout, doc, ix.Tree)
	}
	return writeTreeText(a.human(), ix, doc)
}

// treeSource is what a tree argument named: the row to read, and the other
// generations of its session key.
type treeSource struct {
	target store.SessionTarget
	reader transcript.Reader
}

// resolveTranscript takes a path, or finds a session by id, key, cursor id
// or unique id prefix in the located workspace: a key with several
// generations (a live file and its /new archives, a SQLite-era key's
// windows) resolves to its current one, the others listed.
//
// files says a path may be given: not over SSH, where the server's files
// are not the client's to name.
func resolveTranscript(ctx context.Context, common *commonFlags, arg string, files bool) (treeSource, error) {
	var src treeSource
	if !files && strings.ContainsAny(arg, `/\`) {
		return src, usageError("tree over SSH takes a SESSION (an id, key or id prefix), not a path on the server")
	}
	if fi, err := os.Stat(arg); files && err == nil {
		if !fi.Mode().IsRegular() {
			return src, fmt.Errorf("%s is not a file", arg)
		}
		abs, err := filepath.Abs(arg)
		if err != nil {
			return src, err
		}
		src.target.Row = model.SessionRow{File: abs, Exists: true, Origin: model.OriginScan, Name: model.ClassifyFileName(filepath.Base(abs))}
		src.reader = store.TranscriptReader(transcript.NewCache(), src.target.Row)
		return src, nil
	}
	ws, err := common.workspace()
	if err != nil {
		return src, fmt.Errorf("%s is not a file, and no workspace to look it up in: %w", arg, err)
	}
	snap, err := store.Scan(ctx, store.OS, ws, store.ScanOptions{CacheDir: statsCacheDir()})
	if err != nil {
		return src, err
	}
	if src.target, err = store.ResolveSession(snap, arg); err != nil {
		return src, err
	}
	src.reader = store.TranscriptReader(transcript.NewCache(), src.target.Row)
	return src, nil
}

// sqliteTree reads a SQLite session's tree and OpenClaw's persisted branch.
func sqliteTree(ctx context.Context, r model.SessionRow) (*transcript.Index, *sqliteDoc, error) {
	db, err := agentdb.Open(ctx, r.File)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	db.ProcessLifetime = true
	t, err := db.Transcript(ctx, r.SessionID)
	if err != nil {
		return nil, nil, err
	}
	g := r.Generation
	doc := &sqliteDoc{
		Store: r.File, SessionID: r.SessionID, SessionKey: r.Key, Events: len(t.Entries), LastSeq: t.LastSeq,
		Generation: g.GenerationReason(), Current: g.Current, PreviousSessionID: g.Previous,
		SchemaVersion: db.Meta.SchemaVersion, BodiesRead: t.FactRows,
		OpenClawBranchKnown: t.ActiveKnown, OpenClawBranchDiffers: t.ActiveDiffers, OpenClawBranchNote: t.ActiveNote,
	}
	return t.Index(r.File, r.Size), doc, nil
}

// sqliteDoc says where a SQLite session's tree came from.
type sqliteDoc struct {
	Store             string `json:"store"`
	SessionID         string `json:"sessionId"`
	SessionKey        string `json:"sessionKey"`
	Generation        string `json:"generation"`
	Current           bool   `json:"current"`
	PreviousSessionID string `json:"previousSessionId,omitempty"`
	Events            int    `json:"events"`
	LastSeq           int64  `json:"lastSeq"`
	SchemaVersion     int    `json:"schemaVersion"`
	// BodiesRead counts the events read to build the tree (the others come
	// from the identities table alone).
	BodiesRead            int    `json:"bodiesRead"`
	OpenClawBranchKnown   bool   `json:"openclawBranchKnown"`
	OpenClawBranchDiffers bool   `json:"openclawBranchDiffers"`
	OpenClawBranchNote    string `json:"openclawBranchNote,omitempty"`
}

// generationDoc is another generation of the session key.
type generationDoc struct {
	SessionID string `json:"sessionId"`
	File      string `json:"file"`
	Kind      string `json:"kind"`
	Reason    string `json:"reason,omitempty"`
	Current   bool   `json:"current"`
	SizeBytes int64  `json:"sizeBytes"`
}

// treeDoc is the --json document. Its lists of entries (roots, branch
// points, active path, model context) are written from the tree as they
// stream out: the struct's fields hold them only when a test decodes the
// document. LongLines are the lines longer than the cap ([transcripts]
// max_line_mb), skipped unread; MalformedLines lists them too.
type treeDoc struct {
	File            string            `json:"file"`
	Header          json.RawMessage   `json:"header"`
	Entries         int               `json:"entries"`
	LeafID          *string           `json:"leafId"`
	Roots           []string          `json:"roots"`
	BranchPoints    []string          `json:"branchPoints"`
	ActivePath      []string          `json:"activePath"`
	Compactions     []compactionDoc   `json:"compactions"`
	ContextEntryIDs []string          `json:"contextEntryIds"`
	MalformedLines  []int32           `json:"malformedLines"`
	LongLines       []int32           `json:"longLines"`
	Version         int               `json:"version"`
	Lines           int32             `json:"lines"`
	SizeBytes       int64             `json:"sizeBytes"`
	Labels          map[string]string `json:"labels"`
	Name            string            `json:"name,omitempty"`
	TornTail        *tailDoc          `json:"tornTail,omitempty"`
	DuplicateIDs    int               `json:"duplicateIds"`
	Cycle           bool              `json:"cycle"`
	EntryTypes      map[string]int    `json:"entryTypes"`

	// Rules are the tree rules applied: pi, or openclaw-2026.9 (leaf
	// controls, side appends, resets in place).
	Rules           string     `json:"rules"`
	ContextMessages int        `json:"contextMessages"`
	Resets          []resetDoc `json:"resets"`
	LeafControls    int        `json:"leafControls"`
	// InvalidLeafControls name entries that do not exist; OpenClaw ignores them.
	InvalidLeafControls int `json:"invalidLeafControls"`
	// SQLite is set for a session of the SQLite-era store; there, every
	// line number is the event's seq.
	SQLite *sqliteDoc `json:"sqlite,omitempty"`
	// Generations are the other generations of the session key, when a
	// key was named.
	Generations []generationDoc `json:"generations"`
}

type resetDoc struct {
	ID               string `json:"id"`
	Reason           string `json:"reason,omitempty"`
	FirstKeptEntryID string `json:"firstKeptEntryId,omitempty"`
	Line             int32  `json:"line"`
}

type compactionDoc struct {
	ID               string `json:"id"`
	FirstKeptEntryID string `json:"firstKeptEntryId"`
	TokensBefore     int64  `json:"tokensBefore"`
	Line             int32  `json:"line"`
}

type tailDoc struct {
	Line   int32 `json:"line"`
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	Parsed bool  `json:"parsed"`
	// TooLong: longer than the cap, so not read.
	TooLong bool `json:"tooLong,omitempty"`
}

// treeSummary is the summary of ix without its lists of entries: the text
// shows a few ids of each and --json streams them from ix.Tree's positions,
// so that neither makes a string per entry of a million-entry active path.
func treeSummary(ctx context.Context, ix *transcript.Index, src treeSource) treeDoc {
	t := ix.Tree
	doc := treeDoc{
		File: ix.Path, Header: json.RawMessage("null"), Entries: t.Nodes,
		Compactions: []compactionDoc{}, MalformedLines: ix.Malformed,
		Version: ix.Version, Lines: ix.Lines, SizeBytes: ix.Size, Labels: t.Labels, Name: t.Name,
		DuplicateIDs: t.DuplicateIDs, Cycle: t.Cycle, EntryTypes: map[string]int{},
		Rules: t.Rules.String(), ContextMessages: t.ContextMessages, Resets: []resetDoc{},
		LeafControls: t.LeafControls, InvalidLeafControls: t.InvalidLeafControls, Generations: []generationDoc{},
	}
	if doc.MalformedLines == nil {
		doc.MalformedLines = []int32{}
	}
	doc.LongLines = ix.LongLines
	if doc.LongLines == nil {
		doc.LongLines = []int32{}
	}
	if ix.HeaderOK && len(ix.Entries) > 0 && src.reader != nil {
		if b, err := src.reader.Body(ctx, ix.Entries[0]); err == nil && json.Valid(b.Raw) {
			doc.Header = b.Raw
		}
	}
	for _, r := range t.Resets {
		f := ix.Facts[r]
		doc.Resets = append(doc.Resets, resetDoc{ID: t.ID(r), Reason: f.Label, FirstKeptEntryID: f.FirstKeptEntryID, Line: t.Entry(r).Line})
	}
	for _, o := range src.target.Others {
		g := generationDoc{SessionID: o.SessionID, File: o.File, Kind: o.Name.Kind.String(), SizeBytes: o.Size}
		if o.Generation != nil {
			g.Kind, g.Reason, g.Current = "sqlite", o.Generation.GenerationReason(), o.Generation.Current
		}
		doc.Generations = append(doc.Generations, g)
	}
	if t.Leaf >= 0 {
		leaf := t.LeafID()
		doc.LeafID = &leaf
	}
	for _, c := range t.Compactions {
		f := ix.Facts[c]
		doc.Compactions = append(doc.Compactions, compactionDoc{ID: t.ID(c), FirstKeptEntryID: f.FirstKeptEntryID, TokensBefore: f.TokensBefore, Line: t.Entry(c).Line})
	}
	if t.HasHeader {
		// Counted by number first: a map update per entry cost more than
		// the loop.
		var counts [256]int
		for i := range ix.Entries {
			counts[ix.Entries[i].Type]++
		}
		for typ, n := range counts {
			if n > 0 && model.EntryType(typ) != model.TypeSession {
				doc.EntryTypes[model.EntryType(typ).String()] += n
			}
		}
	}
	if ix.Tail != nil {
		doc.TornTail = &tailDoc{Line: ix.Tail.Line, Offset: ix.Tail.Offset, Bytes: ix.Tail.Length, Parsed: ix.Tail.Parsed, TooLong: ix.Tail.TooLong}
	}
	return doc
}

// writeTreeText renders the tree document for a person: where the
// transcript comes from, its shape, then what is odd about it.
func writeTreeText(w io.Writer, ix *transcript.Index, doc treeDoc) error {
	where := writeTreeSource(w, ix, doc)
	writeTreeShape(w, ix.Tree, doc, where)
	writeTreeNotes(w, doc)
	return nil
}

// continued is a row's label: label on a list's first row, blanks as wide
// after it.
func continued(i int, label string) string {
	if i > 0 {
		return strings.Repeat(" ", len(label))
	}
	return label
}

// writeTreeSource writes where the transcript comes from (a file, or a
// session of a SQLite-era store with its generations), the rules it is
// read by and its header. It returns what a position is called there:
// line, or seq.
func writeTreeSource(w io.Writer, ix *transcript.Index, doc treeDoc) (where string) {
	t := ix.Tree
	where = "line"
	if s := doc.SQLite; s != nil {
		where = "seq"
		state := "current generation"
		if !s.Current {
			state = "earlier generation"
		}
		fmt.Fprintf(w, "Store:         %s (agent schema %d)\n", esc(s.Store), s.SchemaVersion)
		fmt.Fprintf(w, "Session:       %s %s, %s (%s), %s, %s as JSONL\n", esc(s.SessionKey), esc(s.SessionID), state, esc(s.Generation), model.Plural(s.Events, "event", "events"), model.Bytes(doc.SizeBytes))
		if s.PreviousSessionID != "" {
			fmt.Fprintf(w, "After:         %s\n", esc(s.PreviousSessionID))
		}
	} else {
		fmt.Fprintf(w, "File:          %s (%s, %s)\n", esc(doc.File), model.Bytes(doc.SizeBytes), model.Plural(doc.Lines, "line", "lines"))
	}
	for i, g := range doc.Generations {
		what := g.Kind
		if g.Reason != "" {
			what += ", " + g.Reason
		}
		fmt.Fprintf(w, "%s %s (%s, %s) %s\n", continued(i, "Generations:  "), esc(g.SessionID), esc(what), model.Bytes(g.SizeBytes), esc(g.File))
	}
	if t.Rules == model.RulesOpenClaw {
		fmt.Fprintf(w, "Rules:         OpenClaw 2026.9's (leaf controls select the leaf, side appends and other entry types do not move it, resets restart the context)\n")
	}
	switch {
	case !t.HasHeader && t.Rules == model.RulesPi:
		fmt.Fprintf(w, "Header:        none: the first parsed line is not a session header, so pi treats the file as empty\n")
	case !t.HasHeader:
		fmt.Fprintf(w, "Header:        none (OpenClaw's rules read the entries without one)\n")
	default:
		h := ix.Header
		fmt.Fprintf(w, "Header:        v%d  id %s  %s  cwd %s\n", doc.Version, esc(h.ID), esc(h.Timestamp), esc(h.Cwd))
		if h.ParentSession != "" {
			fmt.Fprintf(w, "Forked from:   %s\n", esc(h.ParentSession))
		}
	}
	if t.Name != "" {
		fmt.Fprintf(w, "Name:          %s\n", esc(t.Name))
	}
	return where
}

// writeTreeShape writes the tree itself: entries, leaf, roots, branch
// points, compactions, resets, leaf controls, the active path and the
// model's context.
func writeTreeShape(w io.Writer, t *model.Tree, doc treeDoc, where string) {
	fmt.Fprintf(w, "Entries:       %d %s\n", doc.Entries, typeCounts(doc.EntryTypes))
	leaf := "none"
	if doc.LeafID != nil {
		leaf = *doc.LeafID
	}
	fmt.Fprintf(w, "Leaf:          %s\n", esc(leaf))
	fmt.Fprintf(w, "Roots:         %s\n", list(t, t.Roots))
	fmt.Fprintf(w, "Branch points: %s\n", list(t, t.BranchPoints))
	if len(doc.Compactions) == 0 {
		fmt.Fprintf(w, "Compactions:   none\n")
	}
	for i, c := range doc.Compactions {
		fmt.Fprintf(w, "%s %s (%s %d): %s tokens before, first kept %s\n", continued(i, "Compactions:  "), c.ID, where, c.Line, model.Count(c.TokensBefore), c.FirstKeptEntryID)
	}
	for i, r := range doc.Resets {
		kept := "nothing kept"
		if r.FirstKeptEntryID != "" {
			kept = "keeps from " + r.FirstKeptEntryID
		}
		fmt.Fprintf(w, "%s %s (%s %d): %s, %s\n", continued(i, "Resets:       "), r.ID, where, r.Line, orNone(r.Reason), kept)
	}
	if doc.LeafControls+doc.InvalidLeafControls > 0 {
		fmt.Fprintf(w, "Leaf controls: %d", doc.LeafControls)
		if doc.InvalidLeafControls > 0 {
			fmt.Fprintf(w, " (and %d naming no entry, ignored as OpenClaw ignores them)", doc.InvalidLeafControls)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Active path:   %s, %s\n", model.Plural(len(t.ActivePath), "entry", "entries"), abbreviate(t, t.ActivePath, 8))
	fmt.Fprintf(w, "Model context: %s, %s\n", model.Plural(doc.ContextMessages, "message", "messages"), abbreviate(t, t.Context, 8))
}

// writeTreeNotes writes how OpenClaw's own branch compares, the labels,
// and what is odd: malformed lines, a torn last line, duplicate ids, a
// loop.
func writeTreeNotes(w io.Writer, doc treeDoc) {
	if s := doc.SQLite; s != nil {
		switch {
		case s.OpenClawBranchDiffers:
			fmt.Fprintf(w, "OpenClaw:      %s\n", s.OpenClawBranchNote)
		case s.OpenClawBranchKnown:
			fmt.Fprintf(w, "OpenClaw:      its persisted active branch is this one\n")
		default:
			fmt.Fprintf(w, "OpenClaw:      not compared: %s\n", s.OpenClawBranchNote)
		}
	}
	if len(doc.Labels) > 0 {
		var l []string
		for _, id := range slices.Sorted(maps.Keys(doc.Labels)) {
			l = append(l, id+"="+doc.Labels[id])
		}
		fmt.Fprintf(w, "Labels:        %s\n", esc(strings.Join(l, ", ")))
	}
	malformed := "none"
	if len(doc.MalformedLines) > 0 {
		malformed = lineList(doc.MalformedLines)
	}
	fmt.Fprintf(w, "Malformed:     %s\n", malformed)
	if len(doc.LongLines) > 0 {
		fmt.Fprintf(w, "Too long:      %s: longer than the cap ([transcripts] max_line_mb), skipped unread\n", lineList(doc.LongLines))
	}
	if tt := doc.TornTail; tt != nil {
		state := "does not parse yet: torn mid-write, or still being written"
		switch {
		case tt.TooLong:
			state = "is longer than the cap ([transcripts] max_line_mb), so it was not read"
		case tt.Parsed:
			state = "parses: pi reads it as the last entry"
		}
		fmt.Fprintf(w, "Last line:     line %d has no newline (%s); it %s\n", tt.Line, model.BytesExact(tt.Bytes), state)
	}
	if doc.DuplicateIDs > 0 {
		fmt.Fprintf(w, "Duplicate ids: %d (the later entry wins, as in pi)\n", doc.DuplicateIDs)
	}
	if doc.Cycle {
		fmt.Fprintf(w, "Warning:       a parentId chain loops; pi would hang on this file\n")
	}
}

// lineList is line numbers separated by commas.
func lineList(lines []int32) string {
	n := make([]string, len(lines))
	for i, m := range lines {
		n[i] = fmt.Sprint(m)
	}
	return strings.Join(n, ", ")
}

func typeCounts(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	order := []string{"message", "compaction", "reset", "branch_summary", "label", "session_info", "model_change", "thinking_level_change",
		"custom", "custom_message", "leaf", "usage", "context_edit", "other"}
	var parts []string
	for _, k := range order {
		if n := m[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// list shows the ids of the first 12 entries of idx and how many more.
func list(t *model.Tree, idx []int32) string {
	switch {
	case len(idx) == 0:
		return "none"
	case len(idx) > 12:
		return esc(strings.Join(t.IDs(idx[:12]), ", ")) + fmt.Sprintf(", … (%d more)", len(idx)-12)
	}
	return esc(strings.Join(t.IDs(idx), ", "))
}

// abbreviate shows the ids of a path of entries, its middle elided when
// it is longer than n.
func abbreviate(t *model.Tree, idx []int32, n int) string {
	if len(idx) == 0 {
		return "none"
	}
	if len(idx) <= n {
		return esc(strings.Join(t.IDs(idx), " → "))
	}
	return esc(strings.Join(t.IDs(idx[:n/2]), " → ")) + fmt.Sprintf(" → … (%d more) … → ", len(idx)-n) + esc(strings.Join(t.IDs(idx[len(idx)-n/2:]), " → "))
}

func orNone(s string) string {
	if s == "" {
		return "no reason"
	}
	return s
}

// statsCacheDir is where status keeps the sizes of SQLite-era sessions
// between runs: the search index's cache folder.
func statsCacheDir() string {
	cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
	if err != nil {
		return ""
	}
	return search.CacheDir(cfg.Search, store.OSEnv())
}
