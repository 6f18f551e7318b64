package cli

import (
	"bytes"
	"io/fs"
	"testing"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store"
)

// The status document as it was built whole and encoded by writeJSON
// before writeStatusJSON streamed it: these types are the contract (fields
// may be added, never renamed), and the streamed output must be byte for
// byte what encoding them gives.

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
	Errors     []string       `json:"errors"`
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
		Errors:   nonNil(snap.StoreErrors(nil)),
		Counts:   map[string]int{},
		TakenAt:  jscompat.FormatISOTime(snap.TakenAt),
		Sessions: []sessionDoc{},
	}
	if err := snap.Cursors.Seq.ReadError; err != nil {
		doc.SeqCursors.ReadError = model.OSReason(err)
	}
	if err := snap.Cursors.ReadError; err != nil {
		doc.Cursors.ReadError = model.OSReason(err)
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
			ad.Memory = append(ad.Memory, memoryDoc{Path: m.Path, SizeBytes: m.Size, ModifiedAt: jscompat.FormatISOTime(m.ModTime), Daily: m.Daily})
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
		d.ModifiedAt = jscompat.FormatISOTime(r.ModTime)
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
		seq, at := c.LastSeq, jscompat.FormatISOTime(c.ObservedAt)
		d.LastObservedSeq, d.LastObservedAt = &seq, &at
	}
	if e := r.Entry; e != nil {
		m := &metaDoc{
			ChatType: e.ChatType, Channel: e.Channel, Model: e.Model, ContextTokens: e.ContextTokens,
			TotalTokens: e.TotalTokens, CompactionCount: e.CompactionCount,
			MemoryFlushCompactionCount: e.MemoryFlushCompactionCount, EstimatedCostUSD: e.EstimatedCostUSD,
		}
		if ms := e.UpdatedAt.Ms(); ms > 0 {
			s := jscompat.FormatISOTime(time.UnixMilli(ms))
			m.UpdatedAt = &s
		}
		d.Meta = m
	}
	return d
}

// The streamed status document is byte for byte what encoding the
// document types gives, on the demo (every diagnosis, every origin, a
// corrupt store, invalid cursors), with --problems' subset, and with a
// row whose strings need every escape encoding/json makes.
func TestStatusJSONStreamedAsEncoded(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	snap := scanDemoDir(t, dir)
	odd := snap.Rows[0]
	odd.Key = "agent:main:<odd>&\"quoted\"\n\t\u2028\x01\xff"
	cost, zero := 1e-7, 0.0
	tokens := int64(-3)
	odd.Entry = &model.StatusEntry{ChatType: "a&b", EstimatedCostUSD: &cost, TotalTokens: &tokens}
	odd.Siblings = []string{"x.jsonl.reset.2026"}
	zeroCost := snap.Rows[1]
	zeroCost.Entry = &model.StatusEntry{EstimatedCostUSD: &zero}
	zeroCost.Diagnosis = nil
	unreadable := *snap
	unreadable.Cursors.ReadError = &fs.PathError{Op: "open", Path: unreadable.Cursors.Path, Err: fs.ErrPermission}
	for name, c := range map[string]struct {
		snap *store.Snapshot
		rows []model.SessionRow
	}{
		"all":        {snap, snap.Rows},
		"none":       {snap, nil},
		"odd":        {snap, []model.SessionRow{odd, zeroCost}},
		"unreadable": {&unreadable, nil},
	} {
		var want bytes.Buffer
		if err := writeJSON(&want, statusJSON(c.snap, c.rows)); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := writeStatusJSON(&got, c.snap, c.rows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			// firstDiff labels the streamed line "ours", the encoded one "ClawVault".
			t.Errorf("%s: the streamed status differs from the encoded document, %s", name, firstDiff(got.String(), want.String()))
		}
	}
}
