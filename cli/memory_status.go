package cli

import (
	"fmt"
	"io"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store/memsearch"
)

// healthDoc is one agent of `memory status --json`.
type healthDoc struct {
	Agent         string            `json:"agent"`
	Store         string            `json:"store"`
	Problem       string            `json:"problem,omitempty"`
	Files         int               `json:"files"`
	Chunks        int               `json:"chunks"`
	Tokenizer     string            `json:"tokenizer,omitempty"`
	Identity      map[string]any    `json:"identity"`
	VectorState   string            `json:"vectorState,omitempty"`
	NeverIndexed  []string          `json:"neverIndexed"`
	Changed       []string          `json:"changed"`
	Gone          []string          `json:"gone"`
	Provider      map[string]any    `json:"provider,omitempty"`
	ReindexFiles  []reindexFileJSON `json:"reindexFiles"`
	ReindexBytes  int64             `json:"reindexBytes"`
	Warnings      []string          `json:"warnings"`
	Stale         bool              `json:"stale"`
	StaleSentence string            `json:"staleMessage,omitempty"`
}

type reindexFileJSON struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

func healthJSON(hs []*memsearch.Health) []healthDoc {
	out := make([]healthDoc, 0, len(hs))
	for _, h := range hs {
		d := healthDoc{Agent: h.Agent, Store: h.Store, Problem: h.Problem, Files: h.Files, Chunks: h.Chunks, Tokenizer: h.Tokenizer,
			VectorState: h.VectorState, NeverIndexed: nonNil(h.Stale.NeverIndexed), Changed: nonNil(h.Stale.Changed),
			Gone: nonNil(h.Stale.Gone), ReindexBytes: h.ReindexBytes, Warnings: nonNil(h.Warnings), Stale: h.Stale.Stale(),
			ReindexFiles: []reindexFileJSON{}}
		if diag := h.Stale.Diagnosis(); diag != nil {
			d.StaleSentence = diag.Message
		}
		d.Identity = map[string]any{"status": h.Identity.Status, "code": h.Identity.Code, "reason": h.Identity.Reason}
		if m := h.Meta; m != nil {
			d.Identity["provider"], d.Identity["model"], d.Identity["sources"] = m.Provider, m.Model, nonNil(m.Sources)
			if m.VectorDims != nil {
				d.Identity["vectorDims"] = *m.VectorDims
			}
		}
		d.Provider = providerJSON(h)
		for _, f := range h.Reindex {
			d.ReindexFiles = append(d.ReindexFiles, reindexFileJSON{f.Path, f.Size})
		}
		out = append(out, d)
	}
	return out
}

func providerJSON(h *memsearch.Health) map[string]any {
	if h.ProviderProblem != "" {
		return map[string]any{"problem": h.ProviderProblem}
	}
	p := h.Provider
	if p == nil {
		return nil
	}
	out := map[string]any{"id": p.ID, "model": p.Model, "endpoint": p.Host(), "apiKeyFrom": p.KeySource}
	if pr := h.Probe; pr != nil {
		out["reachable"], out["probeMs"], out["dims"] = pr.OK, pr.Took.Milliseconds(), pr.Dims
		if pr.Error != "" {
			out["error"] = pr.Error
		}
	}
	return out
}

func writeHealthText(w io.Writer, hs []*memsearch.Health) {
	for i, h := range hs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Agent %s: %s\n", esc(h.Agent), esc(h.Store))
		if h.Problem != "" {
			fmt.Fprintf(w, "  %s\n", esc(h.Problem))
			continue
		}
		fmt.Fprintf(w, "  index        %d files, %d chunks, tokenizer %s, sqlite-vec %s\n", h.Files, h.Chunks, esc(h.Tokenizer), esc(h.VectorState))
		fmt.Fprintf(w, "  identity     %s\n", esc(identityLine(h)))
		fmt.Fprintf(w, "  files        %s\n", esc(staleLine(h.Stale)))
		fmt.Fprintf(w, "  provider     %s\n", esc(providerLine(h)))
		if len(h.Reindex) > 0 {
			fmt.Fprintf(w, "  reindex      %d temp files beside the store (%s), left by an interrupted reindex unless one runs now\n", len(h.Reindex), humanBytes(h.ReindexBytes))
		}
		for _, warn := range h.Warnings {
			fmt.Fprintf(w, "  warning      %s\n", esc(warn))
		}
	}
}

func identityLine(h *memsearch.Health) string {
	if h.Meta == nil {
		return "missing: OpenClaw rebuilds the index on its next search"
	}
	built := h.Meta.Provider + "/" + h.Meta.Model
	switch {
	case h.Identity.Status == "":
		return "built with " + built + "; not checked (the provider cannot be set up)"
	case h.Identity.Valid():
		return "built with " + built + ", matches the settings"
	}
	return fmt.Sprintf("%s (%s): built with %s; memory_search is paused until `openclaw memory index --force`", h.Identity.Status, h.Identity.Reason, built)
}

func staleLine(st model.MemoryIndexHealth) string {
	if d := st.Diagnosis(); d != nil {
		return d.Message
	}
	return "the index matches the memory files"
}

func providerLine(h *memsearch.Health) string {
	if h.ProviderProblem != "" {
		return "cannot be set up: " + h.ProviderProblem
	}
	p := h.Provider
	if p == nil {
		return "none (keyword search only)"
	}
	line := fmt.Sprintf("%s %s at %s", p.ID, p.Model, p.Host())
	if p.KeySource != "" {
		line += ", API key from " + p.KeySource
	}
	switch pr := h.Probe; {
	case pr == nil:
	case pr.OK:
		line += fmt.Sprintf(": answers (%d dimensions, %d ms)", pr.Dims, pr.Took.Milliseconds())
	default:
		line += ": " + strings.TrimSpace(pr.Error) + " (memory_search answers \"unavailable\" while this lasts)"
	}
	return line
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
