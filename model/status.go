package model

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Origin says where a status row comes from.
type Origin uint8

const (
	// OriginIndex: a sessions.json row.
	OriginIndex Origin = iota
	// OriginScan: a transcript in the sessions folder that no row names.
	OriginScan
	// OriginArchive: a .reset or .deleted archive.
	OriginArchive
	// OriginSQLite: the agent's SQLite-era store.
	OriginSQLite
	// OriginImportArchive: a transcript OpenClaw's importer moved to the
	// agent's session-sqlite-import-archive folder.
	OriginImportArchive
)

func (o Origin) String() string {
	switch o {
	case OriginIndex:
		return "sessions.json"
	case OriginScan:
		return "scan"
	case OriginArchive:
		return "archive"
	case OriginSQLite:
		return "sqlite"
	case OriginImportArchive:
		return "import-archive"
	}
	return "other"
}

// StoreRowOf is one sessions.json row, in file order: its key and its
// entry, whole (SessionEntry) or as a scan keeps it (StatusEntry).
type StoreRowOf[E any] struct {
	Key   string
	Entry E
}

// StoreRow is a sessions.json row with every field (retention rewrites
// rows whole).
type StoreRow = StoreRowOf[SessionEntry]

// ScanRow is a sessions.json row as a scan keeps it.
type ScanRow = StoreRowOf[StatusEntry]

// AgentSnapshot is what a stat-only look at one agent found: its sessions
// folder listing, its sessions.json rows, and whether it keeps the
// SQLite-era store. No transcript content is in it.
type AgentSnapshot struct {
	AgentID     string
	SessionsDir string
	// Files lists the sessions folder in name order.
	Files []DirFile
	// Rows are the sessions.json rows in JavaScript property order.
	Rows []ScanRow
	// StoreProblem says why sessions.json could not be read ("" when fine
	// or absent); StoreMissing is true when there is none.
	StoreProblem string
	StoreMissing bool
	// RowProblems name, by session key, the sessions.json rows with a field
	// of the wrong type: that field is skipped, the rest of the row read.
	RowProblems map[string]string
	// Outside holds stats of files that rows name outside the sessions folder.
	Outside map[string]DirFile
	// OutsideStateDir holds the files rows name that lie outside the state
	// dir and the sessions folder once symbolic links are followed (path →
	// where it leads): never stat'ed, never read.
	OutsideStateDir map[string]string
	// SQLitePath is the SQLite-era store, when the agent has one.
	SQLitePath string
	SQLite     *DirFile
	// SQLiteStore is what reading it found (sessions, generations, sizes).
	SQLiteStore *SQLiteStore
	// Imports compare each JSONL transcript of an agent with a store (in
	// its sessions folder and the importer's archive folder) with the
	// store's events of the same session.
	Imports []ImportCheck
	// ImportProblem says why the leftover transcripts could not all be
	// listed ("" when they were).
	ImportProblem string
}

// CursorState is the vault's cursor file as loaded.
type CursorState struct {
	Path     string
	Store    *CursorStore
	Problems map[string]string // session id → why ClawVault ignores its entry
	// Corrupt is the parse error of a file that exists but does not parse
	// (ClawVault then loads it as empty).
	Corrupt string
	// ReadError is why a file that exists could not be read (permission,
	// I/O error, a directory in its place): its content is not corrupt but
	// unknown, so a sweep must not run on it. Store is empty then.
	ReadError error
	Missing   bool
	// Seq is clawvault-tui's own cursor file for SQLite-era sessions.
	Seq SeqCursorState
}

// TailFacts are what reading a transcript's unobserved range found; only
// deep checks fill them (status itself reads no transcript content).
type TailFacts struct {
	// PartialTail: the last line has no newline yet.
	PartialTail bool
	TailBytes   int64
	// Messages counts lines the observer would turn into messages in the
	// pending range, stopping early once one is found unless counting all.
	Messages int
	// MessagesExact is true when Messages counts all of them.
	MessagesExact bool
	Err           string
}

// SessionRow is one row of `status`: one session file or sessions.json row,
// with what the observer would do with it and why.
type SessionRow struct {
	Agent     string
	Key       string // the sessions.json key, or the key ClawVault would use
	SessionID string
	File      string
	Name      FileName
	Origin    Origin
	Exists    bool
	Size      int64
	ModTime   time.Time
	Inode     uint64
	Entry     *StatusEntry

	// Discovered: ClawVault 3.5.2's discovery finds this file, as CursorID
	// under ObserverKey; Label is the source label its observations get.
	Discovered  bool
	CursorID    string
	ObserverKey string
	Label       string
	// ScanOnly: ClawVault finds the file only by its folder scan, under its
	// agent:<a>:unknown:<id> fallback key.
	ScanOnly bool

	// OutsideStateDir is where the row's file really is when that is
	// outside the state dir and the sessions folder: it is not read (and
	// Exists is false).
	OutsideStateDir string

	Cursor        *Cursor
	CursorProblem string
	Selection     Selection
	// Candidate: the next sweep observes it (discovered and over threshold).
	Candidate bool
	Stale     bool
	// Siblings are other files of the same session (archives, checkpoints, …).
	Siblings []string

	Tail      *TailFacts
	Diagnosis []Diagnosis

	// SQLite-era rows: the generation, and clawvault-tui's seq cursor.
	Generation *Generation
	SeqCursor  *SeqCursor

	// Import is what comparing a JSONL transcript of an agent that has a
	// SQLite store with the store found.
	Import *ImportCheck
}

// DisplayKey is the key to show: the row's key, else ClawVault's.
func (r *SessionRow) DisplayKey() string {
	if r.Key != "" {
		return r.Key
	}
	return r.ObserverKey
}

// Pending is the number of bytes not yet observed.
func (r *SessionRow) Pending() int64 { return r.Selection.NewBytes }

// StatusOptions tune row building.
type StatusOptions struct {
	Now time.Time
	// MinNewBytes overrides the scaled threshold, as --min-new does.
	MinNewBytes int64
	// SessionsDirOverride is set when --sessions-dir names the folder.
	SessionsDirOverride bool
}

// StatusPlan is one agent's status rows counted and laid out before they
// are made: what needs no cursor file (the files each row names,
// ClawVault's discovery, the siblings). Status plans every agent while the
// cursor file loads, then makes all rows in one slice (Build), applying
// ClawVault 3.5.2's discovery, selection and staleness rules and
// diagnosing each row.
//
// Files are known by their position in the listing: what the plan knows
// of a file (its name's kind, whether a row claims it, its descriptor, the
// other files of its session) is in slices by position, found by name
// through one KeyIndex, not in maps keyed by the name.
type StatusPlan struct {
	snap     AgentSnapshot
	opt      StatusOptions
	names    []string   // of snap.Files
	byName   *KeyIndex  // over names
	kinds    []FileName // of snap.Files, each name classified once
	claimed  []bool     // by file: a sessions.json row names it
	rowFiles []string
	rowNames []FileName
	rowAt    []int32 // by row: its file's position in the folder, or -1
	scanned  int     // files no row claims that are rows of their own
	sqlite   []SessionRow
	archived []SessionRow            // transcripts in the importer's archive folder
	imports  map[string]*ImportCheck // by file path
	sessions sessionFiles

	descriptors []Descriptor
	descOf      []int32 // by file: its descriptor's position+1, 0 for none
	discovered  chan struct{}
}

// sessionFiles groups a folder's files by the session their name belongs
// to: ids[g] is a session, first[g] its first file, next[f] the file after
// f of the same session (-1 ends), in folder order; group[f] is f's (-1
// for none).
type sessionFiles struct {
	ids   []string
	byID  KeyIndex
	first []int32
	next  []int32
	group []int32
}

func (s *sessionFiles) build(kinds []FileName) {
	s.next = make([]int32, len(kinds))
	s.group = make([]int32, len(kinds))
	s.byID = *NewKeyIndex(len(kinds))
	// Sized for a folder where every file is a session of its own.
	s.ids = make([]string, 0, len(kinds))
	s.first = make([]int32, 0, len(kinds))
	last := make([]int32, 0, len(kinds))
	for i := range kinds {
		s.next[i], s.group[i] = -1, -1
		id := kinds[i].SessionID
		if id == "" {
			continue
		}
		g := s.byID.Find(id, s.ids)
		if g < 0 {
			g = len(s.ids)
			s.group[i] = int32(g)
			s.ids = append(s.ids, id)
			s.byID.Add(g, s.ids)
			s.first = append(s.first, int32(i))
			last = append(last, int32(i))
			continue
		}
		s.group[i] = int32(g)
		s.next[last[g]] = int32(i)
		last[g] = int32(i)
	}
}

// PlanStatusRows lays out an agent's rows; seq is the seq cursor file, which the
// SQLite-era rows are made with.
func PlanStatusRows(snap AgentSnapshot, seq SeqCursorState, opt StatusOptions) *StatusPlan {
	p := &StatusPlan{snap: snap, opt: opt, discovered: make(chan struct{})}
	p.names = FileNames(snap.Files)
	p.byName = IndexNames(p.names)
	// ClawVault's discovery runs beside the rest, which does not need it:
	// on 50,000 sessions each is a tenth of a second.
	go func() {
		defer close(p.discovered)
		indexRows := make([]IndexRow, 0, len(snap.Rows))
		for _, r := range snap.Rows {
			indexRows = append(indexRows, r.Entry.IndexRow(r.Key))
		}
		p.descOf = make([]int32, len(snap.Files))
		p.descriptors = discover(snap.AgentID, indexRows, snap.Files, p.names, p.byName, p.descOf)
	}()
	// Each name is classified and each row's file resolved on its own: in
	// blocks on every core, beside discovery and the grouping of files by
	// session, since status waits for this plan.
	ctx := context.Background()
	p.kinds = make([]FileName, len(snap.Files))
	_ = InBlocks(ctx, len(snap.Files), 2048, func(from, to int) {
		for i := from; i < to; i++ {
			p.kinds[i] = ClassifyFileName(snap.Files[i].Name)
		}
	})
	grouped := make(chan struct{})
	go func() {
		defer close(grouped)
		p.sessions.build(p.kinds)
	}()
	p.rowFiles = make([]string, len(snap.Rows))
	p.rowNames = make([]FileName, len(snap.Rows))
	p.rowAt = make([]int32, len(snap.Rows))
	_ = InBlocks(ctx, len(snap.Rows), 2048, func(from, to int) {
		for i := from; i < to; i++ {
			p.rowAt[i] = int32(p.rowFile(i))
		}
	})
	// The rows of sessions.json claim their files first.
	p.claimed = make([]bool, len(snap.Files))
	for _, at := range p.rowAt {
		if at >= 0 {
			p.claimed[at] = true
		}
	}
	for i := range snap.Files {
		if p.scannedRow(i) {
			p.scanned++
		}
	}
	p.imports, p.archived = importRows(snap)
	if snap.SQLiteStore != nil {
		p.sqlite = sqliteRows(snap, seq, opt)
	} else if snap.SQLite != nil {
		p.sqlite = []SessionRow{{
			Agent:   snap.AgentID,
			File:    snap.SQLitePath,
			Origin:  OriginSQLite,
			Exists:  true,
			Size:    snap.SQLite.Size,
			ModTime: snap.SQLite.ModTime,
		}}
	}
	<-grouped
	return p
}

// scannedRow: file i of the folder is a row of its own (a transcript no
// sessions.json row names).
func (p *StatusPlan) scannedRow(i int) bool {
	f, k := p.snap.Files[i], p.kinds[i].Kind
	return !p.claimed[i] && f.IsFile && (k.IsTranscript() || k == FileTrajectory)
}

// Len is the number of rows.
func (p *StatusPlan) Len() int { return len(p.snap.Rows) + p.scanned + len(p.sqlite) + len(p.archived) }

// Build makes the rows into rows[:p.Len()] with the cursor file: the
// sessions.json rows in file order, then the folder's other transcripts
// in name order, then the SQLite-era store's, then the transcripts in the
// importer's archive folder.
func (p *StatusPlan) Build(rows []SessionRow, cursors CursorState) {
	snap := p.snap
	rows = rows[:p.Len()]
	// The folder's own rows, by file position, after the index's.
	scanned := make([]int32, 0, p.scanned)
	for i := range snap.Files {
		if p.scannedRow(i) {
			scanned = append(scanned, int32(i))
		}
	}
	firstScanned, firstSQLite := len(snap.Rows), len(snap.Rows)+len(scanned)
	copy(rows[firstSQLite:], p.sqlite)
	copy(rows[firstSQLite+len(p.sqlite):], p.archived)

	<-p.discovered
	// Each row is made and finished on its own (its file, cursor,
	// selection and diagnosis, a third of status's time): in blocks, on
	// every core.
	_ = InBlocks(context.Background(), len(rows), 1024, func(from, to int) {
		// The rows of a block share one slice of diagnoses (most rows
		// have one or two), cut to each row's own.
		shared := make([]Diagnosis, 0, 2*(to-from))
		for i := from; i < to; i++ {
			start := len(shared)
			switch {
			case i >= firstSQLite:
				shared = diagnose(&rows[i], snap, cursors, p.opt, shared)
			case i >= firstScanned:
				at := int(scanned[i-firstScanned])
				p.scannedRowAt(&rows[i], at)
				shared = p.finishRow(&rows[i], at, cursors, shared)
			default:
				p.indexRow(&rows[i], i)
				shared = p.finishRow(&rows[i], int(p.rowAt[i]), cursors, shared)
			}
			if len(shared) > start {
				rows[i].Diagnosis = shared[start:len(shared):len(shared)]
			}
		}
	})
}

// indexRow makes the row of sessions.json's row i, before it is finished.
func (p *StatusPlan) indexRow(row *SessionRow, i int) {
	snap := p.snap
	sr := &snap.Rows[i]
	*row = SessionRow{
		Agent:     snap.AgentID,
		Key:       sr.Key,
		SessionID: strings.TrimSpace(sr.Entry.SessionID),
		Origin:    OriginIndex,
		Entry:     &sr.Entry,
		File:      p.rowFiles[i],
		Name:      p.rowNames[i],
	}
	if f, ok := p.lookupFile(int(p.rowAt[i]), row.File); ok {
		row.Exists = f.IsFile && f.Outside == ""
		row.Size, row.ModTime, row.Inode = f.Size, f.ModTime, f.Inode
		row.OutsideStateDir = f.Outside
	} else if real, ok := snap.OutsideStateDir[row.File]; ok {
		row.OutsideStateDir = real
	}
}

// scannedRowAt makes the row of the folder's file at, a transcript no
// sessions.json row names, before it is finished.
func (p *StatusPlan) scannedRowAt(row *SessionRow, at int) {
	snap := p.snap
	f, name := &snap.Files[at], p.kinds[at]
	*row = SessionRow{
		Agent:           snap.AgentID,
		SessionID:       name.SessionID,
		File:            filepath.Join(snap.SessionsDir, f.Name),
		Name:            name,
		Origin:          OriginScan,
		Exists:          f.Outside == "",
		Size:            f.Size,
		ModTime:         f.ModTime,
		Inode:           f.Inode,
		OutsideStateDir: f.Outside,
	}
	if name.Kind.IsArchive() {
		row.Origin = OriginArchive
	}
}

// finishRow applies discovery, the cursor, selection and staleness to a
// row and diagnoses it, appending the diagnoses to diagnoses; at is its
// file's position in the folder (-1: not there).
func (p *StatusPlan) finishRow(row *SessionRow, at int, cursors CursorState, diagnoses []Diagnosis) []Diagnosis {
	snap, opt := p.snap, p.opt
	base := filepath.Base(row.File)
	if at >= 0 && row.Exists {
		if d := p.descOf[at]; d > 0 {
			d := &p.descriptors[d-1]
			row.Discovered = true
			row.CursorID = d.SessionID
			row.ObserverKey = d.SessionKey
			row.ScanOnly = !d.FromIndex
		}
	}
	row.CursorID = cursorID(row)
	if row.Name.Kind == FileResetArchive && cursors.Store != nil {
		// clawvault-tui observe --include-resets keeps its own cursor,
		// under the archive's name; it supersedes the live file's.
		if _, ok := cursors.Store.Get(ResetCursorID(base)); ok {
			row.CursorID = ResetCursorID(base)
		}
	}
	if row.Key == "" && row.Name.Kind.IsArchive() && cursors.Store != nil {
		if c, ok := cursors.Store.Get(row.CursorID); ok {
			row.Key = c.SessionKey
		}
	}
	if row.Discovered {
		row.Label = SourceLabel(row.ObserverKey)
	} else {
		row.Label = SourceLabel(row.DisplayKey())
	}
	if cursors.Store != nil {
		if c, ok := cursors.Store.Get(row.CursorID); ok {
			row.Cursor = &c
		}
	}
	row.CursorProblem = cursors.Problems[row.CursorID]
	if row.Exists && row.Origin != OriginSQLite {
		row.Selection = Select(row.Size, row.Cursor, opt.MinNewBytes)
		row.Candidate = row.Discovered && row.Selection.Candidate
		row.Stale = row.Discovered && IsStale(row.Cursor, row.Size, opt.Now)
	}
	p.applyImport(row)
	if id := row.Name.SessionID; id != "" {
		var g int
		if at >= 0 {
			g = int(p.sessions.group[at]) // the row's name is its file's
		} else {
			g = p.sessions.byID.Find(id, p.sessions.ids)
		}
		if g >= 0 {
			for f := p.sessions.first[g]; f >= 0; f = p.sessions.next[f] {
				if s := p.names[f]; s != base {
					row.Siblings = append(row.Siblings, s)
				}
			}
		}
	}
	return diagnose(row, snap, cursors, opt, diagnoses)
}

// InBlocks calls fn on [0, n) in blocks of size, on up to GOMAXPROCS
// goroutines, checking ctx between blocks; it returns ctx's error.
func InBlocks(ctx context.Context, n, size int, fn func(from, to int)) error {
	workers := min(runtime.GOMAXPROCS(0), (n+size-1)/size)
	if workers <= 1 {
		fn(0, n)
		return ctx.Err()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				from := int(next.Add(int64(size))) - size
				if from >= n {
					return
				}
				fn(from, min(from+size, n))
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// ResetCursorID is the cursor key under which `observe --include-resets`
// records what it observed of a .jsonl.reset.<ts> archive: the archive's
// file name. ClawVault keeps such a key (it passes its validation) and can
// never confuse it with a session of its own: its discovery only yields ids
// of files named <id>.jsonl.
func ResetCursorID(fileName string) string { return fileName }

// rowFile resolves the transcript row i names: its sessionFile
// (absolute, or relative to the sessions folder), else <sessionId>.jsonl.
// A sessionFile written on another machine is re-rooted into this
// sessions folder when the file is there. It returns the file's position
// in the folder, -1 when it is not in it.
func (p *StatusPlan) rowFile(i int) int {
	snap := p.snap
	path, inDir := RowFileIn(snap.SessionsDir, snap.Rows[i].Entry)
	dir, base := snap.SessionsDir, filepath.Base(path)
	if !inDir {
		dir = filepath.Dir(path)
	}
	at := p.byName.Find(base, p.names)
	if _, ok := snap.Outside[path]; !ok && dir != snap.SessionsDir && at >= 0 {
		// Also when path is outside the state dir: the file here is read instead.
		path, dir = filepath.Join(snap.SessionsDir, base), snap.SessionsDir
	}
	if dir != snap.SessionsDir {
		at = -1
	}
	p.rowFiles[i] = path
	if at >= 0 {
		p.rowNames[i] = p.kinds[at]
	} else {
		p.rowNames[i] = ClassifyFileName(base)
	}
	return at
}

// RowFileIn is RowFile, and whether the file is directly in sessionsDir
// (filepath.Dir of it is sessionsDir). The usual rows (no sessionFile, or
// one that is <sessionsDir>/<name>) are answered without cleaning the
// path: status asks for each of 50,000 rows.
func RowFileIn(sessionsDir string, e StatusEntry) (path string, inDir bool) {
	if name, ok := plainName(sessionsDir, e); ok {
		if e.SessionFile == "" {
			return sessionsDir + string(filepath.Separator) + name, true
		}
		return e.SessionFile, true
	}
	path = RowFile(sessionsDir, e)
	return path, filepath.Dir(path) == sessionsDir
}

// plainName is the name of the row's file when the path is
// <sessionsDir>/<name> as written, already clean: sessionsDir is clean and
// not the root, and the name is a plain one.
func plainName(sessionsDir string, e StatusEntry) (string, bool) {
	if filepath.Separator != '/' || len(sessionsDir) < 2 || sessionsDir[0] != '/' || filepath.Clean(sessionsDir) != sessionsDir {
		return "", false
	}
	name := e.SessionFile
	if name == "" {
		name = strings.TrimSpace(e.SessionID) + ".jsonl"
	} else {
		rest, ok := strings.CutPrefix(name, sessionsDir)
		if !ok || len(rest) < 2 || rest[0] != '/' {
			return "", false
		}
		name = rest[1:]
	}
	if name == "." || name == ".." || name == "" || strings.IndexByte(name, '/') >= 0 {
		return "", false
	}
	return name, true
}

// RowFile is the path a sessions.json row names, before re-rooting.
func RowFile(sessionsDir string, e StatusEntry) string {
	p := e.SessionFile
	switch {
	case p == "":
		p = filepath.Join(sessionsDir, strings.TrimSpace(e.SessionID)+".jsonl")
	case !filepath.IsAbs(p):
		p = filepath.Join(sessionsDir, p)
	}
	return filepath.Clean(p)
}

// lookupFile finds the file of a row: in the folder at position at, else
// among the stats of files outside it.
func (p *StatusPlan) lookupFile(at int, path string) (DirFile, bool) {
	if at >= 0 {
		return p.snap.Files[at], true
	}
	if filepath.Dir(path) == p.snap.SessionsDir {
		return DirFile{}, false
	}
	f, ok := p.snap.Outside[path]
	return f, ok
}

// cursorID is the cursor key of a row: ClawVault's descriptor id when it
// discovers the file, else the id the file had while it was a live
// transcript (an archive keeps its old name before .jsonl).
func cursorID(row *SessionRow) string {
	if row.Discovered {
		return row.CursorID
	}
	base := filepath.Base(row.File)
	if row.Name.Kind.IsArchive() {
		if i := strings.Index(base, ".jsonl."); i > 0 {
			return base[:i]
		}
	}
	if row.Origin == OriginIndex && row.SessionID != "" {
		return row.SessionID
	}
	return strings.TrimSuffix(base, ".jsonl")
}
