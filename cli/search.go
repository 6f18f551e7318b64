package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/search"
)

// searchFlags are the flags of `clawvault-tui search`.
type searchFlags struct {
	limit                int
	reindex, transcripts bool
}

func (a *app) searchCommand() *cobra.Command {
	var f searchFlags
	c := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search all memory: path:line, score and the line, best first",
		Long: `Searches the vault and every agent's workspace memory (and, with
--transcripts, what users and assistants said) through an on-disk index in the
cache folder, brought up to date first. The words of QUERY may be one argument
or several; words, phrases and filters must all hold:

  postgresql migration   sections with every word (stemmed, diacritics folded)
  mongo*                 words that start so
  "credit notes"         the words in a row
  -draft -type:todo      leaves out sections with the word or the filter
  path:decisions         files whose path in the vault or workspace starts so
  type:decision,lesson   observation lines of these types
  i>=0.8 c<0.5           observation lines by importance or confidence

An argument that is not one of the flags below, such as -draft, is part of the
query; after -- every argument is. --agent keeps the vault's hits and that
agent's.`,
		Example: `clawvault-tui search postgresql cut-over
clawvault-tui search '"credit notes"' type:decision i>=0.8 -draft
clawvault-tui search --transcripts --agent work rollback --limit 5`,
		// Flags are told apart from query words before parsing: see
		// splitSearchArgs.
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error {
			words, help, err := a.parseWords(c, args)
			if err != nil || help {
				return err
			}
			return a.search(f, strings.Join(words, " "))
		},
	}
	c.Flags().IntVar(&f.limit, "limit", 0, "most hits to print (default: [search] limit, 20)")
	c.Flags().BoolVar(&f.reindex, "reindex", false, "drop the index and build it again before searching")
	c.Flags().BoolVar(&f.transcripts, "transcripts", false, "also search the user and assistant text of transcripts")
	return c
}

// search answers a query; an empty one with --reindex only rebuilds.
func (a *app) search(f searchFlags, text string) error {
	stdout, stderr, common := a.stdout, a.stderr, &a.common
	if strings.TrimSpace(text) == "" && !f.reindex {
		return usageError(`search needs a query, as in: clawvault-tui search postgres "credit notes" type:decision`)
	}
	opt, roots, err := a.searchOptions(&f)
	if err != nil {
		return err
	}
	ix, release, err := a.openIndex(opt)
	if err != nil {
		return err
	}
	defer release()
	if reason := ix.RebuildReason(); reason != "" {
		fmt.Fprintf(stderr, "clawvault-tui: %s\n", esc(reason))
	}
	st, err := syncIndex(a.ctx, ix, f.reindex, stderr)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		fmt.Fprintf(stdout, "Search index rebuilt: %s, %s, in %s.\n", model.Plural(st.Files, "file", "files"), model.Plural(st.Docs, "section", "sections"), ix.Dir())
		return nil
	}
	// Not under serve: the collector's settings are the process's, and
	// other sessions run in it.
	if st.Bytes == 0 && st.Removed == 0 && a.remote == nil {
		defer collectLess()()
	}
	res, err := ix.Search(a.ctx, text, search.SearchOptions{Limit: f.limit, Roots: roots})
	if errors.Is(err, search.ErrDamaged) {
		// Found by the query: the sync sets the index aside and builds it
		// again (and says so), and the query runs on the new one.
		if _, err := syncIndex(a.ctx, ix, false, stderr); err != nil {
			return err
		}
		res, err = ix.Search(a.ctx, text, search.SearchOptions{Limit: f.limit, Roots: roots})
	}
	if err != nil {
		var qe *search.QueryError
		if errors.As(err, &qe) {
			return usageError("bad query: %w", err)
		}
		return err
	}
	if common.json {
		return writeJSON(stdout, searchJSON(text, res))
	}
	return writeSearchText(stdout, res, colorOutput(stdout))
}

// searchOptions says what the index covers and where it is, from the
// config and the flags (f.limit is set from the config when not given),
// and the roots --agent keeps the hits of (none: all).
func (a *app) searchOptions(f *searchFlags) (search.Options, []string, error) {
	common := &a.common
	cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
	if err != nil {
		return search.Options{}, nil, err
	}
	if f.transcripts {
		cfg.Search.Transcripts = true
	}
	if f.limit <= 0 {
		f.limit = max(cfg.Search.Limit, 1)
	}
	// The index covers every agent of the state dir whatever --agent says,
	// so that searching one agent does not re-index the others; --agent
	// narrows the hits instead.
	locate := common.locate
	locate.Agent, locate.AllAgents = "", true
	ws, err := store.Locate(store.OSEnv(), locate)
	if err != nil {
		return search.Options{}, nil, err
	}
	opt, err := search.OptionsFor(ws, cfg.Search, store.OSEnv())
	if err != nil {
		return search.Options{}, nil, err
	}
	opt.MaxLineBytes = cfg.Transcripts.MaxLineBytes()
	opt.ReadOnlyUntilWrite = true // a warm query writes nothing
	var roots []string
	if a := common.locate.Agent; a != "" && !common.locate.AllAgents {
		if !slicesContainsAgent(ws, a) {
			return search.Options{}, nil, fmt.Errorf("agent %q has no folder in %s", a, ws.StateDir)
		}
		roots = []string{"vault", "workspace/" + a, "sessions/" + a, "sqlite/" + a}
	}
	return opt, roots, nil
}

// syncIndex brings the index up to date (rebuilds it, with reindex),
// printing progress and the files it could not read to stderr. An index
// another process holds (building it again, say), and that misses changed
// files, is searched all the same, with one line saying so.
func syncIndex(ctx context.Context, ix *search.Index, reindex bool, stderr io.Writer) (search.Stats, error) {
	sync := ix.Sync
	if reindex {
		sync = ix.Rebuild
	}
	st, err := sync(ctx, buildProgress(stderr, ix.Dir()))
	var busy *search.BusyError
	switch {
	case errors.As(err, &busy) && reindex:
		return st, &search.BusyError{Dir: busy.Dir, Building: busy.Building}
	case errors.As(err, &busy) && busy.Stale > 0:
		fmt.Fprintf(stderr, "clawvault-tui: %s\n", esc(err.Error()))
		err = nil
	}
	if err != nil {
		return st, err
	}
	for _, p := range st.Problems {
		fmt.Fprintf(stderr, "clawvault-tui: warning: %s\n", esc(p))
	}
	return st, nil
}

// openIndex opens the search index for one search: its own, closed when
// the command ends; under serve, the one the server's sessions share.
func (a *app) openIndex(opt search.Options) (ix *search.Index, release func(), err error) {
	if a.remote != nil {
		ix, err = a.remote.shared.indexes.open(opt)
		return ix, func() {}, err
	}
	ix, err = search.Open(opt)
	if err != nil {
		return nil, nil, err
	}
	return ix, func() { ix.Close() }, nil
}

// collectLess holds the garbage collector off until the returned func is
// called, for a warm search's query and output, unless the heap grows
// past quietHeapLimit (or a lower GOMEMLIMIT). After start-up and a quiet
// sync the heap is about 3 MB, and the query and its output allocate
// about 1 MB more, so the collector's first cycle (at 4 MB) started in
// them most times: 9% of a warm search's instructions and 200 of its
// 2,000 page faults at scale 100, for memory the process gives back as
// it ends. The limit bounds a query that allocates far more (a large
// --limit).
func collectLess() (restore func()) {
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(limit, quietHeapLimit))
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

const quietHeapLimit = 256 << 20

// splitSearchArgs separates flags from the query before flag parsing, so
// that `-draft` (leave out "draft") is a query word, not an unknown flag:
// an argument is a flag only if the command defines it. After `--`
// everything is query.
// parseWords parses the flags of a command that takes free text (with
// DisableFlagParsing) and returns the words; help is true when --help was
// asked for, and has been printed.
func (a *app) parseWords(c *cobra.Command, args []string) (words []string, help bool, err error) {
	flags, words, err := splitSearchArgs(c.Flags(), args)
	if err != nil {
		return nil, false, err
	}
	if err := c.Flags().Parse(flags); err != nil {
		return nil, false, c.FlagErrorFunc()(c, err)
	}
	if r := a.remote; r != nil {
		if err := r.admit(c); err != nil {
			return nil, false, err
		}
	}
	if help, _ := c.Flags().GetBool("help"); help {
		return nil, true, c.Help()
	}
	return append(c.Flags().Args(), words...), false, nil
}

func splitSearchArgs(fs *pflag.FlagSet, args []string) (flags, query []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(query, args[i+1:]...), nil
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--"):
			f = fs.Lookup(name)
		case strings.HasPrefix(a, "-") && len(name) == 1:
			f = fs.ShorthandLookup(name)
		case strings.HasPrefix(a, "-") && fs.Lookup(name) != nil:
			return nil, nil, usageError("-%s: long flags take two dashes: --%s", name, name)
		}
		if f == nil {
			query = append(query, a)
			continue
		}
		flags = append(flags, a)
		if f.NoOptDefVal == "" && !hasValue && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, query, nil
}

func slicesContainsAgent(ws *store.Workspace, id string) bool {
	for _, a := range ws.Agents {
		if a.ID == id {
			return true
		}
	}
	return false
}

// buildProgress prints one line to stderr when a build reads more than a
// few files, and a last line with how long it took.
func buildProgress(stderr io.Writer, dir string) search.ProgressFunc {
	var start time.Time
	return func(p search.Progress) {
		if p.FilesTotal < 100 {
			return
		}
		switch {
		case p.Files == 0 && p.Path != "":
			start = time.Now()
			fmt.Fprintf(stderr, "Indexing %s (%s) into %s …\n", model.Plural(p.FilesTotal, "file", "files"), formatMB(p.BytesTotal), dir)
		case p.Path == "":
			fmt.Fprintf(stderr, "Indexed in %s.\n", time.Since(start).Round(10*time.Millisecond))
		}
	}
}

func formatMB(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// The JSON shape is a contract: {"query","hits":[{"path","line","score",
// "snippet"}]}, fields added, never renamed.
type searchDoc struct {
	Query string      `json:"query"`
	Total uint64      `json:"total"`
	Hits  []searchHit `json:"hits"`
}

type searchHit struct {
	Path        string   `json:"path"`
	Line        int      `json:"line"`
	Score       float64  `json:"score"`
	Snippet     string   `json:"snippet"`
	Highlights  [][2]int `json:"highlights"`
	Source      string   `json:"source"`
	Agent       string   `json:"agent,omitempty"`
	RelPath     string   `json:"relPath"`
	Kind        string   `json:"kind"`
	SectionLine int      `json:"sectionLine"`
	Heading     string   `json:"heading,omitempty"`
	Type        string   `json:"type,omitempty"`
	Importance  *float64 `json:"importance,omitempty"`
	Confidence  *float64 `json:"confidence,omitempty"`
	// SessionID and Seq place a hit in a SQLite-era session: path is its
	// store, line the seq + 1 (the line the event would be in JSONL).
	SessionID string `json:"sessionId,omitempty"`
	Seq       *int64 `json:"seq,omitempty"`
	// LineBytes is the length of the hit's line when only its first 64 KiB
	// were indexed (the snippet ends by saying so).
	LineBytes int `json:"lineBytes,omitempty"`
}

func searchJSON(text string, res *search.Results) searchDoc {
	doc := searchDoc{Query: text, Total: res.Total, Hits: []searchHit{}}
	for _, h := range res.Hits {
		sh := searchHit{Path: h.Path, Line: h.Line, Score: h.Score, Snippet: h.Snippet, Highlights: [][2]int{},
			Source: h.Root, Agent: h.Agent, RelPath: h.Rel, Kind: h.Kind.String(), SectionLine: h.SectionLine, Heading: h.Heading,
			LineBytes: h.LineBytes}
		for _, s := range h.Highlights {
			sh.Highlights = append(sh.Highlights, [2]int{s.Start, s.End})
		}
		if h.SessionID != "" {
			sh.SessionID, sh.Seq = h.SessionID, &h.Seq
		}
		if o := h.Observation; o != nil {
			sh.Type, sh.Importance, sh.Confidence = o.Type, &o.Importance, &o.Confidence
		}
		doc.Hits = append(doc.Hits, sh)
	}
	return doc
}

// writeSearchText prints one hit per line as `where:line  score  snippet`,
// the vault's files by their path in the vault, a workspace's as
// `[agent] MEMORY.md`, a SQLite-era session's events as `[agent
// transcript] SESSION-ID seq N`; matched words in bold on a terminal.
func writeSearchText(w io.Writer, res *search.Results, color bool) error {
	if len(res.Hits) == 0 {
		_, err := fmt.Fprintln(w, "No matches.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, h := range res.Hits {
		fmt.Fprintf(tw, "%s\t%.2f\t%s\n", esc(h.Place()), h.Score, highlight(h.Snippet, h.Highlights, color))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.Total > uint64(len(res.Hits)) {
		fmt.Fprintf(w, "(%d of %d matching sections; --limit N shows more)\n", len(res.Hits), res.Total)
	}
	return nil
}

// highlight is a snippet for a terminal: its text escaped (esc), the
// matches in bold when color.
func highlight(s string, spans []search.Span, color bool) string {
	s = strings.ReplaceAll(s, "\t", " ") // tabs would break the columns
	if !color || len(spans) == 0 {
		return esc(s)
	}
	var b strings.Builder
	prev := 0
	for _, sp := range spans {
		b.WriteString(esc(s[prev:sp.Start]))
		b.WriteString("\x1b[1m" + esc(s[sp.Start:sp.End]) + "\x1b[22m")
		prev = sp.End
	}
	b.WriteString(esc(s[prev:]))
	return b.String()
}

// colorOutput: bold only on a terminal, and never with NO_COLOR.
func colorOutput(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
