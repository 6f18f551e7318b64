package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

func (a *app) spaceCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "space",
		Short: "Where each agent store's bytes go, and what could be reclaimed",
		Long: `Where the bytes of each agent's SQLite-era store go: the file, its write-ahead
log and its free pages; every table and index by the bytes of its pages (as
SQLite's dbstat counts them); the transcripts' bytes by kind of entry
(messages by role, tool results, base64 images, custom types such as
openclaw.cache-ttl, compactions) and the largest sessions; the memory index
(chunks, full-text index, embedding cache); and what could be reclaimed: free
pages (the file shrinks only when vacuumed), leftover JSONL transcripts whose
every entry is in the store and orphaned memory reindex temp databases (which
retention --apply archives). It reads every page of each store once.`,
		Example: `clawvault-tui space
clawvault-tui space --agent ops --json`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return a.space() },
	}
}

func (a *app) space() error {
	ws, err := a.common.workspace()
	if err != nil {
		return err
	}
	spaces, err := store.MeasureSpace(a.ctx, store.OS, ws, statsCacheDir(), time.Now())
	if err != nil {
		return err
	}
	var errs []string
	for _, s := range spaces {
		if s.Err != "" {
			errs = append(errs, fmt.Sprintf("agent %s: its SQLite-era store %s cannot be read: %s", s.Agent, s.File, s.Err))
		}
	}
	if a.common.json {
		err = writeJSON(a.stdout, spaceDocOf(spaces, errs))
	} else {
		err = writeSpaceText(a.human(), spaces, ws)
	}
	if err == nil && len(errs) > 0 {
		err = exitError{1, errors.New(strings.Join(errs, "; "))}
	}
	return err
}

// writeSpaceText draws each store's space with bars.
func writeSpaceText(w io.Writer, spaces []model.AgentSpace, ws *store.Workspace) error {
	if len(spaces) == 0 {
		_, err := fmt.Fprintf(w, "No agent of %s keeps a SQLite-era store (agents/<id>/agent/openclaw-agent.sqlite).\n", esc(ws.StateDir))
		return err
	}
	for i, s := range spaces {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, line := range s.Lines(100) {
			if _, err := fmt.Fprintln(w, esc(line)); err != nil {
				return err
			}
		}
	}
	return nil
}

// The JSON shape below is a contract: fields may be added, never renamed.

type spaceDoc struct {
	Agents []agentSpaceDoc `json:"agents"`
	Errors []string        `json:"errors"`
}

type agentSpaceDoc struct {
	Agent                 string            `json:"agent"`
	File                  string            `json:"file"`
	Error                 string            `json:"error,omitempty"`
	FileBytes             int64             `json:"fileBytes"`
	WALBytes              int64             `json:"walBytes"`
	FreeBytes             int64             `json:"freeBytes"`
	PageSize              int64             `json:"pageSize"`
	Pages                 int64             `json:"pages"`
	Tables                []spaceObjectDoc  `json:"tables"`
	TranscriptEvents      int64             `json:"transcriptEvents"`
	TranscriptBytes       int64             `json:"transcriptBytes"`
	TranscriptBytesByType map[string]int64  `json:"transcriptBytesByType"`
	LargestSessions       []spaceSessionDoc `json:"largestSessions"`
	MemoryIndex           spaceMemoryDoc    `json:"memoryIndex"`
	Reclaim               spaceReclaimDoc   `json:"reclaim"`
}

type spaceObjectDoc struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Table string `json:"table"`
	Bytes int64  `json:"bytes"`
}

type spaceSessionDoc struct {
	SessionID  string `json:"sessionId"`
	SessionKey string `json:"sessionKey"`
	Events     int64  `json:"events"`
	Bytes      int64  `json:"bytes"`
}

type spaceMemoryDoc struct {
	Chunks              int64 `json:"chunks"`
	ChunkTextBytes      int64 `json:"chunkTextBytes"`
	ChunkBytes          int64 `json:"chunkBytes"`
	FTSBytes            int64 `json:"ftsBytes"`
	VectorBytes         int64 `json:"vectorBytes"`
	EmbeddingCacheRows  int64 `json:"embeddingCacheRows"`
	EmbeddingCacheBytes int64 `json:"embeddingCacheBytes"`
	OtherBytes          int64 `json:"otherBytes"`
}

type spaceReclaimDoc struct {
	TotalBytes int64 `json:"totalBytes"`
	// FreeBytes need a VACUUM (VacuumCommand) to leave the file.
	FreeBytes     int64  `json:"freeBytes"`
	VacuumCommand string `json:"vacuumCommand"`
	// The leftover JSONL of the sessions folder: every file, the verified
	// ones (retention archives them) and those not compared yet.
	LeftoverJSONLFiles         int   `json:"leftoverJsonlFiles"`
	LeftoverJSONLBytes         int64 `json:"leftoverJsonlBytes"`
	VerifiedJSONLFiles         int   `json:"verifiedJsonlFiles"`
	VerifiedJSONLBytes         int64 `json:"verifiedJsonlBytes"`
	UncheckedJSONLFiles        int   `json:"uncheckedJsonlFiles"`
	ReindexTempDatabases       int   `json:"reindexTempDatabases"`
	ReindexTempBytes           int64 `json:"reindexTempBytes"`
	OrphanReindexTempDatabases int   `json:"orphanReindexTempDatabases"`
	OrphanReindexTempBytes     int64 `json:"orphanReindexTempBytes"`
	ReindexLockHeld            bool  `json:"reindexLockHeld"`
}

func spaceDocOf(spaces []model.AgentSpace, errs []string) spaceDoc {
	doc := spaceDoc{Agents: []agentSpaceDoc{}, Errors: nonNil(errs)}
	for _, s := range spaces {
		d := agentSpaceDoc{Agent: s.Agent, File: s.File, Error: s.Err, FileBytes: s.FileBytes, WALBytes: s.WALBytes, FreeBytes: s.FreeBytes,
			PageSize: s.PageSize, Pages: s.Pages, Tables: []spaceObjectDoc{}, TranscriptEvents: s.Events, TranscriptBytes: s.EventBytes,
			TranscriptBytesByType: map[string]int64{}, LargestSessions: []spaceSessionDoc{}}
		maps.Copy(d.TranscriptBytesByType, s.ByKind)
		for _, o := range s.Objects {
			d.Tables = append(d.Tables, spaceObjectDoc(o))
		}
		for _, ss := range s.Sessions {
			d.LargestSessions = append(d.LargestSessions, spaceSessionDoc{SessionID: ss.SessionID, SessionKey: ss.Key, Events: ss.Events, Bytes: ss.Bytes})
		}
		m := s.Memory
		d.MemoryIndex = spaceMemoryDoc{Chunks: m.Chunks, ChunkTextBytes: m.ChunkTextBytes, ChunkBytes: m.ChunkBytes, FTSBytes: m.FTSBytes,
			VectorBytes: m.VectorBytes, EmbeddingCacheRows: m.EmbeddingCacheRows, EmbeddingCacheBytes: m.EmbeddingCacheBytes, OtherBytes: m.SourceBytes + m.OtherBytes}
		d.Reclaim = spaceReclaimDoc{TotalBytes: s.Reclaim.Total(), FreeBytes: s.Reclaim.FreeBytes, VacuumCommand: s.VacuumCommand,
			LeftoverJSONLFiles: s.Leftovers, LeftoverJSONLBytes: s.LeftoverBytes, VerifiedJSONLFiles: s.Verified, VerifiedJSONLBytes: s.VerifiedBytes,
			UncheckedJSONLFiles: s.Unchecked, ReindexTempDatabases: s.ReindexTemp, ReindexTempBytes: s.ReindexBytes,
			OrphanReindexTempDatabases: s.Orphans, OrphanReindexTempBytes: s.OrphanBytes, ReindexLockHeld: s.ReindexLockHeld}
		doc.Agents = append(doc.Agents, d)
	}
	slices.SortStableFunc(doc.Agents, func(a, b agentSpaceDoc) int { return strings.Compare(a.Agent, b.Agent) })
	return doc
}
