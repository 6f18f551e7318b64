package model

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clawvault-tui/jscompat"
)

// OpenClaw's session maintenance (spec §3), simulated: what
// `openclaw sessions cleanup --enforce` of OpenClaw 2026.4.12 would do to one
// agent's sessions folder, step by step in its order, with the bytes each
// step takes out of the folder. The simulation follows
// src/config/sessions/{store-maintenance,store,disk-budget}.ts and
// src/cron/session-reaper.ts; where the order or a tie is unspecified there,
// the choice is named in a comment.

// RowAction is what maintenance does with one sessions.json row, named as
// `openclaw sessions cleanup --dry-run` names it (prune-cron-run is ours: the
// cron reaper is not part of that command).
type RowAction string

const (
	ActionKeep         RowAction = "keep"
	ActionPruneMissing RowAction = "prune-missing"
	ActionPruneStale   RowAction = "prune-stale"
	ActionCapOverflow  RowAction = "cap-overflow"
	ActionEvictBudget  RowAction = "evict-budget"
	ActionPruneCronRun RowAction = "prune-cron-run"
)

// RowActions lists the actions in the order maintenance applies them.
var RowActions = []RowAction{ActionPruneMissing, ActionPruneStale, ActionCapOverflow, ActionEvictBudget, ActionPruneCronRun}

// FileStep says why maintenance takes a file out of the sessions folder.
type FileStep string

const (
	// StepArchiveRemoved: the transcript of a removed row that no kept row
	// shares (OpenClaw renames it to <name>.deleted.<ts>).
	StepArchiveRemoved FileStep = "archive-removed"
	// StepExpireDeleted: a .deleted.<ts> archive older than pruneAfter.
	StepExpireDeleted FileStep = "expire-deleted"
	// StepExpireReset: a .reset.<ts> archive older than resetArchiveRetention.
	StepExpireReset FileStep = "expire-reset"
	// StepBudgetArchive: an archive or store backup, oldest first, while the
	// folder is over its disk budget.
	StepBudgetArchive FileStep = "budget-archive"
	// StepBudgetOrphan: a transcript no row references, oldest first, while
	// the folder is over its disk budget.
	StepBudgetOrphan FileStep = "budget-orphan"
	// StepBudgetEvict: the transcript of a row the disk budget evicts.
	StepBudgetEvict FileStep = "budget-evict"
	// StepCronArchive: the transcript of a cron run row past
	// cron.sessionRetention.
	StepCronArchive FileStep = "cron-archive"
	// StepCronExpire: a .deleted archive older than cron.sessionRetention,
	// which the cron reaper deletes once it has archived something.
	StepCronExpire FileStep = "cron-expire-deleted"
)

// RowTime is a row's updatedAt, which OpenClaw reads three ways: compared
// with a cutoff after JavaScript's coercion (prune), with null and absent
// last (cap), and as 0 unless it is a finite number (disk budget).
type RowTime struct {
	// Set: present and not null.
	Set bool
	// Value is Number(updatedAt): NaN when it does not convert.
	Value float64
	// IsNumber: a finite JSON number.
	IsNumber bool
}

// Ms is the time in milliseconds, 0 unless it is a finite number.
func (t RowTime) Ms() int64 {
	if t.IsNumber {
		return int64(t.Value)
	}
	return 0
}

// olderThan is pruneStaleEntries's test: updatedAt != null && updatedAt < cutoff.
func (t RowTime) olderThan(cutoff float64) bool { return t.Set && t.Value < cutoff }

// capValue is capEntryCount's sort key: updatedAt ?? -Infinity.
func (t RowTime) capValue() float64 {
	if !t.Set {
		return math.Inf(-1)
	}
	return t.Value
}

// budgetValue is the disk budget's sort key: finite numbers, else 0.
func (t RowTime) budgetValue() float64 {
	if t.IsNumber {
		return t.Value
	}
	return 0
}

// orZero is updatedAt ?? 0 (the cron reaper's and the table's reading).
func (t RowTime) orZero() float64 {
	if !t.Set {
		return 0
	}
	return t.Value
}

// jsCompare is a sort comparator's result as V8 reads it: NaN is "equal".
func jsCompare(d float64) int {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// MaintenanceRow is one sessions.json row as maintenance sees it.
type MaintenanceRow struct {
	Key string
	// SessionID is entry.sessionId when it is a non-empty string.
	SessionID string
	UpdatedAt RowTime
	// Transcript is the file the row names, when it lies inside the sessions
	// folder (sessionFile, else <sessionId>.jsonl); "" otherwise. The disk
	// budget counts it as referenced and evicts it with the row.
	Transcript string
	// Candidates are the files archived when the row is removed and no kept
	// row shares its session id: the sessionFile and <sessionId>.jsonl,
	// inside the folder, in OpenClaw's order.
	Candidates []string
	// HasSessionFile: the row names a sessionFile (it wins when two removed
	// rows share a session id).
	HasSessionFile bool
	// Missing: the transcript the row names does not exist (--fix-missing).
	Missing bool
	// ChunkBytes is the row's size in JSON.stringify(store, null, 2) without
	// the separator: `  "key": {…}`.
	ChunkBytes int64
	// Entry is the decoded row, for display.
	Entry *SessionEntry
}

// MaintenanceInput is one agent's sessions folder and store.
type MaintenanceInput struct {
	Agent       string
	SessionsDir string
	StorePath   string
	// Rows are the sessions.json rows in JavaScript's property order.
	Rows []MaintenanceRow
	// Files are the regular files of the sessions folder (not symlinks),
	// sessions.json included.
	Files []DirFile
	Now   time.Time
	// ActiveKey is spared by the disk budget (--active-key).
	ActiveKey string
	// FixMissing prunes rows whose transcript is missing (--fix-missing).
	FixMissing bool
}

// DiskBudget is the disk budget step, with OpenClaw's field names.
type DiskBudget struct {
	TotalBytesBefore int64 `json:"totalBytesBefore"`
	TotalBytesAfter  int64 `json:"totalBytesAfter"`
	RemovedFiles     int   `json:"removedFiles"`
	RemovedEntries   int   `json:"removedEntries"`
	FreedBytes       int64 `json:"freedBytes"`
	MaxBytes         int64 `json:"maxBytes"`
	HighWaterBytes   int64 `json:"highWaterBytes"`
	OverBudget       bool  `json:"overBudget"`
}

// RowPlan is one row and what happens to it.
type RowPlan struct {
	Key       string
	SessionID string
	UpdatedAt RowTime
	Action    RowAction
	// Transcript is the row's transcript inside the folder ("" if none) and
	// TranscriptBytes its size (0 when it does not exist).
	Transcript      string
	TranscriptBytes int64
	// RowBytes is the row's share of sessions.json, separator included.
	RowBytes int64
	// FreedBytes is what leaves the folder with the row: its share of
	// sessions.json and the files moved because of it.
	FreedBytes int64
	// Protected: the active key, which the disk budget skipped.
	Protected bool
	Entry     *SessionEntry
}

// FilePlan is one file maintenance takes out of the sessions folder.
type FilePlan struct {
	Name    string
	Path    string
	Size    int64
	ModTime time.Time
	Inode   uint64
	Step    FileStep
	// Key is the removed row the file leaves with, if any.
	Key string
	// BudgetToo: the disk budget removes this file as well (after OpenClaw
	// renamed it to a .deleted archive), so its bytes count in the budget.
	BudgetToo bool
	// Unobserved is how much of the file no sweep has observed (its bytes
	// past the cursor, all of them without one); Observable says a sweep
	// can still observe them where the file is (a live transcript, or a
	// .reset archive with --include-resets). Apply keeps such a file until
	// it is observed (Held).
	Unobserved int64
	Observable bool
}

// Held says whether apply keeps the file where it is by default: a sweep
// could still observe bytes of it that no sweep has.
func (f FilePlan) Held() bool { return f.Observable && f.Unobserved > 0 }

// MarkUnobserved fills each file's Unobserved and Observable from the
// cursor store (nil when it could not be read: then every transcript
// counts as unobserved). A transcript's cursor is ClawVault's key for it,
// <name>.jsonl's name; a .reset archive's is its own name (our
// --include-resets cursor) when there is one, else the live file's.
func (p *MaintenancePlan) MarkUnobserved(cursors *CursorStore) {
	for i := range p.Files {
		f := &p.Files[i]
		name := ClassifyFileName(f.Name)
		f.Unobserved, f.Observable = 0, false
		if !name.Kind.IsTranscript() {
			continue
		}
		switch name.Kind {
		case FilePrimary, FileTopic, FileFork, FileCheckpoint, FileResetArchive:
			f.Observable = true
		}
		ids := []string{strings.TrimSuffix(f.Name, ".jsonl")}
		if name.Kind.IsArchive() {
			old, _, _ := strings.Cut(f.Name, ".jsonl.")
			ids = []string{ResetCursorID(f.Name), old}
		}
		f.Unobserved = f.Size
		if cursors == nil {
			continue
		}
		for _, id := range ids {
			if c, ok := cursors.Get(id); ok {
				if off := c.Offset(); off <= f.Size {
					f.Unobserved = f.Size - off
				}
				break
			}
		}
	}
}

// HeldBytes totals the unobserved bytes of the files apply keeps.
func (p *MaintenancePlan) HeldBytes() (files int, bytes int64) {
	for _, f := range p.Files {
		if f.Held() {
			files++
			bytes += f.Unobserved
		}
	}
	return files, bytes
}

// MaintenancePlan is what maintenance would do to one agent's folder.
type MaintenancePlan struct {
	Agent       string
	StorePath   string
	SessionsDir string
	Policy      MaintenancePolicy
	Now         time.Time
	ActiveKey   string
	FixMissing  bool
	// StoreSHA256 identifies the sessions.json the plan was made from, so
	// that applying it can refuse a store that changed since.
	StoreSHA256 string
	// DefaultModel is the agent's configured model, shown for rows that
	// name none.
	DefaultModel string

	// BeforeCount, AfterCount, Missing, Pruned, Capped and Budget are
	// `openclaw sessions cleanup`'s figures; AfterCount is before the cron
	// reaper, which that command does not run.
	BeforeCount, AfterCount int
	Missing, Pruned, Capped int
	Budget                  *DiskBudget
	CronPruned              int
	FinalCount              int

	// Rows lists every row, newest first (the order of OpenClaw's table).
	Rows []RowPlan
	// Files lists every file that leaves the folder, in the order
	// maintenance removes them.
	Files []FilePlan
	// StoreBytesBefore is sessions.json's size on disk (0 without one);
	// StoreBytesAfter what JSON.stringify writes for the kept rows.
	StoreBytesBefore, StoreBytesAfter int64
	// Warnings say what an operator should know before applying.
	Warnings []string
}

// WouldMutate is cleanup's wouldMutate, widened to the cron reaper and to
// archive expiry (which the dry-run of cleanup does not simulate).
func (p *MaintenancePlan) WouldMutate() bool {
	return p.BeforeCount != p.FinalCount || len(p.Files) > 0
}

// FreedBytes is what leaves the sessions folder: the files, and the
// removed rows' share of sessions.json.
func (p *MaintenancePlan) FreedBytes() int64 {
	var n int64
	for _, f := range p.Files {
		n += f.Size
	}
	for _, r := range p.Rows {
		if r.Action != ActionKeep {
			n += r.RowBytes
		}
	}
	return n
}

// StoreBytes is the size of JSON.stringify(store, null, 2) for rows whose
// chunks are given: "{}" when empty, else "{\n" + chunks joined by ",\n" +
// "\n}".
func StoreBytes(chunks []int64) int64 {
	if len(chunks) == 0 {
		return 2
	}
	n := int64(4 + 2*(len(chunks)-1))
	for _, c := range chunks {
		n += c
	}
	return n
}

// IsCronRunKey is OpenClaw's isCronRunSessionKey: agent:<a>:cron:<job>:run:<id>.
func IsCronRunKey(key string) bool {
	parts := strings.FieldsFunc(strings.ToLower(strings.TrimSpace(key)), func(r rune) bool { return r == ':' })
	if len(parts) < 3 || parts[0] != "agent" || strings.TrimSpace(parts[1]) == "" {
		return false
	}
	rest := parts[2:]
	return len(rest) == 4 && rest[0] == "cron" && rest[2] == "run"
}

// ArchiveStamp is the timestamp OpenClaw puts in archive names:
// toISOString with ':' replaced by '-'.
func ArchiveStamp(t time.Time) string {
	return strings.ReplaceAll(jscompat.FormatISOTime(t), ":", "-")
}

// ArchiveTime reads the time of a <name>.<reason>.<ts> archive name, as
// parseSessionArchiveTimestamp does (a .zst suffix does not match).
func ArchiveTime(name, reason string) (time.Time, bool) {
	marker := "." + reason + "."
	i := strings.LastIndex(name, marker)
	if i < 0 {
		return time.Time{}, false
	}
	raw := name[i+len(marker):]
	if !isArchiveStamp(raw) {
		return time.Time{}, false
	}
	date, clock, _ := strings.Cut(raw, "T")
	ms, ok := jscompat.ParseISOTime(date + "T" + strings.ReplaceAll(clock, "-", ":"))
	if !ok {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}

// IsArchiveArtifactName is isSessionArchiveArtifactName: a rotated store
// backup (sessions.json.bak.<n>) or a .deleted, .reset or .bak archive.
func IsArchiveArtifactName(name string) bool {
	if strings.HasPrefix(name, "sessions.json.bak.") && allDigits(name[len("sessions.json.bak."):]) {
		return true
	}
	for _, reason := range []string{"deleted", "reset", "bak"} {
		if i := strings.LastIndex(name, "."+reason+"."); i >= 0 && isArchiveStamp(name[i+len(reason)+2:]) {
			return true
		}
	}
	return false
}

// IsPrimaryTranscriptName is isPrimarySessionTranscriptFileName: any
// *.jsonl that is not an archive (checkpoints, topics and forks included).
func IsPrimaryTranscriptName(name string) bool {
	return name != "sessions.json" && strings.HasSuffix(name, ".jsonl") && !IsArchiveArtifactName(name)
}

// simFile is a file of the folder during the simulation.
type simFile struct {
	DirFile
	path string
	// name is its name now: a transcript OpenClaw archived ends in .deleted.<ts>.
	name string
	// gone: it has left the folder (deleted by OpenClaw; moved when applied).
	gone bool
	// plan is its index in plan.Files once it is scheduled to leave, else -1.
	plan int
}

type simulation struct {
	in        MaintenanceInput
	pol       MaintenancePolicy
	plan      *MaintenancePlan
	files     []*simFile // in name order
	byPath    map[string]*simFile
	kept      []int // indexes into in.Rows still in the store, in store order
	actions   []RowAction
	protected map[int]bool
	stamp     string
}

// PlanMaintenance simulates maintenance on one agent's folder, in OpenClaw's
// order: prune-missing (with FixMissing), pruneAfter, maxEntries, archiving
// the transcripts of removed rows, archive expiry (pruneAfter for .deleted,
// resetArchiveRetention for .reset), the disk budget (maxDiskBytes down to
// highWaterBytes: archives and unreferenced transcripts oldest first, then
// the rows updated longest ago with their transcripts, never the active
// key), and last the cron reaper (cron.sessionRetention). Rotation of
// sessions.json is not simulated: OpenClaw ignores rotateBytes since
// mid-2026, and a plan applied here keeps the old store in its archive.
func PlanMaintenance(in MaintenanceInput, pol MaintenancePolicy) *MaintenancePlan {
	s := &simulation{
		in: in, pol: pol, byPath: map[string]*simFile{}, protected: map[int]bool{},
		actions: make([]RowAction, len(in.Rows)),
		stamp:   ArchiveStamp(in.Now),
		plan: &MaintenancePlan{
			Agent: in.Agent, StorePath: in.StorePath, SessionsDir: in.SessionsDir, Policy: pol, Now: in.Now,
			ActiveKey: in.ActiveKey, FixMissing: in.FixMissing, BeforeCount: len(in.Rows),
		},
	}
	files := slices.Clone(in.Files)
	slices.SortFunc(files, func(a, b DirFile) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range files {
		if !f.IsFile {
			continue
		}
		sf := &simFile{DirFile: f, path: filepath.Join(in.SessionsDir, f.Name), name: f.Name, plan: -1}
		s.files = append(s.files, sf)
		s.byPath[sf.path] = sf
		if sf.path == in.StorePath {
			s.plan.StoreBytesBefore = f.Size
		}
	}
	for i := range in.Rows {
		s.actions[i] = ActionKeep
		s.kept = append(s.kept, i)
	}

	if in.FixMissing {
		s.plan.Missing = s.remove(ActionPruneMissing, func(i int) bool {
			return in.Rows[i].SessionID != "" && in.Rows[i].Missing
		})
	}
	cutoff := float64(in.Now.UnixMilli() - pol.PruneAfterMs)
	s.plan.Pruned = s.remove(ActionPruneStale, func(i int) bool { return in.Rows[i].UpdatedAt.olderThan(cutoff) })
	s.plan.Capped = s.capEntries()
	archived := s.archiveTranscripts(s.removedRows(ActionPruneMissing, ActionPruneStale, ActionCapOverflow), StepArchiveRemoved)
	s.expireArchives(archived)
	s.diskBudget()
	s.plan.AfterCount = len(s.kept)
	s.cronReaper()
	s.plan.FinalCount = len(s.kept)
	s.finish()
	return s.plan
}

// remove drops the kept rows drop names, keeping store order, and counts them.
func (s *simulation) remove(action RowAction, drop func(i int) bool) int {
	n := 0
	kept := s.kept[:0]
	for _, i := range s.kept {
		if drop(i) {
			s.actions[i] = action
			n++
			continue
		}
		kept = append(kept, i)
	}
	s.kept = kept
	return n
}

// capEntries keeps the MaxEntries newest rows; rows without updatedAt sort
// last and so go first. Ties keep store order (the sort is stable).
func (s *simulation) capEntries() int {
	if len(s.kept) <= s.pol.MaxEntries {
		return 0
	}
	order := slices.Clone(s.kept)
	slices.SortStableFunc(order, func(a, b int) int {
		return jsCompare(s.in.Rows[b].UpdatedAt.capValue() - s.in.Rows[a].UpdatedAt.capValue())
	})
	drop := map[int]bool{}
	for _, i := range order[s.pol.MaxEntries:] {
		drop[i] = true
	}
	return s.remove(ActionCapOverflow, func(i int) bool { return drop[i] })
}

// removedRows lists the rows removed by the given actions, action by action,
// each in store order: the order OpenClaw meets them.
func (s *simulation) removedRows(actions ...RowAction) []int {
	var out []int
	for _, action := range actions {
		for i, a := range s.actions {
			if a == action {
				out = append(out, i)
			}
		}
	}
	return out
}

// archiveTranscripts archives the transcripts of removed rows whose session
// id no kept row shares, as archiveRemovedSessionTranscripts does: one pass
// per session id (the last removed row with a sessionFile names it), every
// candidate file that exists. OpenClaw renames each to
// <name>.deleted.<now>, so it stays in the folder and counts toward the
// disk budget. It reports whether anything was archived.
func (s *simulation) archiveTranscripts(removed []int, step FileStep) bool {
	var order []string
	chosen := map[string]int{}
	for _, i := range removed {
		r := &s.in.Rows[i]
		if r.SessionID == "" {
			continue
		}
		if _, seen := chosen[r.SessionID]; !seen {
			order = append(order, r.SessionID)
			chosen[r.SessionID] = i
		} else if r.HasSessionFile {
			chosen[r.SessionID] = i
		}
	}
	referenced := map[string]bool{}
	for _, i := range s.kept {
		if id := s.in.Rows[i].SessionID; id != "" {
			referenced[id] = true
		}
	}
	archived := false
	for _, id := range order {
		if referenced[id] {
			continue
		}
		r := &s.in.Rows[chosen[id]]
		for _, c := range r.Candidates {
			f := s.byPath[c]
			if f == nil || f.gone || f.name != f.Name {
				continue
			}
			s.schedule(f, step, r.Key)
			f.name = f.Name + ".deleted." + s.stamp
			archived = true
		}
	}
	return archived
}

// schedule records that f leaves the folder (once; a later step that
// removes it again only marks the plan entry).
func (s *simulation) schedule(f *simFile, step FileStep, key string) {
	if f.plan >= 0 {
		s.plan.Files[f.plan].BudgetToo = true
		return
	}
	f.plan = len(s.plan.Files)
	s.plan.Files = append(s.plan.Files, FilePlan{Name: f.Name, Path: f.path, Size: f.Size, ModTime: f.ModTime, Inode: f.Inode, Step: step, Key: key})
}

// expireArchives deletes .deleted archives older than pruneAfter and .reset
// archives older than resetArchiveRetention, by the time in their names.
// OpenClaw does this only when it archived something or reset-archive
// retention is on.
func (s *simulation) expireArchives(archived bool) {
	if !archived && !s.pol.ResetArchives {
		return
	}
	s.expire("deleted", s.pol.PruneAfterMs, StepExpireDeleted)
	if s.pol.ResetArchives {
		s.expire("reset", s.pol.ResetArchiveRetentionMs, StepExpireReset)
	}
}

func (s *simulation) expire(reason string, olderThanMs int64, step FileStep) {
	now := s.in.Now.UnixMilli()
	for _, f := range s.files {
		if f.gone {
			continue
		}
		at, ok := ArchiveTime(f.name, reason)
		if !ok || now-at.UnixMilli() <= olderThanMs {
			continue
		}
		s.schedule(f, step, "")
		f.gone = true
	}
}

// diskBudget is enforceSessionDiskBudget: when the folder (with the store
// as it would be written) is over maxDiskBytes, remove archives and
// unreferenced transcripts oldest first, then evict the rows updated
// longest ago, with their transcripts, until it is at highWaterBytes.
// Files with the same mtime go in name order (OpenClaw: directory order).
func (s *simulation) diskBudget() {
	if !s.pol.DiskBudget {
		return
	}
	b := &DiskBudget{MaxBytes: s.pol.MaxDiskBytes, HighWaterBytes: s.pol.HighWaterBytes}
	s.plan.Budget = b
	projected, total := s.budgetBytes()
	b.TotalBytesBefore, b.TotalBytesAfter = total, total
	if total <= b.MaxBytes {
		return
	}
	b.OverBudget = true
	total = s.budgetRemoveFiles(total, b.HighWaterBytes)
	if total > b.HighWaterBytes {
		total = s.budgetEvict(b, projected, total)
	}
	b.TotalBytesAfter = total
}

// budgetBytes is the store's size projected from the kept entries, and
// the total the budget counts: that and every file left in the sessions
// folder.
func (s *simulation) budgetBytes() (projected, total int64) {
	var keptChunks []int64
	for _, i := range s.kept {
		keptChunks = append(keptChunks, s.in.Rows[i].ChunkBytes)
	}
	projected = StoreBytes(keptChunks)
	total = projected
	for _, f := range s.files {
		if !f.gone && f.path != s.in.StorePath {
			total += f.Size
		}
	}
	return projected, total
}

// budgetRemoveFiles is the budget's first pass: archive artifacts and
// transcripts no kept entry references, oldest first, until the total is
// at the high-water mark. It returns the total left.
func (s *simulation) budgetRemoveFiles(total, highWater int64) int64 {
	referenced := map[string]bool{}
	for _, i := range s.kept {
		if t := s.in.Rows[i].Transcript; t != "" {
			referenced[t] = true
		}
	}
	var queue []*simFile
	for _, f := range s.files {
		if !f.gone && (IsArchiveArtifactName(f.name) || IsPrimaryTranscriptName(f.name) && !referenced[f.path]) {
			queue = append(queue, f)
		}
	}
	slices.SortStableFunc(queue, func(x, y *simFile) int { return x.ModTime.Compare(y.ModTime) })
	for _, f := range queue {
		if total <= highWater {
			break
		}
		step := StepBudgetOrphan
		if IsArchiveArtifactName(f.name) {
			step = StepBudgetArchive
		}
		total -= s.budgetRemove(f, step, "")
	}
	return total
}

// budgetEvict is the budget's second pass: entries least recently updated
// first (the active session's kept), each taking its transcript when no
// other kept entry shares it, until the total is at the high-water mark.
// It returns the total left.
func (s *simulation) budgetEvict(b *DiskBudget, projected, total int64) int64 {
	active := strings.ToLower(strings.TrimSpace(s.in.ActiveKey))
	refs := map[string]int{}
	for _, i := range s.kept {
		if id := s.in.Rows[i].SessionID; id != "" {
			refs[id]++
		}
	}
	order := slices.Clone(s.kept)
	slices.SortStableFunc(order, func(a, c int) int {
		return jsCompare(s.in.Rows[a].UpdatedAt.budgetValue() - s.in.Rows[c].UpdatedAt.budgetValue())
	})
	evict := map[int]bool{}
	for _, i := range order {
		if total <= b.HighWaterBytes {
			break
		}
		r := &s.in.Rows[i]
		if active != "" && strings.ToLower(strings.TrimSpace(r.Key)) == active {
			s.protected[i] = true
			continue
		}
		evict[i] = true
		b.RemovedEntries++
		prev := projected
		projected = max(2, projected-(r.ChunkBytes+2))
		total += projected - prev
		if r.SessionID == "" {
			continue
		}
		if refs[r.SessionID]--; refs[r.SessionID] > 0 {
			continue
		}
		if f := s.byPath[r.Transcript]; f != nil {
			total -= s.budgetRemove(f, StepBudgetEvict, r.Key)
		}
	}
	s.remove(ActionEvictBudget, func(i int) bool { return evict[i] })
	return total
}

// budgetRemove takes f out for the disk budget and returns the bytes that
// count: an empty file is deleted but reported as 0 bytes and not counted,
// as OpenClaw's removeFileForBudget does.
func (s *simulation) budgetRemove(f *simFile, step FileStep, key string) int64 {
	if f.gone {
		return 0
	}
	s.schedule(f, step, key)
	f.gone = true
	if f.Size <= 0 {
		return 0
	}
	s.plan.Budget.RemovedFiles++
	s.plan.Budget.FreedBytes += f.Size
	return f.Size
}

// cronReaper is sweepCronRunSessions: drop cron run rows updated before
// now − cron.sessionRetention, archive their transcripts, and then delete
// .deleted archives older than the retention in the folder.
func (s *simulation) cronReaper() {
	if !s.pol.CronReaper {
		return
	}
	cutoff := float64(s.in.Now.UnixMilli() - s.pol.CronRetentionMs)
	s.plan.CronPruned = s.remove(ActionPruneCronRun, func(i int) bool {
		r := &s.in.Rows[i]
		return IsCronRunKey(r.Key) && r.UpdatedAt.orZero() < cutoff
	})
	if s.plan.CronPruned == 0 {
		return
	}
	if s.archiveTranscripts(s.removedRows(ActionPruneCronRun), StepCronArchive) {
		s.expire("deleted", s.pol.CronRetentionMs, StepCronExpire)
	}
}

// finish fills the row table (newest first, as OpenClaw's table sorts it)
// and the byte figures.
func (s *simulation) finish() {
	p := s.plan
	var keptChunks []int64
	for _, i := range s.kept {
		keptChunks = append(keptChunks, s.in.Rows[i].ChunkBytes)
	}
	p.StoreBytesAfter = StoreBytes(keptChunks)
	byKey := map[string]int64{}
	for _, f := range p.Files {
		if f.Key != "" {
			byKey[f.Key] += f.Size
		}
	}
	p.Rows = make([]RowPlan, len(s.in.Rows))
	for i := range s.in.Rows {
		r := &s.in.Rows[i]
		rp := RowPlan{
			Key: r.Key, SessionID: r.SessionID, UpdatedAt: r.UpdatedAt, Action: s.actions[i], Transcript: r.Transcript,
			RowBytes: r.ChunkBytes + 2, Protected: s.protected[i], Entry: r.Entry,
		}
		if f := s.byPath[r.Transcript]; f != nil {
			rp.TranscriptBytes = f.Size
		}
		if rp.Action != ActionKeep {
			rp.FreedBytes = rp.RowBytes + byKey[r.Key]
		}
		p.Rows[i] = rp
	}
	slices.SortStableFunc(p.Rows, func(a, b RowPlan) int {
		return jsCompare(b.UpdatedAt.orZero() - a.UpdatedAt.orZero())
	})
	active := strings.ToLower(strings.TrimSpace(s.in.ActiveKey))
	for _, r := range p.Rows {
		if active != "" && strings.ToLower(r.Key) == active && r.Action != ActionKeep {
			p.Warnings = append(p.Warnings, "the active key "+r.Key+" would be removed by "+string(r.Action)+
				": OpenClaw spares the active key only from the disk budget")
		}
	}
	if p.StoreBytesBefore > s.pol.RotateBytes {
		p.Warnings = append(p.Warnings, "sessions.json is "+Bytes(p.StoreBytesBefore)+", over rotateBytes ("+Bytes(s.pol.RotateBytes)+
			"): OpenClaw up to 2026.5 would also rotate it to sessions.json.bak.<ms>, keeping 3 backups")
	}
}
