// Package demo writes a deterministic, seeded demo workspace: an OpenClaw state
// directory (agents, sessions.json stores, transcripts of every format era, a SQLite-era
// agent, cron run logs, workspace memory) and a ClawVault vault (observation ledger,
// routed category files, cursors), with one instance of every situation the inspector
// diagnoses. The same Options always give byte-identical files with identical mtimes.
package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Options control the size and the randomness of the demo.
type Options struct {
	Seed           int64     // PRNG seed (math/rand/v2 PCG); same Seed+Now+sizes ⇒ byte-identical output
	Now            time.Time // the generator's clock: every timestamp, age and mtime is relative to it (zero ⇒ time.Now())
	Sessions       int       // total sessions (rows + orphan transcripts) across agents; below the base set ⇒ the base set
	MainBytes      int64     // size of the never-observed main session transcript; default 14 MiB
	HeartbeatBytes int64     // size of the heartbeat-heavy transcript; default 2 MiB
	VaultBytes     int64     // approximate total bytes of Markdown in the vault; default ~300 KB
	// FillerScale multiplies the transcript size of every filler session
	// (0 ⇒ 1): WithSessions uses it to make many more sessions without
	// making the transcripts they hold grow with them.
	FillerScale float64
	// MemoryNotes adds daily notes to the SQLite agent's workspace, all in
	// its memory search index (about ten chunks each): 1,050 at scale 100.
	MemoryNotes int
}

// GeneratorVersion names what this generator writes. Benchmark workspaces
// are kept between runs under a name that includes it, so bump it whenever
// the output changes (new files, a new store layout): a benchmark must not
// measure a workspace an older generator wrote.
const GeneratorVersion = 3

const (
	// BaseSessions is the size of the base demo: the special cases plus some filler.
	BaseSessions          = 48
	DefaultMainBytes      = 14 * mib
	DefaultHeartbeatBytes = 2 * mib
	DefaultVaultBytes     = 300 * 1000
)

// ScaleOptions maps the CLI's --scale N: N<=1 is the base demo; N=100 gives 10,000
// sessions, a 300 MiB heartbeat transcript and a ~15 MB vault.
func ScaleOptions(scale int, seed int64, now time.Time) Options {
	opt := Options{Seed: seed, Now: now}
	if scale <= 1 {
		return opt
	}
	opt.Sessions = max(BaseSessions, 100*scale)
	opt.HeartbeatBytes = 3 * mib * int64(scale)
	opt.VaultBytes = 150 * kib * int64(scale)
	opt.MemoryNotes = 21 * scale / 2
	return opt
}

// WithSessions sets the total number of sessions (rows and orphan
// transcripts across agents). Above the count the options already make,
// filler transcripts shrink by the ratio, so that the bytes of transcript
// stay about what they were: 50,000 sessions for measuring a scan at fleet
// size, without 1 GB of filler beside them. Below it, the count is simply
// lowered.
func (o Options) WithSessions(n int) Options {
	have := max(o.Sessions, BaseSessions)
	if n > have {
		o.FillerScale = float64(have) / float64(n)
	}
	o.Sessions = n
	return o
}

// Case names one special session: its agent, key, session id and absolute file path.
// Key is "" for files no sessions.json row names (orphans, bad names).
type Case struct{ Agent, Key, SessionID, File string }

// Manifest says what was generated and where each special case lives.
type Manifest struct {
	StateDir, VaultDir      string
	Agents                  []string // agent ids with a sessions folder
	SQLiteAgent, SQLitePath string   // the agent that moved to the SQLite-era store
	// Sessions counts sessions.json rows of every agent, session_nodes rows of the SQLite
	// store and orphan transcripts (live *.jsonl files no row names).
	Sessions int

	MainNeverObserved, DMBelowThreshold, ResetArchive, Truncated, Malformed, MissingFile, FlushSkipped,
	Stale, ObservedCandidate, FullyObserved, V1, V2, Topic, Checkpoint, CursorInvalid, BadName, Deleted,
	Fork, Heartbeat, Branchy Case

	// More cases.
	ResetSuccessor Case // the fresh session the ResetArchive key points at now
	OldReset       Case // a .reset archive older than 30 days (name and mtime)
	OldDeleted     Case // a .deleted archive older than 30 days (name and mtime)
	Orphan         Case // a <uuid>.jsonl no row names (observed by ClawVault as agent:main:unknown:<id>)
	Backup         Case // something.backup.jsonl (ClawVault's discovery skips it)
	NestedSubagent Case // agent:main:subagent:<a>:subagent:<b>
	NoMessages     Case // its pending bytes after the cursor hold no message, only bookkeeping entries
	SQLiteMain     Case // the SQLite-era agent's main session (File = the .sqlite path)
	SQLiteCron     Case // the SQLite-era agent's cron session
	// SQLiteGenerations are the main key's generations, oldest first (the first is a
	// cold archive, the last is SQLiteMain).
	SQLiteGenerations []string
	SQLiteDeleted     Case   // a deleted session of the SQLite-era agent (File = its derived .zst archive)
	StaleRows         []Case // sessions.json rows with updatedAt more than 45 days before Now

	Workspace, WorkWorkspace string // agent workspaces (MEMORY.md, memory/…)
	CronRunLogs              []string
}

// Generate writes dir/state and dir/vault. dir may exist but must be
// empty. It stops when ctx ends, between files and within a long
// transcript, so a signal ends a large demo at once; what it wrote is left
// for the caller to remove, and it returns ctx's error.
func Generate(ctx context.Context, dir string, opt Options) (*Manifest, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := requireEmpty(abs); err != nil {
		return nil, err
	}
	g := newGenerator(abs, opt)
	g.ctx = ctx
	steps := []func() error{
		g.writeMainAgent,
		g.writeWorkAgent,
		g.writeOpsAgent,
		g.writeFiller,
		g.writeStores,
		g.writeConfig,
		g.writeCronLogs,
		g.writeWorkspaces,
		g.writeOpsStore,
		g.writeVault,
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := step(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("demo: %w", err)
		}
	}
	g.man.Sessions = g.sessionCount
	return g.man, nil
}

func requireEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("demo: %s is not empty", dir)
	}
	return nil
}

// generator holds what one Generate call has written so far.
type generator struct {
	ctx                                        context.Context // ends the generation (Generate)
	err                                        error           // sticky error of the current step (see session)
	opt                                        Options
	now                                        time.Time
	root, state, vault                         string
	man                                        *Manifest
	rows                                       map[string][]*storeRow // agent → rows, in insertion order
	cursors                                    []cursorEntry
	observed                                   []observedSession // what the vault's observations come from
	cronRuns                                   map[string][]cronRun
	sessionCount                               int
	bySource                                   map[string]Case // a session per ClawVault source label (raw ledger lines)
	mainWorkspace, workWorkspace, opsWorkspace string
	opsStore                                   AgentStore // written once the workspace memory exists
}

func newGenerator(root string, opt Options) *generator {
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if opt.MainBytes <= 0 {
		opt.MainBytes = DefaultMainBytes
	}
	if opt.HeartbeatBytes <= 0 {
		opt.HeartbeatBytes = DefaultHeartbeatBytes
	}
	if opt.VaultBytes <= 0 {
		opt.VaultBytes = DefaultVaultBytes
	}
	opt.Sessions = max(opt.Sessions, BaseSessions)
	state := filepath.Join(root, "state")
	g := &generator{
		ctx:      context.Background(),
		opt:      opt,
		now:      opt.Now.UTC().Truncate(time.Millisecond),
		root:     root,
		state:    state,
		vault:    filepath.Join(root, "vault"),
		rows:     map[string][]*storeRow{},
		cronRuns: map[string][]cronRun{},
		bySource: map[string]Case{},
	}
	g.mainWorkspace = filepath.Join(state, "workspace")
	g.workWorkspace = filepath.Join(state, "workspace-work")
	g.opsWorkspace = filepath.Join(state, "workspace-ops")
	g.man = &Manifest{
		StateDir:      state,
		VaultDir:      g.vault,
		Agents:        []string{"main", "work", "ops"},
		SQLiteAgent:   "ops",
		SQLitePath:    filepath.Join(state, "agents", "ops", "agent", "openclaw-agent.sqlite"),
		Workspace:     g.mainWorkspace,
		WorkWorkspace: g.workWorkspace,
	}
	return g
}

// rand returns the PCG stream for a label.
func (g *generator) rand(label string) *randSource { return newRand(g.opt.Seed, label) }

func (g *generator) sessionsDir(agent string) string {
	return filepath.Join(g.state, "agents", agent, "sessions")
}

func (g *generator) ago(d time.Duration) time.Time { return g.now.Add(-d) }

// writeFile writes data and stamps it with mtime.
func writeFile(path string, data []byte, mtime time.Time) error {
	mtime = mtime.Truncate(time.Millisecond)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	return os.Chtimes(path, mtime, mtime)
}
