package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"clawvault-tui/jscompat"
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
cursor file, never transcript content, unless --deep; but the JSONL left
beside an agent's SQLite-era store is compared with the store once (and its
verdict cached) to say whether every entry is in it. A store that cannot be
read exits 1, named in the errors.`,
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
	common := a.common
	common.warnings = nil // in the header, and the JSON's warnings
	ws, err := common.workspace()
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
		err = writeStatusJSON(a.stdout, snap, rows)
	} else {
		err = writeStatusText(a.human(), snap, rows)
	}
	if errs := snap.StoreErrors(nil); err == nil && len(errs) > 0 {
		// A store that cannot be read hides its sessions: the rows above
		// are all the others, and the run fails, naming it.
		err = exitError{1, errors.New(strings.Join(errs, "; "))}
	}
	return err
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

type generationStatusDoc struct {
	Reason            string `json:"reason"`
	PreviousSessionID string `json:"previousSessionId,omitempty"`
	Current           bool   `json:"current"`
	Cold              bool   `json:"cold,omitempty"`
	Events            int64  `json:"events"`
	LastSeq           int64  `json:"lastSeq"`
	PendingEvents     int64  `json:"pendingEvents"`
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

// writeStatusJSON writes the status document, a session at a time. Its
// shape is a contract: fields may be added, never renamed (the document
// types in status_doc_test.go spell it out, and a test holds this writer
// to them byte for byte).
func writeStatusJSON(w io.Writer, snap *store.Snapshot, rows []model.SessionRow) error {
	ws := snap.Workspace
	s := newJSONStream(w)
	s.Object()
	s.Key("stateDir")
	s.String(ws.StateDir)
	s.Key("vault")
	s.String(ws.Vault)

	c := snap.Cursors
	cursors := cursorFileDoc{Path: c.Path, Exists: !c.Missing, Cursors: c.Store.Len(), Corrupt: c.Corrupt, Problems: c.Problems}
	if c.ReadError != nil {
		cursors.ReadError = model.OSReason(c.ReadError)
	}
	seq := cursorFileDoc{Path: c.Seq.Path, Exists: !c.Seq.Missing, Cursors: len(c.Seq.Cursors), Corrupt: c.Seq.Corrupt, Problems: c.Seq.Problems}
	if c.Seq.ReadError != nil {
		seq.ReadError = model.OSReason(c.Seq.ReadError)
	}
	s.Key("cursors")
	s.Value(cursors)
	s.Key("seqCursors")
	s.Value(seq)

	// A few agents: each document is built whole.
	counts := map[string]int{}
	s.Key("agents")
	if len(ws.Agents) == 0 {
		s.Null() // a nil slice, as the document always had
	} else {
		perAgent := map[string]int{}
		for _, r := range snap.Rows {
			perAgent[r.Agent]++
		}
		s.Array()
		for i, a := range ws.Agents {
			ad := agentJSON(snap, i, a, perAgent[a.ID])
			for _, d := range ad.Diagnosis {
				counts[string(d.Code)]++
			}
			s.Value(ad)
		}
		s.End(']')
	}

	s.Key("sessions")
	s.Array()
	s.ElementsInBlocks(len(rows), 256, func(sub *jsonStream, i int) { writeSessionJSON(sub, &rows[i]) })
	for i := range rows {
		for _, d := range rows[i].Diagnosis {
			counts[string(d.Code)]++
		}
	}
	s.End(']')

	s.Key("problems")
	writeStrings(s, snap.Problems)
	s.Key("counts")
	s.Object()
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		s.Key(k)
		s.Int(int64(counts[k]))
	}
	s.End('}')
	s.Key("takenAt")
	s.String(jscompat.FormatISOTime(snap.TakenAt))
	s.Key("warnings")
	writeStrings(s, ws.Warnings)
	s.Key("errors")
	writeStrings(s, append([]string{}, snap.StoreErrors(nil)...))
	s.End('}')
	return s.Finish()
}

// writeSessionJSON writes one session's object: the fields of the
// command-line contract in their order, then those added since.
func writeSessionJSON(s *jsonStream, r *model.SessionRow) {
	s.Object()
	writeSessionContract(s, r)
	writeSessionDetail(s, r)
	s.End('}')
}

// writeSessionContract writes the session fields the command-line
// contract names (status: agent … diagnosis).
func writeSessionContract(s *jsonStream, r *model.SessionRow) {
	s.Key("agent")
	s.String(r.Agent)
	s.Key("sessionKey")
	s.String(r.DisplayKey())
	s.Key("sessionId")
	s.String(r.SessionID)
	s.Key("file")
	s.String(r.File)
	s.Key("source")
	s.String(r.Label)
	s.Key("sizeBytes")
	s.Int(r.Size)
	s.Key("cursorOffset")
	if r.Cursor != nil {
		s.Float(r.Cursor.LastObservedOffset) // as the file says (1e19 too), JSON.stringify's way
	} else {
		s.Null()
	}
	s.Key("lastObservedAt")
	switch {
	case r.SeqCursor != nil: // a SQLite-era session's seq cursor
		s.String(jscompat.FormatISOTime(r.SeqCursor.ObservedAt))
	case r.Cursor != nil:
		s.String(r.Cursor.LastObservedAt)
	default:
		s.Null()
	}
	s.Key("startOffset")
	s.Int(r.Selection.StartOffset)
	s.Key("pendingBytes")
	s.Int(r.Selection.NewBytes)
	s.Key("thresholdBytes")
	s.Int(r.Selection.ThresholdBytes)
	s.Key("candidate")
	s.Bool(r.Candidate)
	s.Key("stale")
	s.Bool(r.Stale)
	s.Key("diagnosis")
	writeDiagnosisJSON(s, r.Diagnosis)
}

// writeDiagnosisJSON writes the diagnosis as an array of {code, message}.
func writeDiagnosisJSON(s *jsonStream, diagnosis []model.Diagnosis) {
	s.Array()
	for _, d := range diagnosis {
		s.Object()
		s.Key("code")
		s.String(string(d.Code))
		s.Key("message")
		s.String(d.Message)
		s.End('}')
	}
	s.End(']')
}

// writeSessionDetail writes the fields added to the contract's: where the
// row comes from, the file, the entry's metadata, the SQLite generation.
func writeSessionDetail(s *jsonStream, r *model.SessionRow) {
	s.Key("origin")
	s.String(r.Origin.String())
	s.Key("fileKind")
	s.String(r.Name.Kind.String())
	s.Key("exists")
	s.Bool(r.Exists)
	if !r.ModTime.IsZero() {
		s.Key("modifiedAt")
		writeISOTime(s, r.ModTime)
	}
	s.Key("discovered")
	s.Bool(r.Discovered)
	s.KeyString("observerKey", r.ObserverKey)
	s.KeyString("cursorId", r.CursorID)
	if len(r.Siblings) > 0 {
		s.Key("siblings")
		writeStrings(s, r.Siblings)
	}
	if e := r.Entry; e != nil {
		s.Key("meta")
		writeMetaJSON(s, e)
	}
	if g := r.Generation; g != nil {
		s.Key("generation")
		s.Value(generationStatusDoc{Reason: g.GenerationReason(), PreviousSessionID: g.Previous, Current: g.Current, Cold: g.Cold,
			Events: g.Events, LastSeq: g.LastSeq, PendingEvents: g.PendingEvents})
	}
	if c := r.SeqCursor; c != nil {
		s.Key("lastObservedSeq")
		s.Int(c.LastSeq)
	}
}

// agentJSON is one agent's document.
func agentJSON(snap *store.Snapshot, i int, a store.Agent, sessions int) agentDoc {
	ad := agentDoc{ID: a.ID, SessionsDir: a.SessionsDir, SessionsJSON: a.StorePath, Workspace: a.Workspace, SQLite: a.SQLitePath,
		Sessions: sessions, Memory: []memoryDoc{}, Diagnosis: nonNil(snap.AgentDiagnoses[a.ID])}
	for _, m := range snap.Memory[a.ID] {
		ad.Memory = append(ad.Memory, memoryDoc{Path: m.Path, SizeBytes: m.Size, ModifiedAt: jscompat.FormatISOTime(m.ModTime), Daily: m.Daily})
	}
	if i < len(snap.Agents) {
		ad.StoreMissing, ad.StoreProblem = snap.Agents[i].StoreMissing, snap.Agents[i].StoreProblem
		ad.SQLiteStore = sqliteStoreJSON(snap.Agents[i].SQLiteStore)
	}
	return ad
}

// writeMetaJSON writes what status shows of a sessions.json row.
func writeMetaJSON(s *jsonStream, e *model.StatusEntry) {
	s.Object()
	s.Key("updatedAt")
	if ms := e.UpdatedAt.Ms(); ms > 0 {
		writeISOTime(s, time.UnixMilli(ms))
	} else {
		s.Null()
	}
	for _, f := range [...]struct{ key, value string }{{"chatType", e.ChatType}, {"channel", e.Channel}, {"model", e.Model}} {
		if f.value != "" {
			s.Key(f.key)
			s.String(f.value)
		}
	}
	for _, f := range [...]struct {
		key   string
		value *int64
	}{{"contextTokens", e.ContextTokens}, {"totalTokens", e.TotalTokens}} {
		if f.value != nil {
			s.Key(f.key)
			s.Int(*f.value)
		}
	}
	for _, f := range [...]struct {
		key   string
		value *int
	}{{"compactionCount", e.CompactionCount}, {"memoryFlushCompactionCount", e.MemoryFlushCompactionCount}} {
		if f.value != nil {
			s.Key(f.key)
			s.Int(int64(*f.value))
		}
	}
	if e.EstimatedCostUSD != nil {
		s.Key("estimatedCostUsd")
		s.Float(*e.EstimatedCostUSD)
	}
	s.End('}')
}

// writeISOTime writes jscompat.FormatISOTime(t) as a JSON string without
// making the string: two for each of 50,000 rows. The format has nothing
// JSON escapes.
func writeISOTime(s *jsonStream, t time.Time) {
	s.value()
	s.b = append(s.b, '"')
	s.b = t.UTC().AppendFormat(s.b, jscompat.ISOTimeLayout)
	s.b = append(s.b, '"')
}

// writeStrings writes a list of strings; none is [], as the document
// always had (nonNil).
func writeStrings(s *jsonStream, list []string) {
	s.Array()
	for _, v := range list {
		s.String(v)
	}
	s.End(']')
}

// writeStatusText renders status for a person: what it looked at, a row
// per session, and why the sessions that need attention do.
func writeStatusText(w io.Writer, snap *store.Snapshot, rows []model.SessionRow) error {
	writeStatusHeader(w, snap)
	if err := writeStatusTable(w, snap, rows); err != nil {
		return err
	}
	writeStatusWhy(w, rows)
	return nil
}

// writeStatusHeader writes what status looked at: the state dir, the
// vault, the cursor files, each agent's memory and store, the warnings.
func writeStatusHeader(w io.Writer, snap *store.Snapshot) {
	ws := snap.Workspace
	vault := ws.Vault
	if vault == "" {
		vault = "none found (pass -v DIR)"
	} else {
		vault += " (" + ws.VaultSource + ")"
	}
	fmt.Fprintf(w, "State dir: %s (%s)\nVault:     %s\n", ws.StateDir, ws.StateDirSource, vault)
	writeCursorFiles(w, snap.Cursors)
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
}

// writeCursorFiles says how the cursor file and the seq cursor file read.
func writeCursorFiles(w io.Writer, c model.CursorState) {
	switch {
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
	if c := c.Seq; c.ReadError != nil {
		fmt.Fprintf(w, "Seq cursors: %s cannot be read: %s\n", esc(c.Path), esc(model.OSReason(c.ReadError)))
	} else if c.Corrupt != "" {
		fmt.Fprintf(w, "Seq cursors: %s does not parse: %s\n", esc(c.Path), esc(c.Corrupt))
	} else if !c.Missing {
		fmt.Fprintf(w, "Seq cursors: %d in %s (SQLite-era sessions)\n", len(c.Cursors), esc(c.Path))
	}
}

// writeStatusTable writes a row per session.
func writeStatusTable(w io.Writer, snap *store.Snapshot, rows []model.SessionRow) error {
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
	return tw.Flush()
}

// writeStatusWhy explains the sessions that need attention, a line per
// diagnosis.
func writeStatusWhy(w io.Writer, rows []model.SessionRow) {
	var explained []model.SessionRow
	for _, r := range rows {
		if worstSeverity(r) >= 2 {
			explained = append(explained, r)
		}
	}
	if len(explained) == 0 {
		return
	}
	need := "need"
	if len(explained) == 1 {
		need = "needs"
	}
	fmt.Fprintf(w, "\nWhy (%s %s attention):\n", model.Plural(len(explained), "session", "sessions"), need)
	for _, r := range explained {
		fmt.Fprintf(w, "\n  %s  %s\n", esc(rowKey(r)), esc(r.File))
		for _, d := range r.Diagnosis {
			fmt.Fprintf(w, "    %-19s %s\n", d.Code+":", esc(d.Message))
		}
	}
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
	s := fmt.Sprintf("%s, %s, %s in %s (agent schema %d)", model.Plural(len(keys), "session key", "session keys"),
		model.Plural(len(st.Windows), "generation", "generations"), model.Plural(events, "event", "events"), st.Path, st.SchemaVersion)
	if h := st.Memory; h != nil {
		state := "matches the memory files"
		if h.Stale() {
			state = fmt.Sprintf("stale: %d changed, %d never indexed, %d gone", len(h.Changed), len(h.NeverIndexed), len(h.Gone))
		}
		s += fmt.Sprintf("; memory index: %s, %s, %s", model.Plural(h.Indexed, "file", "files"), model.Plural(h.Chunks, "chunk", "chunks"), state)
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
