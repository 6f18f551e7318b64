package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/transcript"
)

// Snapshot is one stat-only look at the whole workspace: every agent's
// sessions, the cursor file, and a status row per session.
type Snapshot struct {
	Workspace *Workspace
	Cursors   model.CursorState
	Agents    []model.AgentSnapshot
	Rows      []model.SessionRow
	// Memory lists each agent's workspace memory files, by agent id.
	Memory map[string][]MemoryFile
	// Problems are per-agent facts such as a corrupt sessions.json.
	Problems []string
	// AgentDiagnoses are diagnoses of an agent rather than of one session
	// (memory-index-stale), by agent id.
	AgentDiagnoses map[string][]model.Diagnosis
	TakenAt        time.Time
	MinNewBytes    int64
	// MaxLineBytes caps the lines deep checks decode (0: the default).
	MaxLineBytes int64
}

// ScanOptions tune a scan.
type ScanOptions struct {
	Now         time.Time
	MinNewBytes int64
	// MaxLineBytes is kept for deep checks (Snapshot.MaxLineBytes).
	MaxLineBytes int64
	// CacheDir, when set, keeps the per-session sizes of SQLite-era stores
	// between scans (agentdb.CachedStatsOf): a session that did not change
	// is not read again.
	CacheDir string
}

// Scan lists every agent's sessions folder, reads sessions.json and the
// cursor file, stats what rows point at, and builds the status rows. It
// reads no transcript content.
func Scan(ctx context.Context, fsys FS, ws *Workspace, opt ScanOptions) (*Snapshot, error) {
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	snap := &Snapshot{Workspace: ws, TakenAt: opt.Now, MinNewBytes: opt.MinNewBytes, MaxLineBytes: opt.MaxLineBytes}
	// The seq cursors load first: an agent's SQLite store is read with
	// them. ClawVault's cursor file (7 MB for 30,000 sessions) is parsed
	// while the agents' folders are listed; each agent's rows are then
	// built on its own goroutine once it is there.
	seq := LoadSeqCursors(fsys, ws.Vault)
	cursorsLoaded := make(chan struct{})
	go func() {
		defer close(cursorsLoaded)
		snap.Cursors = LoadCursors(fsys, ws.Vault)
		snap.Cursors.Seq = seq
	}()
	plans, memory, err := scanAgents(ctx, fsys, ws, snap, seq, cursorsLoaded, opt)
	<-cursorsLoaded
	if err != nil {
		return nil, err
	}
	snap.Memory = map[string][]MemoryFile{}
	for i, a := range ws.Agents {
		snap.Memory[a.ID] = memory[i]
	}
	snap.Rows = buildRows(plans, snap.Cursors)
	for _, a := range snap.Agents {
		snap.noteAgentProblems(a, opt.Now)
	}
	return snap, nil
}

// scanAgents snapshots every agent into snap.Agents, each on a goroutine
// (as many listings at once as cores), checks its leftover JSONL against
// its store once snap.Cursors is loaded (cursorsLoaded closed), and plans
// its status rows; it returns the plans and each agent's workspace memory
// files.
func scanAgents(ctx context.Context, fsys FS, ws *Workspace, snap *Snapshot, seq model.SeqCursorState, cursorsLoaded <-chan struct{}, opt ScanOptions) ([]*model.StatusPlan, [][]MemoryFile, error) {
	statusOpt := model.StatusOptions{Now: opt.Now, MinNewBytes: opt.MinNewBytes, SessionsDirOverride: ws.SessionsDirFlag}
	snap.Agents = make([]model.AgentSnapshot, len(ws.Agents))
	// Every agent's sessions.json is decoded from the start, on a goroutine
	// of its own: the largest (42 MB for 50,000 rows) is the longest single
	// piece of a scan, and it must not wait behind another agent's listing
	// or SQLite store for a slot.
	stores := make([]func() StoreResult, len(ws.Agents))
	for i, a := range ws.Agents {
		stores[i] = sync.OnceValue(func() StoreResult { return LoadSessionStore(fsys, a.StorePath) })
		go stores[i]()
	}
	memory := make([][]MemoryFile, len(ws.Agents))
	plans := make([]*model.StatusPlan, len(ws.Agents))
	errs := make([]error, len(ws.Agents))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, a := range ws.Agents {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			snap.Agents[i], errs[i] = snapshotAgent(ctx, fsys, a, ws.StateDir, seq, opt.CacheDir, stores[i])
			var err error
			if memory[i], err = WorkspaceMemory(fsys, a.Workspace); err != nil {
				errs[i] = errors.Join(errs[i], err)
			}
			<-sem // the slot is for the listing
			if errs[i] == nil {
				checkImports(ctx, fsys, a, &snap.Agents[i], cursorsLoaded, &snap.Cursors, opt)
				plans[i] = model.PlanStatusRows(snap.Agents[i], seq, statusOpt)
			}
		}()
	}
	wg.Wait()
	return plans, memory, errors.Join(errs...)
}

// buildRows makes every agent's rows into one slice (400 bytes a row),
// each agent's finished in blocks on every core.
func buildRows(plans []*model.StatusPlan, cursors model.CursorState) []model.SessionRow {
	total := 0
	for _, p := range plans {
		total += p.Len()
	}
	rows := make([]model.SessionRow, total)
	at := 0
	for _, p := range plans {
		p.Build(rows[at:at+p.Len()], cursors)
		at += p.Len()
	}
	return rows
}

// noteAgentProblems adds what is wrong with an agent's stores to the
// snapshot's problems, and the diagnoses of its SQLite memory index and
// reindex temp databases (as of now).
func (snap *Snapshot) noteAgentProblems(a model.AgentSnapshot, now time.Time) {
	if a.StoreProblem != "" {
		snap.Problems = append(snap.Problems, fmt.Sprintf("agent %s: %s", a.AgentID, a.StoreProblem))
	}
	if a.ImportProblem != "" {
		snap.Problems = append(snap.Problems, fmt.Sprintf("agent %s: %s", a.AgentID, a.ImportProblem))
	}
	if len(a.RowProblems) > 0 {
		snap.Problems = append(snap.Problems, fmt.Sprintf("agent %s: sessions.json: %s", a.AgentID, model.RowProblemsSentence(a.RowProblems)))
	}
	st := a.SQLiteStore
	if st == nil {
		return
	}
	if len(st.NodeProblems) > 0 {
		snap.Problems = append(snap.Problems, fmt.Sprintf("agent %s: %s, session_nodes: %s", a.AgentID, filepath.Base(st.Path), model.RowProblemsSentence(st.NodeProblems)))
	}
	for _, d := range []*model.Diagnosis{st.Memory.Diagnosis(), st.Reindex.Diagnosis(now)} {
		if d == nil {
			continue
		}
		if snap.AgentDiagnoses == nil {
			snap.AgentDiagnoses = map[string][]model.Diagnosis{}
		}
		snap.AgentDiagnoses[a.AgentID] = append(snap.AgentDiagnoses[a.AgentID], *d)
		snap.Problems = append(snap.Problems, fmt.Sprintf("agent %s: %s: %s", a.AgentID, d.Code, d.Message))
	}
}

// snapshotAgent lists one agent's sessions. A transcript is followed only
// inside the agent's sessions folder or the state dir, symbolic links
// resolved: sessions.json may name any path (an absolute sessionFile, one
// climbing out with ..), and a link in the folder may lead anywhere; those
// are listed as outside (outside-state-dir) and never stat'ed or read.
//
// loadStore returns the agent's sessions.json, loaded while the folder is
// listed (Scan starts it before any agent's turn).
func snapshotAgent(ctx context.Context, fsys FS, a Agent, stateDir string, seq model.SeqCursorState, cacheDir string, loadStore func() StoreResult) (model.AgentSnapshot, error) {
	snap := model.AgentSnapshot{AgentID: a.ID, SessionsDir: a.SessionsDir, Outside: map[string]model.DirFile{}, OutsideStateDir: map[string]string{}}
	var allowed []string // the sessions folder and the state dir, resolved
	for _, dir := range []string{a.SessionsDir, stateDir} {
		if dir == "" {
			continue
		}
		if real, err := RealPath(dir); err == nil {
			allowed = append(allowed, real)
		}
	}
	inside := func(p string) (string, bool) {
		real, err := RealPath(p)
		if err != nil {
			return p, false
		}
		for _, dir := range allowed {
			if Within(dir, real) {
				return real, true
			}
		}
		return real, false
	}
	if a.SQLitePath != "" {
		if fi, err := fsys.Stat(a.SQLitePath); err == nil {
			snap.SQLitePath = a.SQLitePath
			df := dirFile(fi)
			snap.SQLite = &df
			// The store is read only where the agent's folder or the state
			// dir holds it, links followed, as transcripts are.
			agentDir := filepath.Dir(filepath.Dir(a.SQLitePath))
			if real, ok := inside(a.SQLitePath); !ok && !withinReal(agentDir, real) {
				snap.SQLiteStore = &model.SQLiteStore{Path: a.SQLitePath, Size: fi.Size(), ModTime: fi.ModTime(),
					Problem: fmt.Sprintf("it leads to %s, outside the state dir and the agent's folder, so it is not read", real)}
			} else {
				snap.SQLiteStore = readSQLiteStore(ctx, fsys, a, seq, cacheDir)
			}
		}
	}
	files, err := ListSessionsDir(ctx, fsys, a.SessionsDir)
	st := loadStore()
	if err != nil {
		return snap, err
	}
	for i := range files {
		if files[i].Link {
			if real, ok := inside(filepath.Join(a.SessionsDir, files[i].Name)); !ok {
				files[i].Outside = real
			}
		}
	}
	snap.Files = files
	snap.Rows, snap.StoreMissing, snap.StoreProblem, snap.RowProblems = st.Rows, st.Missing, st.Problem, st.RowProblems
	for _, r := range snap.Rows {
		p, inDir := model.RowFileIn(a.SessionsDir, r.Entry)
		if inDir {
			continue
		}
		if real, ok := inside(p); !ok {
			snap.OutsideStateDir[p] = real
			continue
		}
		if fi, err := fsys.Stat(p); err == nil {
			snap.Outside[p] = dirFile(fi)
		}
	}
	return snap, nil
}

// checkImports compares the agent's leftover JSONL transcripts with its
// store, once ClawVault's cursor file is loaded (a byte cursor of a
// session now in the store is carried over to its seqs).
func checkImports(ctx context.Context, fsys FS, a Agent, snap *model.AgentSnapshot, cursorsLoaded <-chan struct{}, cursors *model.CursorState, opt ScanOptions) {
	st := snap.SQLiteStore
	if st == nil || st.Problem != "" {
		return
	}
	<-cursorsLoaded
	maxLine := opt.MaxLineBytes
	if maxLine <= 0 {
		maxLine = transcript.DefaultMaxLineBytes
	}
	checks, err := checkLeftovers(ctx, fsys, a, st, snap.Files, *cursors, opt.CacheDir, maxLine)
	snap.Imports = checks
	if err != nil {
		snap.ImportProblem = err.Error()
	}
}

// withinReal reports whether real (symlinks resolved) is inside dir once
// dir's own links are resolved.
func withinReal(dir, real string) bool {
	d, err := RealPath(dir)
	return err == nil && Within(d, real)
}

// ListSessionsDir lists a sessions folder in name order, with stat facts
// that follow symlinks, as ClawVault's statSync does. A missing folder is
// an empty list.
func ListSessionsDir(ctx context.Context, fsys FS, dir string) ([]model.DirFile, error) {
	return listDir(ctx, fsys, dir, true)
}

// listDir lists the files of dir (not folders). followLinks stats what a
// symlink points at; without it only regular files are listed, as
// OpenClaw's disk budget counts them.
func listDir(ctx context.Context, fsys FS, dir string, followLinks bool) ([]model.DirFile, error) {
	entries, err := readDirFast(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %w", dir, err)
	}
	// One stat per file: a folder of 10,000 transcripts is 10,000 system
	// calls, spread over the cores in blocks.
	files := make([]model.DirFile, len(entries))
	keep := make([]bool, len(entries))
	at := openDirStatter(fsys, dir)
	if at != nil {
		defer at.close()
	}
	statRange := func(from, to int) {
		for i := from; i < to; i++ {
			e := entries[i]
			if e.IsDir() || !followLinks && !e.Type().IsRegular() {
				continue
			}
			if at != nil && e.Type()&fs.ModeSymlink == 0 {
				f, err := at.lstatAt(e.Name())
				if err != nil || !followLinks && !f.IsFile {
					continue // vanished (or replaced) between the listing and the stat
				}
				files[i], keep[i] = f, true
				continue
			}
			var fi fs.FileInfo
			var err error
			if e.Type()&fs.ModeSymlink != 0 {
				fi, err = fsys.Stat(filepath.Join(dir, e.Name()))
			} else {
				fi, err = e.Info()
			}
			if err != nil || !followLinks && !fi.Mode().IsRegular() {
				continue // vanished (or replaced) between the listing and the stat
			}
			files[i] = dirFile(fi)
			files[i].Name = e.Name()
			files[i].Link = e.Type()&fs.ModeSymlink != 0
			keep[i] = true
		}
	}
	const block = 512
	if err := model.InBlocks(ctx, len(entries), block, statRange); err != nil {
		return nil, err
	}
	n := 0
	for i := range files {
		if keep[i] {
			files[n] = files[i]
			n++
		}
	}
	return slices.Clip(files[:n]), nil
}

func dirFile(fi fs.FileInfo) model.DirFile {
	id := fileid.Of(fi)
	return model.DirFile{Name: fi.Name(), IsFile: fi.Mode().IsRegular(), Size: id.Size, ModTime: id.ModTime, Inode: id.Inode}
}

// StoreErrors name the agents' SQLite-era stores that could not be read
// (damaged, locked, unreadable, or leading outside the state dir), one
// sentence each; agents limits them to those agents (nil: every one).
// Their sessions are unknown: a command that reads them fails with these.
func (s *Snapshot) StoreErrors(agents []string) []string {
	var out []string
	for _, a := range s.Agents {
		if st := a.SQLiteStore; st != nil && st.Problem != "" && (agents == nil || slices.Contains(agents, a.AgentID)) {
			out = append(out, fmt.Sprintf("agent %s: its SQLite-era store %s cannot be read: %s", a.AgentID, st.Path, st.Problem))
		}
	}
	return out
}

// Rediagnose recomputes the diagnosis of row i, after deep facts were added.
func (s *Snapshot) Rediagnose(i int) {
	row := &s.Rows[i]
	for _, a := range s.Agents {
		if a.AgentID == row.Agent {
			row.Diagnosis = model.Diagnose(row, a, s.Cursors, model.StatusOptions{Now: s.TakenAt, MinNewBytes: s.MinNewBytes})
			return
		}
	}
}
