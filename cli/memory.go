package cli

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/memsearch"
)

// memoryHTTPClient, when set, carries the memory commands' embedding
// requests (the tests point it at their own endpoint).
var memoryHTTPClient *http.Client

// memoryFlags are the flags of `clawvault-tui memory search`.
type memoryFlags struct {
	explain    []string
	now        string
	maxResults int
	minScore   float64
	timeout    time.Duration
}

func (a *app) memoryCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "memory",
		Short: "OpenClaw's memory_search replayed and explained; the index's health",
		Long: `The memory search index OpenClaw keeps in each agent's SQLite store, seen as
the agent sees it: memory search replays its memory_search for a query, and
says why a file is or is not among what it returns; memory status checks the
index against the files, the settings and the embedding provider.`,
		Args: noArgs,
	}
	c.AddCommand(a.memorySearchCommand(), a.memoryStatusCommand())
	return c
}

func (a *app) memorySearchCommand() *cobra.Command {
	var f memoryFlags
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "What memory_search returns to the agent for QUERY, and why a file is missing",
		Long: `Runs OpenClaw 2026.9.6's memory_search over the agent's own index, with the
settings OpenClaw resolves from openclaw.json: the query is embedded through
the same provider and model as the index (the only network call; API keys are
read where OpenClaw reads them and never printed), the keyword leg runs on the
index's FTS5 tables, and the results are merged, decayed, diversified (MMR)
and cut as OpenClaw does. --json prints what ` + "`openclaw memory search --json`" + `
prints, plus an "explain" object. --explain PATH says why that file is or is
not returned, with its numbers. Nothing is written to the store.`,
		Example: `clawvault-tui memory search "router vlan plan" --agent main
clawvault-tui memory search "dark roast" --explain memory/2026-09-01.md
clawvault-tui memory search deploy --json --now 2026-11-21T12:00:00Z`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("memory search needs a query, as in: clawvault-tui memory search \"router vlan\"")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return a.memorySearch(c, f, strings.Join(args, " "))
		},
	}
	fs := c.Flags()
	fs.StringArrayVar(&f.explain, "explain", nil, "explain why this file (relative to the workspace) is or is not returned; repeatable")
	_ = c.MarkFlagFilename("explain", "md")
	fs.StringVar(&f.now, "now", "", "a fixed clock (RFC 3339) for the age of dated notes")
	fs.IntVar(&f.maxResults, "max-results", 0, "results to return (default: memory.search.query.maxResults, 6)")
	fs.Float64Var(&f.minScore, "min-score", -1, "minimum score (default: memory.search.query.minScore, 0.35)")
	fs.DurationVar(&f.timeout, "timeout", 0, "how long to wait for the embedding endpoint (default 20s)")
	return c
}

// memoryAgent is the one agent a memory command works on.
func (a *app) memoryAgent() (*store.Workspace, store.Agent, error) {
	ws, err := a.common.workspace()
	if err != nil {
		return nil, store.Agent{}, err
	}
	id := a.common.locate.Agent
	if id == "" {
		id = memsearch.DefaultAgent(ws.ConfigPath) // as OpenClaw's memory commands choose
	}
	for _, ag := range ws.Agents {
		if ag.ID == id {
			return ws, ag, nil
		}
	}
	if a.common.locate.Agent == "" {
		return ws, ws.Agents[0], nil
	}
	return nil, store.Agent{}, fmt.Errorf("agent %q has no folder in %s", id, ws.StateDir)
}

func (a *app) memorySearch(c *cobra.Command, f memoryFlags, query string) error {
	ws, ag, err := a.memoryAgent()
	if err != nil {
		return err
	}
	req := memsearch.Request{Agent: ag, ConfigPath: ws.ConfigPath, Getenv: os.Getenv, Query: query, Explain: f.explain}
	if f.now != "" {
		t, err := time.Parse(time.RFC3339, f.now)
		if err != nil {
			return usageError("--now %q is not a time such as 2026-11-21T12:00:00Z", f.now)
		}
		req.Now = t
	}
	if c.Flags().Changed("max-results") {
		if f.maxResults <= 0 {
			return usageError("--max-results must be a positive integer")
		}
		req.MaxResults = &f.maxResults
	}
	if c.Flags().Changed("min-score") {
		req.MinScore = &f.minScore
	}
	s := memsearch.NewSession()
	defer s.Close()
	s.Timeout, s.HTTP = f.timeout, memoryHTTPClient
	if !a.common.json {
		req.Progress = func(p memsearch.Progress) {
			if p.Stage == "embedding" {
				fmt.Fprintf(a.stderr, "embedding the query through %s …\n", esc(p.Detail))
			}
		}
	}
	rep, err := s.Replay(a.ctx, req)
	if err != nil {
		return err
	}
	if a.common.json {
		return writeMemorySearchJSON(a.stdout, rep)
	}
	return writeMemorySearchText(a.human(), rep)
}

// writeMemorySearchText prints the results as OpenClaw does (score,
// path:lines, snippet), the status when memory_search gives nothing, and
// the explanations.
func writeMemorySearchText(w io.Writer, rep *memsearch.Report) error {
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", esc(warn))
	}
	switch rep.Status {
	case memsearch.StatusOK, memsearch.StatusKeywordOnly:
		if rep.Status == memsearch.StatusKeywordOnly {
			fmt.Fprintf(w, "%s\n", esc(rep.Reason))
		}
		writeEntries(w, rep.Results)
	default:
		fmt.Fprintf(w, "memory_search gives the agent nothing: %s\n", esc(rep.Reason))
		if len(rep.Fallback) > 0 {
			fmt.Fprintf(w, "\nKeyword-only ranking (NOT what the agent gets):\n")
			writeEntries(w, rep.Fallback)
		}
	}
	for _, e := range rep.Explain {
		fmt.Fprintf(w, "\n%s: %s\n", esc(e.Path), esc(e.Reason))
		for _, n := range e.Notes {
			fmt.Fprintf(w, "  note: %s\n", esc(n))
		}
	}
	return nil
}

func writeEntries(w io.Writer, entries []*recall.Entry) {
	if len(entries) == 0 {
		fmt.Fprintln(w, "No matches.")
		return
	}
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%.3f %s:%d-%d\n%s\n", e.Score, esc(e.Path), e.StartLine, e.EndLine, model.EscapeControlsText(e.Snippet))
	}
}

func (a *app) memoryStatusCommand() *cobra.Command {
	var noProbe bool
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "status",
		Short: "The memory search index's health, per agent",
		Long: `For each agent (or --agent), in one place: the index in its SQLite store
(files, chunks, tokenizer), its identity against the settings (a mismatch
pauses memory_search), sqlite-vec's state, the memory files it misses or
holds an old version of, the embedding provider and whether it answers (one
small embedding request; --no-probe skips it), and the temp databases an
interrupted reindex left beside the store.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return a.memoryStatus(!noProbe, timeout)
		},
	}
	c.Flags().BoolVar(&noProbe, "no-probe", false, "do not send the provider a test embedding")
	c.Flags().DurationVar(&timeout, "timeout", 5*time.Second, "how long to wait for the provider's answer")
	return c
}

func (a *app) memoryStatus(probe bool, timeout time.Duration) error {
	ws, err := a.common.workspace()
	if err != nil {
		return err
	}
	s := memsearch.NewSession()
	defer s.Close()
	s.Timeout, s.HTTP = timeout, memoryHTTPClient
	var out []*memsearch.Health
	for _, ag := range ws.Agents {
		if a.common.locate.Agent != "" && ag.ID != a.common.locate.Agent {
			continue
		}
		if a.common.locate.Agent == "" && ag.SQLitePath == "" {
			continue // only agents of the SQLite era have the index
		}
		h, err := s.Status(a.ctx, memsearch.StatusRequest{Agent: ag, ConfigPath: ws.ConfigPath, Getenv: os.Getenv, Probe: probe})
		if err != nil {
			return err
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		if a.common.locate.Agent != "" {
			return fmt.Errorf("agent %q has no folder in %s", a.common.locate.Agent, ws.StateDir)
		}
		return fmt.Errorf("no agent in %s has a SQLite store, where OpenClaw 2026.8 and later keep the memory search index", ws.StateDir)
	}
	if a.common.json {
		return writeJSON(a.stdout, map[string]any{"agents": healthJSON(out)})
	}
	writeHealthText(a.human(), out)
	return nil
}
