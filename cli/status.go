package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
)

func (a *app) statusCommand() *cobra.Command {
	var deep, problems bool
	var minNew int64
	c := &cobra.Command{
		Use:   "status",
		Short: "One row per session: size, cursor, pending, threshold, diagnosis",
		Long: `One row per session: every sessions.json row, every transcript in the sessions
folders (archives, checkpoints, forks, topics, files no row names) and each
SQLite-era store, with its size, when it was last observed, the bytes pending
against its threshold, and the diagnosis codes that say why it was observed,
will be, or never will be. It stats files and reads sessions.json and the
cursor file, never transcript content, unless --deep.`,
		Example: `clawvault-tui status --problems
clawvault-tui status --deep --json --state-dir ~/.openclaw -v ~/vault`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			return a.status(deep, problems, minNew)
		},
	}
	c.Flags().BoolVar(&deep, "deep", false, "also read each pending range (partial tails, no messages)")
	c.Flags().Int64Var(&minNew, "min-new", 0, "threshold override in bytes, as ClawVault's --min-new")
	c.Flags().BoolVar(&problems, "problems", false, "only sessions with a problem")
	return c
}

func (a *app) status(deep, problems bool, minNew int64) error {
	ws, err := a.common.workspace()
	if err != nil {
		return err
	}
	ctx := a.ctx
	scanOpt := store.ScanOptions{MinNewBytes: minNew, CacheDir: statsCacheDir()}
	if deep {
		cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
		if err != nil {
			return err
		}
		scanOpt.MaxLineBytes = cfg.Transcripts.MaxLineBytes()
	}
	snap, err := store.Scan(ctx, store.OS, ws, scanOpt)
	if err != nil {
		return err
	}
	if deep {
		if err := observer.Deepen(ctx, store.OS, snap, nil); err != nil {
			return err
		}
	}
	rows := snap.Rows
	if problems {
		rows = nil
		for _, r := range snap.Rows {
			if worstSeverity(r) >= 2 {
				rows = append(rows, r)
			}
		}
	}
	if a.common.json {
		doc := statusJSON(snap, rows)
		if err := snap.Cursors.Seq.ReadError; err != nil {
			doc.SeqCursors.ReadError = model.OSReason(err)
		}
		if err := snap.Cursors.ReadError; err != nil {
			doc.Cursors.ReadError = model.OSReason(err)
		}
		return writeJSON(a.stdout, doc)
	}
	return writeStatusText(a.human(), snap, rows)
}

func worstSeverity(r model.SessionRow) int {
	worst := 0
	for _, d := range r.Diagnosis {
		worst = max(worst, d.Code.Severity())
	}
	return worst
}

// The JSON shapes below are a contract: fields may be added, never
// renamed.

type statusDoc struct {
	StateDir string        `json:"stateDir"`
	Vault    string        `json:"vault"`
	Cursors  cursorFileDoc `json:"cursors"`
	// SeqCursors is clawvault-tui's own cursor file for SQLite-era sessions.
	SeqCursors cursorFileDoc  `json:"seqCursors"`
	Agents     []agentDoc     `json:"agents"`
	Sessions   []sessionDoc   `json:"sessions"`
	Problems   []string       `json:"problems"`
	Counts     map[string]int `json:"counts"`
	TakenAt    string         `json:"takenAt"`
	Warnings   []string       `json:"warnings"`
}

type cursorFileDoc struct {
	Path    string `json:"path"`
	Exists  bool   `json:"exists"`
	Cursors int    `json:"cursors"`
	Corrupt string `json:"corrupt,omitempty"`
	// ReadError says why the file could not be read (it exists).
	ReadError string            `json:"readError,omitempty"`
	Problems  map[string]string `json:"invalid,omitempty"`
}

type agentDoc struct {
	ID           string      `json:"id"`
	SessionsDir  string      `json:"sessionsDir"`
	SessionsJSON string      `json:"sessionsJson"`
	Workspace    string      `json:"workspace,omitempty"`
	SQLite       string      `json:"sqlite,omitempty"`
	StoreMissing bool        `json:"storeMissing"`
	StoreProblem string      `json:"storeProblem,omitempty"`
	Sessions     int         `json:"sessions"`
	Memory       []memoryDoc `json:"memory"`
	// SQLiteStore is what the agent's SQLite-era store holds, when it has one.
	SQLiteStore *sqliteStoreDoc `json:"sqliteStore,omitempty"`
	// Diagnosis holds the agent's own diagnoses (memory-index-stale).
	Diagnosis []model.Diagnosis `json:"diagnosis"`
}

type sqliteStoreDoc struct {
	Path           string          `json:"path"`
	SizeBytes      int64           `json:"sizeBytes"`
	SchemaVersion  int             `json:"schemaVersion"`
	AppVersion     string          `json:"appVersion,omitempty"`
	UnknownVersion bool            `json:"unknownVersion,omitempty"`
	Problem        string          `json:"problem,omitempty"`
	SessionKeys    int             `json:"sessionKeys"`
	Generations    int             `json:"generations"`
	Archives       []archiveDoc    `json:"archives"`
	MemoryIndex    *memoryIndexDoc `json:"memoryIndex,omitempty"`
}

type archiveDoc struct {
	Kind       string `json:"kind"`
	SessionID  string `json:"sessionId"`
	SessionKey string `json:"sessionKey,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Name       string `json:"name"`
	SizeBytes  int64  `json:"sizeBytes"`
	File       string `json:"file,omitempty"`
}

type memoryIndexDoc struct {
	Indexed      int            `json:"indexed"`
	NeverIndexed []string       `json:"neverIndexed"`
	Changed      []string       `json:"changed"`
	Gone         []string       `json:"gone"`
	Chunks       int            `json:"chunks"`
	Models       map[string]int `json:"models"`
	Provider     string         `json:"provider,omitempty"`
	Model        string         `json:"model,omitempty"`
}

type memoryDoc struct {
	Path       string `json:"path"`
	SizeBytes  int64  `json:"sizeBytes"`
	ModifiedAt string `json:"modifiedAt"`
	Daily      bool   `json:"daily"`
}

type sessionDoc struct {
	Agent          string            `json:"agent"`
	SessionKey     string            `json:"sessionKey"`
	SessionID      string            `json:"sessionId"`
	File           string            `json:"file"`
	Source         string            `json:"source"`
	SizeBytes      int64             `json:"sizeBytes"`
	CursorOffset   *float64          `json:"cursorOffset"`
	LastObservedAt *string           `json:"lastObservedAt"`
	StartOffset    int64             `json:"startOffset"`
	PendingBytes   int64             `json:"pendingBytes"`
	ThresholdBytes int64             `json:"thresholdBytes"`
	Candidate      bool              `json:"candidate"`
	Stale          bool              `json:"stale"`
	Diagnosis      []model.Diagnosis `json:"diagnosis"`

	Origin      string   `json:"origin"`
	FileKind    string   `json:"fileKind"`
	Exists      bool     `json:"exists"`
	ModifiedAt  string   `json:"modifiedAt,omitempty"`
	Discovered  bool     `json:"discovered"`
	ObserverKey string   `json:"observerKey,omitempty"`
	CursorID    string   `json:"cursorId,omitempty"`
	Siblings    []string `json:"siblings,omitempty"`
	Meta        *metaDoc `json:"meta,omitempty"`

	// SQLite-era sessions: the generation, its events, and clawvault-tui's
	// seq cursor (events after lastObservedSeq are pending).
	Generation      *generationStatusDoc `json:"generation,omitempty"`
	LastObservedSeq *int64               `json:"lastObservedSeq,omitempty"`
}

type generationStatusDoc struct {
	Reason            string `json:"reason"`
	PreviousSessionID string `json:"previousSessionId,omitempty"`
	Current           bool   `json:"current"`
	Cold              bool   `json:"cold,omitempty"`
	Events            int64  `json:"events"`
	LastSeq           int64  `json:"lastSeq"`
	PendingEvents     int64  `json:"pendingEvents"`
}

type metaDoc struct {
	UpdatedAt                  *string  `json:"updatedAt"`
	ChatType                   string   `json:"chatType,omitempty"`
	Channel                    string   `json:"channel,omitempty"`
	Model                      string   `json:"model,omitempty"`
	ContextTokens              *int64   `json:"contextTokens,omitempty"`
	TotalTokens                *int64   `json:"totalTokens,omitempty"`
	CompactionCount            *int     `json:"compactionCount,omitempty"`
	MemoryFlushCompactionCount *int     `json:"memoryFlushCompactionCount,omitempty"`
	EstimatedCostUSD           *float64 `json:"estimatedCostUsd,omitempty"`
}

func statusJSON(snap *store.Snapshot, rows []model.SessionRow) statusDoc {
	ws := snap.Workspace
	doc := statusDoc{
		StateDir: ws.StateDir,
		Vault:    ws.Vault,
		Cursors: cursorFileDoc{
			Path: snap.Cursors.Path, Exists: !snap.Cursors.Missing, Cursors: snap.Cursors.Store.Len(),
			Corrupt: snap.Cursors.Corrupt, Problems: snap.Cursors.Problems,
		},
		SeqCursors: cursorFileDoc{
			Path: snap.Cursors.Seq.Path, Exists: !snap.Cursors.Seq.Missing, Cursors: len(snap.Cursors.Seq.Cursors),
			Corrupt: snap.Cursors.Seq.Corrupt, Problems: snap.Cursors.Seq.Problems,
		},
		Problems: nonNil(snap.Problems),
		Warnings: nonNil(ws.Warnings),
		Counts:   map[string]int{},
		TakenAt:  model.FormatISOTime(snap.TakenAt),
		Sessions: []sessionDoc{},
	}
	perAgent := map[string]int{}
	for _, r := range snap.Rows {
		perAgent[r.Agent]++
	}
	for i, a := range ws.Agents {
		ad := agentDoc{ID: a.ID, SessionsDir: a.SessionsDir, SessionsJSON: a.StorePath, Workspace: a.Workspace, SQLite: a.SQLitePath,
			Sessions: perAgent[a.ID], Memory: []memoryDoc{}, Diagnosis: nonNil(snap.AgentDiagnoses[a.ID])}
		for _, d := range ad.Diagnosis {
			doc.Counts[string(d.Code)]++
		}
		for _, m := range snap.Memory[a.ID] {
			ad.Memory = append(ad.Memory, memoryDoc{Path: m.Path, SizeBytes: m.Size, ModifiedAt: model.FormatISOTime(m.ModTime), Daily: m.Daily})
		}
		if i < len(snap.Agents) {
			ad.StoreMissing, ad.StoreProblem = snap.Agents[i].StoreMissing, snap.Agents[i].StoreProblem
			ad.SQLiteStore = sqliteStoreJSON(snap.Agents[i].SQLiteStore)
		}
		doc.Agents = append(doc.Agents, ad)
	}
	for _, r := range rows {
		doc.Sessions = append(doc.Sessions, sessionJSON(r))
		for _, d := range r.Diagnosis {
			doc.Counts[string(d.Code)]++
		}
	}
	return doc
}

func sessionJSON(r model.SessionRow) sessionDoc {
	d := sessionDoc{
		Agent: r.Agent, SessionKey: r.DisplayKey(), SessionID: r.SessionID, File: r.File, Source: r.Label,
		SizeBytes: r.Size, StartOffset: r.Selection.StartOffset, PendingBytes: r.Selection.NewBytes,
		ThresholdBytes: r.Selection.ThresholdBytes, Candidate: r.Candidate, Stale: r.Stale,
		Diagnosis: r.Diagnosis, Origin: r.Origin.String(), FileKind: r.Name.Kind.String(), Exists: r.Exists,
		Discovered: r.Discovered, ObserverKey: r.ObserverKey, CursorID: r.CursorID, Siblings: r.Siblings,
	}
	if d.Diagnosis == nil {
		d.Diagnosis = []model.Diagnosis{}
	}
	if !r.ModTime.IsZero() {
		d.ModifiedAt = model.FormatISOTime(r.ModTime)
	}
	if r.Cursor != nil {
		off := r.Cursor.LastObservedOffset // as the file says (1e19 too), JSON.stringify's way
		at := r.Cursor.LastObservedAt
		d.CursorOffset, d.LastObservedAt = &off, &at
	}
	if g := r.Generation; g != nil {
		d.Generation = &generationStatusDoc{Reason: g.GenerationReason(), PreviousSessionID: g.Previous, Current: g.Current, Cold: g.Cold,
			Events: g.Events, LastSeq: g.LastSeq, PendingEvents: g.PendingEvents}
	}
	if c := r.SeqCursor; c != nil {
		seq, at := c.LastSeq, model.FormatISOTime(c.ObservedAt)
		d.LastObservedSeq, d.LastObservedAt = &seq, &at
	}
	if e := r.Entry; e != nil {
		m := &metaDoc{
			ChatType: e.ChatType, Channel: e.Channel, Model: e.Model, ContextTokens: e.ContextTokens,
			TotalTokens: e.TotalTokens, CompactionCount: e.CompactionCount,
			MemoryFlushCompactionCount: e.MemoryFlushCompactionCount, EstimatedCostUSD: e.EstimatedCostUSD,
		}
		if ms := e.UpdatedAt.Ms(); ms > 0 {
			s := model.FormatISOTime(time.UnixMilli(ms))
			m.UpdatedAt = &s
		}
		d.Meta = m
	}
	return d
}

func sqliteStoreJSON(st *model.SQLiteStore) *sqliteStoreDoc {
	if st == nil {
		return nil
	}
	keys := map[string]bool{}
	for _, w := range st.Windows {
		keys[w.Key] = true
	}
	d := &sqliteStoreDoc{Path: st.Path, SizeBytes: st.Size, SchemaVersion: st.SchemaVersion, AppVersion: st.AppVersion,
		UnknownVersion: st.UnknownVersion, Problem: st.Problem, SessionKeys: len(keys), Generations: len(st.Windows), Archives: []archiveDoc{}}
	for _, a := range st.Archives {
		d.Archives = append(d.Archives, archiveDoc{Kind: a.Kind, SessionID: a.SessionID, SessionKey: a.Key, Reason: a.Reason, Name: a.Name, SizeBytes: a.Bytes, File: a.File})
	}
	if h := st.Memory; h != nil {
		d.MemoryIndex = &memoryIndexDoc{Indexed: h.Indexed, NeverIndexed: nonNil(h.NeverIndexed), Changed: nonNil(h.Changed), Gone: nonNil(h.Gone),
			Chunks: h.Chunks, Models: h.Models, Provider: h.Provider, Model: h.Model}
	}
	return d
}

func writeStatusText(w io.Writer, snap *store.Snapshot, rows []model.SessionRow) error {
	ws := snap.Workspace
	vault := ws.Vault
	if vault == "" {
		vault = "none found (pass -v DIR)"
	} else {
		vault += " (" + ws.VaultSource + ")"
	}
	fmt.Fprintf(w, "State dir: %s (%s)\nVault:     %s\n", ws.StateDir, ws.StateDirSource, vault)
	switch c := snap.Cursors; {
	case c.ReadError != nil:
		fmt.Fprintf(w, "Cursors:   %s cannot be read: %s\n", c.Path, model.OSReason(c.ReadError))
	case c.Corrupt != "":
		fmt.Fprintf(w, "Cursors:   %s does not parse: %s\n", c.Path, c.Corrupt)
	case c.Missing:
		fmt.Fprintf(w, "Cursors:   none yet\n")
	default:
		fmt.Fprintf(w, "Cursors:   %d in %s", c.Store.Len(), c.Path)
		if len(c.Problems) > 0 {
			fmt.Fprintf(w, " (%d invalid, ignored)", len(c.Problems))
		}
		fmt.Fprintln(w)
	}
	if c := snap.Cursors.Seq; c.ReadError != nil {
		fmt.Fprintf(w, "Seq cursors: %s cannot be read: %s\n", esc(c.Path), esc(model.OSReason(c.ReadError)))
	} else if c.Corrupt != "" {
		fmt.Fprintf(w, "Seq cursors: %s does not parse: %s\n", esc(c.Path), esc(c.Corrupt))
	} else if !c.Missing {
		fmt.Fprintf(w, "Seq cursors: %d in %s (SQLite-era sessions)\n", len(c.Cursors), esc(c.Path))
	}
	for i, a := range ws.Agents {
		fmt.Fprintf(w, "Memory:    %s: %s\n", a.ID, memorySummary(a.Workspace, snap.Memory[a.ID]))
		if i < len(snap.Agents) && snap.Agents[i].SQLiteStore != nil {
			fmt.Fprintf(w, "Store:     %s: %s\n", a.ID, storeSummary(snap.Agents[i].SQLiteStore))
		}
	}
	for _, p := range append(snap.Problems, ws.Warnings...) {
		fmt.Fprintf(w, "Warning:   %s\n", esc(p))
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tKEY\tLABEL\tSIZE\tOBSERVED\tPENDING\tTHRESHOLD\tSTATE")
	for _, r := range rows {
		observed := "never"
		if r.Cursor != nil {
			if at, ok := r.Cursor.ObservedAt(); ok {
				observed = model.Ago(snap.TakenAt.Sub(at)) + " ago"
			}
		}
		if c := r.SeqCursor; c != nil {
			observed = fmt.Sprintf("%s ago (seq %d)", model.Ago(snap.TakenAt.Sub(c.ObservedAt)), c.LastSeq)
		}
		pending, threshold := "-", "-"
		if r.Exists && (r.Origin != model.OriginSQLite || r.Generation != nil) {
			pending, threshold = model.Bytes(r.Selection.NewBytes), model.Bytes(r.Selection.ThresholdBytes)
		}
		size := "missing"
		if r.Exists {
			size = model.Bytes(r.Size)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", esc(r.Agent), shortKey(esc(rowKey(r)), 44), esc(r.Label), size, observed, pending, threshold, codes(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	var explained []model.SessionRow
	for _, r := range rows {
		if worstSeverity(r) >= 2 {
			explained = append(explained, r)
		}
	}
	if len(explained) > 0 {
		fmt.Fprintf(w, "\nWhy (%d session(s) need attention):\n", len(explained))
		for _, r := range explained {
			fmt.Fprintf(w, "\n  %s  %s\n", esc(rowKey(r)), esc(r.File))
			for _, d := range r.Diagnosis {
				fmt.Fprintf(w, "    %-19s %s\n", d.Code+":", esc(d.Message))
			}
		}
	}
	return nil
}

// memorySummary says what an agent's workspace memory holds, in a line.
func memorySummary(workspace string, files []store.MemoryFile) string {
	if workspace == "" {
		return "no workspace"
	}
	if len(files) == 0 {
		return "none in " + workspace
	}
	var daily, other int
	var total int64
	curated := "no MEMORY.md"
	for _, f := range files {
		total += f.Size
		switch {
		case f.Daily:
			daily++
		case f.Rel == "MEMORY.md" || f.Rel == "memory.md":
			curated = f.Rel
		default:
			other++
		}
	}
	return fmt.Sprintf("%s, %d daily notes, %d other files (%s) in %s", curated, daily, other, model.Bytes(total), workspace)
}

// storeSummary says what an agent's SQLite-era store holds, in a line.
func storeSummary(st *model.SQLiteStore) string {
	if st.Problem != "" {
		return st.Problem
	}
	keys := map[string]bool{}
	var events int64
	for _, w := range st.Windows {
		keys[w.Key] = true
		events += st.Stats[w.SessionID].Events
	}
	s := fmt.Sprintf("%d session key(s), %d generation(s), %d events in %s (agent schema %d)", len(keys), len(st.Windows), events, st.Path, st.SchemaVersion)
	if h := st.Memory; h != nil {
		state := "matches the memory files"
		if h.Stale() {
			state = fmt.Sprintf("stale: %d changed, %d never indexed, %d gone", len(h.Changed), len(h.NeverIndexed), len(h.Gone))
		}
		s += fmt.Sprintf("; memory index: %d file(s), %d chunk(s), %s", h.Indexed, h.Chunks, state)
	}
	return s
}

func rowKey(r model.SessionRow) string {
	if g := r.Generation; g != nil && !g.Current {
		return r.DisplayKey() + " (" + g.GenerationReason() + ")"
	}
	if k := r.DisplayKey(); k != "" {
		return k
	}
	if r.Origin == model.OriginSQLite {
		return "(sqlite store)"
	}
	return "(" + r.Name.Kind.String() + ") " + filepath.Base(r.File)
}

func codes(r model.SessionRow) string {
	var c []string
	for _, d := range r.Diagnosis {
		c = append(c, string(d.Code))
	}
	return strings.Join(c, ",")
}

// shortKey keeps the start and the end of a long key, as `openclaw
// sessions` does.
func shortKey(k string, width int) string {
	if len(k) <= width {
		return k
	}
	tail := width / 3
	return k[:width-tail-3] + "..." + k[len(k)-tail:]
}
