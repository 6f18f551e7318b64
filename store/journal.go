package store

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/regfile"
)

// A sweep's commit changes many files that no single rename covers: the
// vault's Markdown files, the raw ledger, the cursors. The journal makes
// them one step. Every new version is first written and synced under a
// temp name beside its file (staged); then the journal, naming each temp
// file and what it replaces, is written atomically; then the renames, the
// ledger's last, then the cursors; then the journal is removed. A sweep
// that finds a journal left behind (a crash, a full disk, a kill) rolls
// the commit forward: it renames what was not renamed yet, completes the
// ledger append, and applies the cursors of the sessions whose ledger
// lines are on disk. The vault then holds exactly what the commit would
// have written, so a rerun ends as a sweep that never failed.

// JournalFile is the journal's path; clawvault-tui's own file, which
// ClawVault never reads.
func JournalFile(vault string) string {
	return filepath.Join(vault, ".clawvault", "clawvault-tui-sweep.journal.json")
}

// Journal is one commit in progress.
type Journal struct {
	Version   int              `json:"version"`
	CreatedAt string           `json:"createdAt"`
	Files     []JournalStaged  `json:"files"`
	Appends   []JournalAppend  `json:"appends"`
	Cursors   []JournalCursor  `json:"cursors"`
	Sessions  []JournalSession `json:"sessions"`
	// SeqCursors are the seq cursors of SQLite-era sessions the commit
	// moves (SeqCursorFile), after ClawVault's cursors.
	SeqCursors []JournalSeqCursor `json:"seqCursors,omitempty"`
}

// JournalStaged is a file the commit replaces: its staged version (Temp),
// and the content it was made from (Base…), by length and CRC-32C, which
// tells "not renamed yet" from "renamed" from "changed by someone else".
type JournalStaged struct {
	Path       string `json:"path"`
	Temp       string `json:"temp"`
	BaseExists bool   `json:"baseExists"`
	BaseSize   int64  `json:"baseSize"`
	BaseCRC32C uint32 `json:"baseCrc32c"`
	Size       int64  `json:"size"`
	CRC32C     uint32 `json:"crc32c"`
	// Ops are what the commit did to the file (the observer's operations,
	// opaque here): replayed by a recovery on the file when another writer
	// changed it since, so that neither their lines nor ours are lost.
	Ops json.RawMessage `json:"ops,omitempty"`
}

// JournalStagedOf records a staged file and the content it replaces.
func JournalStagedOf(st *StagedFile, base []byte, baseExists bool) JournalStaged {
	j := JournalStaged{Path: st.Path, Temp: st.Temp, Size: st.Size, CRC32C: st.CRC32C, BaseExists: baseExists}
	if baseExists {
		j.BaseSize, j.BaseCRC32C = int64(len(base)), Checksum(base)
	}
	return j
}

// JournalAppend is one log append: where its bytes will sit, and their
// CRC-32C (to tell our bytes from anything else at that place); the
// prepared temp file (the log's content then ours) and the log it was
// built on.
type JournalAppend struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	CRC32C uint32 `json:"crc32c"`
	Temp   string `json:"temp,omitempty"`
	Base   *Stamp `json:"base,omitempty"`
}

// Stamp is a file identity as a journal keeps it.
type Stamp struct {
	Exists  bool   `json:"exists"`
	Dev     uint64 `json:"dev"`
	Inode   uint64 `json:"inode"`
	Size    int64  `json:"size"`
	ModTime string `json:"modTime"`
}

// StampOf records an identity.
func StampOf(id fileid.ID) *Stamp {
	if !id.Exists() {
		return &Stamp{}
	}
	return &Stamp{Exists: true, Dev: id.Dev, Inode: id.Inode, Size: id.Size, ModTime: id.ModTime.UTC().Format(time.RFC3339Nano)}
}

func (s *Stamp) same(id fileid.ID) bool {
	if !s.Exists || !id.Exists() {
		return s.Exists == id.Exists()
	}
	t, err := time.Parse(time.RFC3339Nano, s.ModTime)
	return err == nil && id.Same(fileid.ID{Dev: s.Dev, Inode: s.Inode, Size: s.Size, ModTime: t})
}

// JournalCursor is a cursor the commit moves.
type JournalCursor struct {
	SessionID          string  `json:"sessionId"`
	LastObservedOffset float64 `json:"lastObservedOffset"`
	LastObservedAt     string  `json:"lastObservedAt"`
	SessionKey         string  `json:"sessionKey"`
	LastFileSize       float64 `json:"lastFileSize"`
	Truncated          bool    `json:"truncated,omitempty"`
	// Append indexes Appends: the ledger lines this cursor depends on; -1
	// when the session wrote none.
	Append int `json:"append"`
}

// JournalSession names a session of the commit, for the report.
type JournalSession struct {
	SessionID  string `json:"sessionId"`
	SessionKey string `json:"sessionKey"`
}

// journalVersion 2 adds Files and the appends' temp files; a version 1
// journal (its Markdown files were renamed before it was written) is
// recovered by its cursors alone. Version 3 adds SeqCursors, version 4 the
// staged files' Ops.
const journalVersion = 4

// SaveJournal writes the journal atomically.
func SaveJournal(w WriteFS, vault string, j *Journal) error {
	path := JournalFile(vault)
	if err := w.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	j.Version = journalVersion
	data, err := encodeJournal(j)
	if err != nil {
		return err
	}
	return WriteFileAtomic(w, path, append(data, '\n'), 0o644)
}

// encodeJournal is json.Marshal(j), compact, but copies each file's ops
// as they are (they were encoded by json.Marshal, or decoded from a
// journal): encoding/json checks and compacts a RawMessage again, and
// with the indenting that cost a commit of 966 files (a journal of tens
// of MB) 350 ms, after a cancel too. TestEncodeJournal keeps it in step
// with Journal's fields.
func encodeJournal(j *Journal) ([]byte, error) {
	var b bytes.Buffer
	var err error
	field := func(name string, v any) {
		data, merr := json.Marshal(v)
		err = cmp.Or(err, merr)
		b.WriteString(`,"` + name + `":`)
		b.Write(data)
	}
	b.WriteString(`{"version":` + strconv.Itoa(j.Version))
	field("createdAt", j.CreatedAt)
	b.WriteString(`,"files":`)
	if j.Files == nil {
		b.WriteString("null")
	} else {
		b.WriteByte('[')
		for i, f := range j.Files {
			if i > 0 {
				b.WriteByte(',')
			}
			err = cmp.Or(err, writeStaged(&b, f))
		}
		b.WriteByte(']')
	}
	field("appends", j.Appends)
	field("cursors", j.Cursors)
	field("sessions", j.Sessions)
	if len(j.SeqCursors) > 0 {
		field("seqCursors", j.SeqCursors)
	}
	b.WriteByte('}')
	return b.Bytes(), err
}

// writeStaged writes a staged file as json.Marshal does, its ops copied.
func writeStaged(b *bytes.Buffer, f JournalStaged) error {
	ops := f.Ops
	f.Ops = nil
	data, err := json.Marshal(f)
	b.Write(bytes.TrimSuffix(data, []byte("}")))
	if len(ops) > 0 {
		b.WriteString(`,"ops":`)
		b.Write(ops)
	}
	b.WriteByte('}')
	return err
}

// maxJournalBytes bounds the journal a sweep reads: a commit's journal
// names its files, appends and cursors, a few hundred bytes each.
const maxJournalBytes = 64 << 20

// JournalRefusedError is a sweep journal that fails a check: unusable
// (no regular file, too large, not JSON, another version) or naming a path
// a sweep of ours never writes. Nothing it names is touched; the sweep
// sets it aside (SetAsideJournal) and stops.
type JournalRefusedError struct {
	Path   string // the journal
	Reason string // what is wrong, a clause
	// Aside is where the journal now is; "" when it could not be moved
	// (AsideErr says why).
	Aside    string
	AsideErr error
}

func (e *JournalRefusedError) Error() string {
	if e.Aside == "" && e.AsideErr == nil { // not set aside (yet)
		return fmt.Sprintf("the sweep journal %s is refused, as it %s", e.Path, e.Reason)
	}
	if e.Aside == "" {
		return fmt.Sprintf("the sweep journal %s was refused and nothing it names was touched, as it %s; it could not be set aside (%v): move it out of the way to sweep again",
			e.Path, e.Reason, model.OSReason(e.AsideErr))
	}
	return fmt.Sprintf("the sweep journal %s was refused, set aside as %s and not obeyed, as it %s; a sweep of clawvault-tui never writes such a journal, so look at it before you delete it",
		e.Path, filepath.Base(e.Aside), e.Reason)
}

func refuse(path, format string, args ...any) *JournalRefusedError {
	return &JournalRefusedError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// LoadJournal reads a journal left by an interrupted commit; nil when
// there is none. A journal that is no regular file, is too large, does not
// parse or has another version is a *JournalRefusedError; it is not read
// further. The paths it names are checked by Check.
func LoadJournal(fsys FS, vault string) (*Journal, error) {
	path := JournalFile(vault)
	fi, err := fsys.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &UnreadableError{What: "the sweep journal", Path: path, Err: err}
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse(path, "%s", (&regfile.NotRegularError{Mode: fi.Mode()}).Error())
	}
	if fi.Size() > maxJournalBytes {
		return nil, refuse(path, "holds %d bytes, more than a journal ever does (%d)", fi.Size(), maxJournalBytes)
	}
	data, err := fsys.ReadFile(path)
	if errors.Is(err, regfile.ErrNotRegular) {
		return nil, refuse(path, "is no longer a regular file")
	}
	if err != nil {
		return nil, &UnreadableError{What: "the sweep journal", Path: path, Err: err}
	}
	return parseJournal(path, data)
}

// parseJournal decodes the journal at path; a *JournalRefusedError when it
// is not one of a version this build writes.
func parseJournal(path string, data []byte) (*Journal, error) {
	var j Journal
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, refuse(path, "does not parse (%v)", err)
	}
	if j.Version < 1 || j.Version > journalVersion {
		return nil, refuse(path, "has version %d, which this build does not write (1 to %d)", j.Version, journalVersion)
	}
	return &j, nil
}

// SetAsideJournal renames a refused journal to a name that says so, beside
// it, and records where in e: a refused journal is never obeyed and never
// deleted, and the next sweep no longer finds it.
func SetAsideJournal(w WriteFS, e *JournalRefusedError, now time.Time) {
	aside := filepath.Join(filepath.Dir(e.Path), "clawvault-tui-sweep.journal.refused-"+now.UTC().Format("20060102T150405.000000000Z")+".json")
	if err := w.Rename(e.Path, aside); err != nil {
		e.AsideErr = err
		return
	}
	if err := w.SyncDir(filepath.Dir(e.Path)); err != nil {
		e.AsideErr = err
		return
	}
	e.Aside = aside
}

// Check refuses (a *JournalRefusedError) a journal our sweep would not have
// written: every path it names must be absolute, clean and, with every
// symbolic link followed, itself and inside the vault (root), never in
// the vault's .clawvault folder; every temp file must be named as ours
// (TempName), beside its target, and be a regular file when it exists;
// regions and cursors must be numbers a commit writes. It runs before the
// journal is obeyed in any way.
func (j *Journal) Check(fsys FS, root *Root) error {
	c := journalCheck{fsys: fsys, root: root, path: JournalFile(root.Dir)}
	for _, f := range j.Files {
		if err := c.staged(f); err != nil {
			return err
		}
	}
	for _, a := range j.Appends {
		if err := c.append(a); err != nil {
			return err
		}
	}
	for _, cur := range j.Cursors {
		if err := c.cursor(cur, len(j.Appends)); err != nil {
			return err
		}
	}
	for _, cur := range j.SeqCursors {
		if cur.Append < -1 || cur.Append >= len(j.Appends) {
			return refuse(c.path, "ties the seq cursor of %q to append %d of %d", cur.SessionID, cur.Append, len(j.Appends))
		}
		if _, err := cur.Update(); err != nil {
			return refuse(c.path, "holds a seq cursor for %q that is not valid", cur.SessionID)
		}
	}
	return nil
}

type journalCheck struct {
	fsys FS
	root *Root
	path string // the journal's
}

// maxJournalPath bounds a path a journal names (PATH_MAX on Linux).
const maxJournalPath = 4096

// target refuses a file the journal would write unless it is in the
// vault where it says, no link on the way.
func (c journalCheck) target(p string) error {
	if p == "" || len(p) > maxJournalPath || strings.ContainsRune(p, 0) || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return refuse(c.path, "names %q, which is not a clean absolute path", truncate(p))
	}
	real, err := RealPath(p)
	if err != nil {
		return refuse(c.path, "names %s, which cannot be resolved (%s)", p, model.OSReason(err))
	}
	if !c.root.Contains(real) {
		return refuse(c.path, "names %s, which is outside the vault %s", describeReal(p, real), c.root.Dir)
	}
	if real != p {
		return refuse(c.path, "names %s, which leads elsewhere through a symbolic link (to %s)", p, real)
	}
	own := filepath.Join(c.root.Real(), ".clawvault")
	if Within(own, p) || p == own+".json" {
		return refuse(c.path, "names %s, a file of the vault's own a sweep never stages", p)
	}
	return nil
}

func describeReal(p, real string) string {
	if p == real {
		return p
	}
	return p + " (which leads to " + real + ")"
}

// temp refuses a temp file that is not ours: our name for target, in its
// folder, and a regular file (not a link to one) when it exists.
func (c journalCheck) temp(target, temp string) error {
	base := filepath.Base(target)
	name := filepath.Base(temp)
	_, ours := TempOwner(name)
	if temp != filepath.Join(filepath.Dir(target), name) || !ours || !strings.HasPrefix(name, "."+base+tempTag) {
		return refuse(c.path, "names %q as the temp file of %s, which is not a temp file of clawvault-tui beside it", truncate(temp), target)
	}
	fi, err := c.fsys.Lstat(temp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &UnreadableError{What: "a temp file the sweep journal names", Path: temp, Err: err}
	case !fi.Mode().IsRegular():
		return refuse(c.path, "names %s as a temp file, which %s", temp, (&regfile.NotRegularError{Mode: fi.Mode()}).Error())
	}
	return nil
}

func (c journalCheck) staged(f JournalStaged) error {
	if err := c.target(f.Path); err != nil {
		return err
	}
	if f.Size < 0 || f.BaseSize < 0 {
		return refuse(c.path, "gives %s a negative size", f.Path)
	}
	return c.temp(f.Path, f.Temp)
}

func (c journalCheck) append(a JournalAppend) error {
	if err := c.target(a.Path); err != nil {
		return err
	}
	if a.Offset < 0 || a.Length < 0 || a.Offset > math.MaxInt64-a.Length {
		return refuse(c.path, "gives the append to %s the region %d+%d, which no file holds", a.Path, a.Offset, a.Length)
	}
	if a.Temp == "" {
		return nil
	}
	return c.temp(a.Path, a.Temp)
}

func (c journalCheck) cursor(cur JournalCursor, appends int) error {
	valid := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) && x >= 0 }
	switch {
	case !model.ValidSessionID(cur.SessionID):
		return refuse(c.path, "moves the cursor of %q, which is no session id", truncate(cur.SessionID))
	case !valid(cur.LastObservedOffset) || !valid(cur.LastFileSize):
		return refuse(c.path, "moves the cursor of %s to an offset that is not a byte count", cur.SessionID)
	case cur.Append < -1 || cur.Append >= appends:
		return refuse(c.path, "ties the cursor of %s to append %d of %d", cur.SessionID, cur.Append, appends)
	}
	return nil
}

// truncate keeps a hostile string short in a message.
func truncate(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// RemoveJournal deletes the journal and syncs its folder.
func RemoveJournal(w WriteFS, vault string) error {
	path := JournalFile(vault)
	if err := w.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return w.SyncDir(filepath.Dir(path))
}

// Merger replays the operations a commit recorded for a staged file
// (JournalStaged.Ops) on the file's current content (exists is false for
// no file), and returns the content to write.
type Merger func(ops json.RawMessage, content []byte, exists bool) ([]byte, bool, error)

// Rolled is what RollForward did.
type Rolled struct {
	// Landed says, per append, whether its bytes are in the log now.
	Landed []bool
	Notes  []string
	// Dropped are the staged files whose new version is not in place and
	// could not be made again (their file changed since, and the journal
	// records no operations to replay: one written before version 4). The
	// commit's cursors must not move then: its sessions are observed again.
	Dropped []string
}

// RollForward completes the renames of the commit a journal describes, as
// far as it can: each staged file not in place yet is renamed over the
// version it was made from; one whose file has changed since (another
// writer, between the crash and now) gets the commit's operations
// replayed on its new content (merge), or is dropped with a note when the
// journal records none; each ledger append is renamed into place, or
// rebuilt on the log's new content when the log changed. An error (a file
// it cannot read or write) leaves the journal for the next attempt.
func RollForward(w WriteFS, fsys FS, j *Journal, merge Merger) (*Rolled, error) {
	r := &Rolled{Landed: make([]bool, len(j.Appends))}
	for _, f := range j.Files {
		note, dropped, err := rollFile(w, fsys, f, merge)
		if err != nil {
			return r, err
		}
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
		if dropped {
			r.Dropped = append(r.Dropped, f.Path)
		}
	}
	for i, a := range j.Appends {
		ok, note, err := rollAppend(w, fsys, a)
		if err != nil {
			return r, err
		}
		r.Landed[i] = ok
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
	}
	return r, nil
}

func rollFile(w WriteFS, fsys FS, f JournalStaged, merge Merger) (note string, dropped bool, err error) {
	data, err := fsys.ReadFile(f.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false, &UnreadableError{What: "a file of the interrupted commit", Path: f.Path, Err: err}
	}
	size, crc := int64(len(data)), Checksum(data)
	_, tempErr := w.Stat(f.Temp)
	tempExists := tempErr == nil
	switch {
	case exists && size == f.Size && crc == f.CRC32C: // renamed before the interruption
		if tempExists {
			return "", false, removeTemp(w, f.Temp)
		}
		return "", false, nil
	case tempExists && (exists == f.BaseExists && (!exists || size == f.BaseSize && crc == f.BaseCRC32C)):
		if err := w.Rename(f.Temp, f.Path); err != nil {
			return "", false, err
		}
		return "", false, w.SyncDir(filepath.Dir(f.Path))
	case len(f.Ops) > 0 && merge != nil:
		if err := mergeStaged(w, f, data, exists, merge); err != nil {
			return "", false, err
		}
		if tempExists {
			if err := removeTemp(w, f.Temp); err != nil {
				return "", false, err
			}
		}
		return fmt.Sprintf("%s changed after the interrupted sweep staged its new version; the sweep's additions were merged into it", f.Path), false, nil
	case tempExists:
		if err := removeTemp(w, f.Temp); err != nil {
			return "", false, err
		}
		return fmt.Sprintf("%s changed after the interrupted sweep staged its new version; that version was dropped, the file is left as it is", f.Path), true, nil
	}
	return fmt.Sprintf("the new version of %s the interrupted sweep staged is gone; the file is left as it is", f.Path), true, nil
}

// mergeStaged writes, atomically, the file with the commit's operations
// replayed on what it holds now. Replaying them again changes nothing, so
// a recovery interrupted here is run again safely.
func mergeStaged(w WriteFS, f JournalStaged, data []byte, exists bool, merge Merger) error {
	out, outExists, err := merge(f.Ops, data, exists)
	if err != nil {
		return fmt.Errorf("cannot merge the interrupted sweep's additions into %s: %w", f.Path, err)
	}
	if !outExists || exists && bytes.Equal(out, data) {
		return nil
	}
	if err := w.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return err
	}
	st, err := StageFile(w, f.Path, out, 0o644)
	if err != nil {
		return err
	}
	if err := st.Commit(); err != nil {
		_ = st.Abort()
		return err
	}
	return nil
}

func rollAppend(w WriteFS, fsys FS, a JournalAppend) (bool, string, error) {
	holds := func() (bool, error) { return RegionHolds(fsys, a.Path, a.Offset, a.Length, a.CRC32C) }
	if a.Temp == "" {
		ok, err := holds()
		return ok, "", err
	}
	if _, err := w.Stat(a.Temp); err != nil {
		ok, err := holds()
		return ok, "", err
	}
	cur, err := stampFile(fsys, a.Path)
	if err != nil {
		return false, "", err
	}
	if a.Base != nil && a.Base.same(cur) {
		if err := w.Rename(a.Temp, a.Path); err != nil {
			return false, "", err
		}
		return true, "", w.SyncDir(filepath.Dir(a.Path))
	}
	if ok, err := holds(); err != nil || ok {
		if err == nil {
			err = removeTemp(w, a.Temp)
		}
		return ok, "", err
	}
	// The log changed since the temp file was built on it: append our
	// bytes to its new content.
	p, err := BeginAppend(w, fsys, a.Path)
	if err != nil {
		return false, "", err
	}
	src, err := fsys.Open(a.Temp)
	if err == nil {
		_, err = io.Copy(p, io.NewSectionReader(src, a.Offset, a.Length))
		src.Close()
	}
	if err == nil {
		err = p.Prepare()
	}
	if err == nil {
		err = p.Commit()
	}
	if err != nil {
		_ = p.Abort()
		return false, "", err
	}
	return true, fmt.Sprintf("%s changed after the interrupted sweep; its lines were appended to the new version", a.Path), removeTemp(w, a.Temp)
}

func removeTemp(w WriteFS, temp string) error {
	if err := w.Remove(temp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
