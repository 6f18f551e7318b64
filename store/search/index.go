// Package search is the full-text index over an operator's memory: the
// vault's Markdown (categories, observation ledger in both syntaxes,
// reflections), every agent's MEMORY.md and memory/**, and optionally the
// user and assistant text of transcripts. It is an on-disk bleve (scorch)
// index in the user's cache folder, one per vault, kept in step with the
// files by a manifest (path → size, mtime, hash, document ids) and updated
// file by file: after the editor saves, on fsnotify events, or by a sync
// that stats everything and reads only what changed.
//
// A full build (an empty index) goes through scorch's offline builder
// instead (build.go), with its own faster analysis (buildanalysis.go).
//
// One document per Markdown section (a heading and what follows, at most
// 60 lines), the front matter, and each observation line on its own with
// its type, confidence and importance. Hits carry the exact line (from the
// locations of the query's terms in the section, found when the hit is
// returned: locate.go), a snippet and the byte ranges to highlight.
package search

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/mmap-go"
	bolterrors "go.etcd.io/bbolt/errors"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/lockfile"
	"clawvault-tui/store/regfile"
	"clawvault-tui/store/transcript"
)

// Index is an open search index. Its methods are safe for concurrent use:
// searches run alongside an update; updates run one at a time.
type Index struct {
	opt   Options
	m     *mapping.IndexMappingImpl
	an    analyzers
	roots map[string]*Root

	// mu is held by writers (one update at a time) and guards man and
	// manRaw.
	mu  sync.Mutex
	man manifest
	// manRaw, when not nil, is the manifest as read from the index, not
	// decoded yet (man is then nil): a sync that finds nothing changed
	// reads it without decoding it (quickSync); loadManifest decodes it.
	// manMap is its file's mapping when manRaw is that; manID names the
	// file the index refers to ("" for a manifest held inline): see
	// manifestfile.go.
	manRaw []byte
	manMap mmap.MMap
	manID  string
	// idxMu guards idx: searches and updates hold it for reading, so a
	// search runs while an update (even a full build) is under way; Close
	// and Rebuild hold it for writing. Lock order: mu, then idxMu.
	idxMu sync.RWMutex
	idx   bleve.Index
	// asyncErr receives scorch's background errors (see runtimeConfig).
	asyncErr chan error
	// damaged: a batch failed, so the documents may be ahead of the
	// manifest; the next run rebuilds.
	damaged bool
	// folders are the vault folders' mtimes at the last sync, guarded by
	// mu; fullCheckEvery is folders.go's constant (tests change it).
	folders        folderRecords
	fullCheckEvery time.Duration
	// compactAfter is compactAfterBatches, buildBatchDocs build.go's
	// constant (tests change them).
	compactAfter   int
	buildBatchDocs int
	// readOnly: idx was opened to search only (see runtimeConfig).
	readOnly bool
	// rebuilding: a Rebuild runs (a full build even of no file).
	rebuilding bool
	// note says why the index found on disk was not used, when another
	// version of the program built it or it was damaged (RebuildReason).
	note string
	// damage is why a search found the index damaged (damagedBy), for
	// the next sync to set it aside; nil when it did not.
	damage atomic.Pointer[string]
}

// Internal keys of the bleve index.
var (
	keySchema   = []byte("clawvault-tui/schema")
	keyManifest = []byte("clawvault-tui/manifest")
)

// Open opens the index in opt.Dir, creating it if needed. An index built
// with another schema is rebuilt from scratch (it is a cache), a damaged
// one set aside first (damage.go); RebuildReason says which. One that
// another process holds to write gives a *BusyError after
// opt.BusyTimeout. Open reads no memory file: call Sync next.
func Open(opt Options) (*Index, error) {
	if opt.BusyTimeout <= 0 {
		opt.BusyTimeout = DefaultBusyTimeout
	}
	if opt.Dir == "" {
		return nil, errors.New("search: no index folder given")
	}
	ix := &Index{opt: opt, m: newMapping(), roots: map[string]*Root{}, asyncErr: make(chan error, 1), fullCheckEvery: fullCheckEvery, compactAfter: compactAfterBatches, buildBatchDocs: buildBatchDocs}
	ix.an = newAnalyzers(ix.m)
	for i := range ix.opt.Roots {
		r := &ix.opt.Roots[i]
		ix.roots[r.ID] = r
	}
	unlock, err := lockOpen(opt.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := ix.openOrCreate(); err != nil {
		return nil, err
	}
	asyncErrors.Store(ix.storePath(), ix.asyncErr)
	return ix, nil
}

func (ix *Index) storePath() string { return filepath.Join(ix.opt.Dir, "store") }

// lockOpen serialises opening, creating and removing the index folder
// between processes (bolt's own lock covers the open index, not the steps
// before it exists).
func lockOpen(dir string) (func(), error) {
	release, err := lockfile.Lock(dir + ".lock")
	if err != nil {
		return nil, fmt.Errorf("cannot lock the search index folder: %w", err)
	}
	return release, nil
}

// runtimeConfig is scorch's configuration for this process (not written
// into the index). Batches are "unsafe": Batch returns once the documents
// are searchable, and writing them to disk overlaps with analysing the
// next batch; every run waits for its last batch to be on disk before it
// returns (writer.wait), and the manifest on disk always either matches
// the documents or says it does not (writer.commit).
//
// readOnly opens the index to search only: scorch then starts neither its
// persister nor its merger, and the persister of a writable open saves
// the snapshot it loaded again, six fdatasyncs before the first query.
// With Options.ReadOnlyUntilWrite, Open starts read-only and the first run
// with something to write reopens (reopenToWrite).
func (ix *Index) runtimeConfig(readOnly bool) map[string]any {
	return map[string]any{
		"bolt_timeout":           ix.opt.BusyTimeout.String(),
		"unsafe_batch":           true,
		"asyncErrorCallbackName": asyncErrorCallback,
		"read_only":              readOnly,
	}
}

// asyncErrorCallback routes scorch's background errors (a failed write to
// disk) to the index they concern, by its store path.
const asyncErrorCallback = "clawvault-tui"

var asyncErrors sync.Map // store path → chan error

func init() {
	scorch.RegistryAsyncErrorCallbacks[asyncErrorCallback] = func(err error, path string) {
		if ch, ok := asyncErrors.Load(filepath.Clean(path)); ok {
			select {
			case ch.(chan error) <- err:
			default:
			}
		}
	}
}

func (ix *Index) openOrCreate() error {
	if ix.indexThere() || !ix.opt.ReadOnlyUntilWrite {
		if ok, err := ix.openExisting(ix.opt.ReadOnlyUntilWrite); ok || err != nil {
			return err
		}
	}
	return ix.create()
}

// openExisting opens the index in the folder and adopts it. ok is false
// when there is none, or it has another schema (closed again: the caller
// starts over), or it was damaged: then it is set aside first, and the
// note says so (RebuildReason).
func (ix *Index) openExisting(readOnly bool) (ok bool, err error) {
	if reason := ix.checkStore(); reason != "" {
		return false, ix.setAsideNoted(reason)
	}
	idx, err := openBleve(ix.opt.Dir, ix.runtimeConfig(readOnly))
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return false, &BusyError{Dir: ix.opt.Dir, Building: ix.buildRunning()}
	case err != nil && ix.indexThere():
		return false, ix.setAsideNoted(err.Error())
	case err != nil:
		return false, nil
	}
	adopted, damage := ix.adoptSafely(idx)
	if !adopted {
		idx.Close()
		if damage != "" {
			return false, ix.setAsideNoted(damage)
		}
		return false, nil
	}
	ix.readOnly = readOnly
	return true, nil
}

// openBleve is bleve.OpenUsing, a panic of the library's an error.
func openBleve(dir string, config map[string]any) (idx bleve.Index, err error) {
	defer func() {
		if r := recover(); r != nil {
			idx, err = nil, fmt.Errorf("the search library failed to open it: %v", r)
		}
	}()
	return bleve.OpenUsing(dir, config)
}

// indexThere says whether the folder holds an index (bleve's metadata),
// whole or not.
func (ix *Index) indexThere() bool {
	_, err := os.Lstat(filepath.Join(ix.opt.Dir, "index_meta.json"))
	return err == nil
}

// setAsideNoted sets the damaged index aside and notes it for
// RebuildReason.
func (ix *Index) setAsideNoted(reason string) error {
	d, err := ix.setAside(reason)
	if err != nil {
		return err
	}
	ix.note = d.Error()
	return nil
}

// reopenToWrite closes the index opened read-only and opens it to write,
// reading its manifest again; stale is how many files changed since it was
// written. When another process has it open, or is building it again, it
// stays open read-only, and the *BusyError says how stale it is (a search
// still answers from it). Called with mu held.
func (ix *Index) reopenToWrite(stale int) error {
	if ix.buildRunning() {
		return &BusyError{Dir: ix.opt.Dir, Building: true, Stale: stale}
	}
	err := ix.reopen(func() error {
		ok, err := ix.openExisting(false)
		var busy *BusyError
		if errors.As(err, &busy) {
			if ok, rerr := ix.openExisting(true); !ok || rerr != nil {
				return errors.Join(err, rerr)
			}
			busy.Stale = stale
			return busy
		}
		if ok || err != nil {
			return err
		}
		return ix.create()
	})
	return err
}

// fullBuild says whether a run of these changes builds the index anew
// (build.go): it is empty and files are to be read (or a Rebuild runs).
func (ix *Index) fullBuild(gone []string, changed []fileRef) bool {
	return len(ix.man) == 0 && len(gone) == 0 && (len(changed) > 0 || ix.rebuilding)
}

// adoptSafely is adopt, a panic of the library's damage.
func (ix *Index) adoptSafely(idx bleve.Index) (ok bool, damage string) {
	defer func() {
		if r := recover(); r != nil {
			ok, damage = false, fmt.Sprintf("the search library failed to read it: %v", r)
		}
	}()
	return ix.adopt(idx)
}

// adopt takes an opened index if it has our schema and a readable
// manifest. damage says why an index of our schema cannot be used; an
// index of another version, or one a run left unfinished, is not
// damaged: it is built again, without a copy.
func (ix *Index) adopt(idx bleve.Index) (ok bool, damage string) {
	stamp, err := idx.GetInternal(keySchema)
	switch {
	case err != nil:
		return false, err.Error()
	case len(stamp) == 0:
		// Every index is made with its stamp (create, a build): bleve
		// found no snapshot it could load, a segment or the root gone.
		return false, "it holds no snapshot that loads"
	case string(stamp) != schemaStamp(ix.m):
		ix.note = fmt.Sprintf("the search index in %s was built by another version of clawvault-tui (schema %s, this one reads %s): it is built again", ix.opt.Dir, stamp, schemaStamp(ix.m))
		return false, ""
	}
	value, err := idx.GetInternal(keyManifest)
	if err != nil {
		return false, err.Error()
	}
	raw, m, id, err := ix.openManifest(value)
	// Not decoded (see manRaw). The marker of a run in progress, or
	// another format, is found here; other damage by the first sync,
	// which reads it through, and then sets it aside.
	if err != nil || !bytes.HasPrefix(raw, []byte(manifestMagic)) {
		damage := manifestDamage(raw, err) // before raw is unmapped
		if m != nil {
			m.Unmap()
		}
		return false, damage
	}
	ix.dropManifestMap()
	ix.idx, ix.man, ix.manRaw, ix.manMap, ix.manID = idx, nil, raw, m, id
	if raw, err := idx.GetInternal(keyFolders); err == nil && raw != nil {
		ix.folders, _ = decodeFolders(raw) // damaged: every file is stat'ed
	}
	return true, ""
}

// manifestDamage says why a manifest cannot be used when that is damage:
// not for the marker of a run left unfinished, nor a manifest of another
// format (an earlier version's).
func manifestDamage(raw []byte, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case string(raw) == manifestInProgress, bytes.HasPrefix(raw, []byte(manifestMagic[:4])):
		return ""
	}
	return errManifest.Error()
}

// create makes an empty index in opt.Dir, removing what was there. The
// index is created with bleve's defaults (what it writes in
// index_meta.json) and reopened with ours, which are for this process only.
func (ix *Index) create() error {
	ix.dropManifestMap() // (a mapped file cannot be removed on Windows)
	if err := os.RemoveAll(ix.opt.Dir); err != nil {
		return fmt.Errorf("cannot remove the old search index: %w", err)
	}
	idx, err := bleve.NewUsing(ix.opt.Dir, ix.m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return fmt.Errorf("cannot create the search index in %s: %w", ix.opt.Dir, err)
	}
	b := idx.NewBatch()
	b.SetInternal(keySchema, []byte(schemaStamp(ix.m)))
	b.SetInternal(keyManifest, manifest{}.encode())
	err = idx.Batch(b)
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot create the search index in %s: %w", ix.opt.Dir, err)
	}
	idx, err = bleve.OpenUsing(ix.opt.Dir, ix.runtimeConfig(false))
	if errors.Is(err, bolterrors.ErrTimeout) {
		return &BusyError{Dir: ix.opt.Dir}
	}
	if err != nil {
		return fmt.Errorf("cannot open the new search index in %s: %w", ix.opt.Dir, err)
	}
	ix.idx, ix.man, ix.manRaw, ix.manID, ix.folders, ix.readOnly = idx, manifest{}, nil, "", folderRecords{}, false
	return nil
}

// dropManifestMap unmaps the manifest file, when manRaw is it.
func (ix *Index) dropManifestMap() {
	if ix.manMap != nil {
		ix.manMap.Unmap()
		ix.manMap, ix.manRaw = nil, nil
	}
}

// loadManifest decodes the manifest read from the index, if it is not
// yet; an error means it is damaged. Called with mu held.
func (ix *Index) loadManifest() error {
	if ix.manRaw == nil {
		return nil
	}
	raw := ix.manRaw
	if ix.manMap != nil {
		// The entries keep slices of it (see docList).
		raw = bytes.Clone(raw)
		ix.dropManifestMap()
	}
	man, err := decodeManifest(raw)
	ix.manRaw = nil
	if err != nil {
		return err
	}
	ix.man = man
	return nil
}

// Close closes the index; it stays on disk for the next Open.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.idxMu.Lock()
	defer ix.idxMu.Unlock()
	if ix.idx == nil {
		return nil
	}
	err := ix.idx.Close()
	ix.idx = nil
	ix.dropManifestMap()
	asyncErrors.CompareAndDelete(ix.storePath(), ix.asyncErr)
	return err
}

// Dir is the index's folder.
func (ix *Index) Dir() string { return ix.opt.Dir }

// RebuildReason says, after Open, in one line, why the index on disk is
// being built again: another version of the program made it (its
// documents are not what this version searches), or it was damaged and
// set aside; empty otherwise, and once the index built again is in
// place.
func (ix *Index) RebuildReason() string { return ix.note }

// Progress reports an index run: files and bytes read so far out of those
// that changed, and the file at hand.
type Progress struct {
	Files, FilesTotal int
	Bytes, BytesTotal int64
	Path              string
}

// ProgressFunc receives progress from the indexing goroutine; it must not
// block for long.
type ProgressFunc func(Progress)

// Stats says what a run did.
type Stats struct {
	Files     int    // files in the index afterwards
	Docs      uint64 // documents in the index afterwards
	Indexed   int    // files read and (re)indexed
	Appended  int    // transcripts of which only the new lines were read
	Removed   int    // files whose documents were removed
	Unchanged int    // files whose size and mtime matched
	Touched   int    // files read whose content had not changed
	Sections  int    // sections (re)indexed: the documents written
	Bytes     int64  // bytes read
	// Problems are files or folders that could not be read; their
	// documents, if any, stay as they were.
	Problems []string
}

// Sync brings the whole index in step with the disk: it stats every file,
// reads those whose size or mtime changed, and removes the documents of
// files that are gone (or no longer included).
func (ix *Index) Sync(ctx context.Context, progress ProgressFunc) (Stats, error) {
	return ix.reconcile(ctx, ix.allScopes(), true, progress)
}

func (ix *Index) allScopes() []scope {
	scopes := make([]scope, len(ix.opt.Roots))
	for i := range ix.opt.Roots {
		scopes[i] = scope{root: &ix.opt.Roots[i]}
	}
	return scopes
}

// Rebuild builds the index again from every file. The index as it was
// stays on disk, and open to searches here and in other processes, until
// the new one is complete and takes its place: a rebuild that fails, or
// is cancelled, leaves it as it was.
func (ix *Index) Rebuild(ctx context.Context, progress ProgressFunc) (Stats, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.idx == nil {
		return Stats{}, bleve.ErrorIndexClosed
	}
	old, kept := ix.idx, ix.forgetManifest()
	ix.rebuilding = true
	st, err := ix.reconcileLocked(ctx, ix.allScopes(), true, progress)
	ix.rebuilding = false
	if ix.idx == old {
		ix.restoreManifest(kept) // not replaced: it is still the index
	} else if kept.m != nil {
		kept.m.Unmap()
	}
	return st, err
}

// manifestState is what an Index knows of its manifest and folders.
type manifestState struct {
	man     manifest
	raw     []byte
	m       mmap.MMap
	id      string
	folders folderRecords
}

// forgetManifest makes the index look empty to a run (all its files are
// new: a full build), and returns what it knew. Called with mu held.
func (ix *Index) forgetManifest() manifestState {
	kept := manifestState{ix.man, ix.manRaw, ix.manMap, ix.manID, ix.folders}
	ix.man, ix.manRaw, ix.manMap, ix.folders = manifest{}, nil, nil, folderRecords{}
	return kept
}

// restoreManifest puts back what forgetManifest returned.
func (ix *Index) restoreManifest(kept manifestState) {
	ix.man, ix.manRaw, ix.manMap, ix.manID, ix.folders = kept.man, kept.raw, kept.m, kept.id, kept.folders
}

// recreateLocked is recreate with mu held.
func (ix *Index) recreateLocked() error {
	return ix.reopen(func() error {
		ix.damaged = false
		return ix.create()
	})
}

// reopen closes idx and calls open, with idxMu and the folder's lock held.
func (ix *Index) reopen(open func() error) error {
	ix.idxMu.Lock()
	defer ix.idxMu.Unlock()
	unlock, err := lockOpen(ix.opt.Dir)
	if err != nil {
		return err
	}
	defer unlock()
	if ix.idx != nil {
		if err := ix.idx.Close(); err != nil {
			return err
		}
		ix.idx = nil
	}
	return open()
}

// Update re-indexes the given paths: files (after the editor saved them, or
// an fsnotify event named them), or folders (everything under them). A
// path that no longer exists loses its documents, and so does everything
// that was under it. A path outside the vault and the workspaces, after
// resolving symlinks, is refused with ErrOutside.
func (ix *Index) Update(ctx context.Context, paths ...string) (Stats, error) {
	var scopes []scope
	for _, p := range paths {
		root, rel, err := ix.opt.locate(p)
		if err != nil {
			return Stats{}, err
		}
		scopes = append(scopes, scope{root: root, prefix: rel})
	}
	return ix.reconcile(ctx, scopes, false, nil)
}

// scope is a part of a root: the whole root (prefix "") or a file or
// folder in it.
type scope struct {
	root   *Root
	prefix string
}

func (s scope) holds(key string) bool {
	rel, ok := strings.CutPrefix(key, s.root.ID+":")
	return ok && under(rel, s.prefix)
}

// batchBytes is how much section text goes into one bleve batch. With
// observation lines as documents (130,000 in the 15 MB demo vault),
// batches of 64 KiB build fastest and peak at ~120 MB; 8 MB batches took
// longer and peaked at 2.6 GB (published bleve measurements suggest 5–10 MB on far
// fewer, larger documents).
const batchBytes = 64 << 10

// reconcile lists the scopes, compares with the manifest, and applies the
// differences in batches. With all, manifest entries of roots the index no
// longer has are removed too.
//
// A damaged index (found by this run, or by a search before it) is set
// aside and built again, and Stats.Problems says so.
func (ix *Index) reconcile(ctx context.Context, scopes []scope, all bool, progress ProgressFunc) (Stats, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var notes []string
	for attempt := 0; ; attempt++ {
		if reason := ix.damageFound(); reason != "" {
			d, err := ix.replaceDamaged(reason)
			if err != nil {
				return Stats{}, err
			}
			notes = append(notes, d.Error())
			scopes, all = ix.allScopes(), true
		}
		st, err := ix.reconcileOnce(ctx, scopes, all, progress)
		if errors.Is(err, ErrDamaged) && ix.damageFound() != "" && attempt == 0 {
			continue
		}
		st.Problems = append(notes, st.Problems...)
		return st, err
	}
}

// reconcileOnce is one run of reconcile, with mu held; a panic of the
// search library is damage (damagedBy).
func (ix *Index) reconcileOnce(ctx context.Context, scopes []scope, all bool, progress ProgressFunc) (st Stats, err error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = Stats{}, ix.damagedBy(r)
		}
	}()
	if all && !ix.damaged && ix.idx != nil {
		if st, ok := ix.quickSync(time.Now()); ok {
			return st, nil
		}
	}
	if ix.damaged {
		// A batch failed: the documents may be ahead of the manifest.
		if err := ix.recreateLocked(); err != nil {
			return Stats{}, err
		}
		scopes, all = ix.allScopes(), true
	}
	if ix.idx == nil {
		return Stats{}, bleve.ErrorIndexClosed
	}
	return ix.reconcileLocked(ctx, scopes, all, progress)
}

// reconcileLocked is reconcile with mu held. It lists first, without the
// index; an index opened read-only is reopened to write only when there
// is something to write, and the run starts over (another process may
// have written in between).
func (ix *Index) reconcileLocked(ctx context.Context, scopes []scope, all bool, progress ProgressFunc) (Stats, error) {
	if err := ix.loadManifest(); err != nil {
		// Damaged: reconcile sets it aside and builds it again.
		reason := err.Error()
		ix.damage.Store(&reason)
		return Stats{}, &DamagedError{Dir: ix.opt.Dir, Reason: reason}
	}
	var st Stats
	l, err := ix.listScopes(&st, scopes, all, time.Now())
	if err != nil {
		return st, err
	}
	d := ix.differences(&st, l, scopes, all)
	if l.folders != nil && (len(st.Problems) > 0 || len(l.unreadable) > 0) {
		// A file or folder that could not be read is tried again next
		// time: no folder is trusted.
		*l.folders = folderRecords{}
	}
	if full := ix.fullBuild(d.gone, d.changed); full {
		// Built beside the index, which stays searchable meanwhile: no
		// write lock on it, the build lock instead.
		release, err := ix.lockBuild(len(d.changed) + len(d.gone))
		if err != nil {
			return st, err
		}
		defer release()
	} else if n := len(d.changed) + len(d.gone); ix.readOnly && (n > 0 || l.folders != nil && !l.folders.equal(ix.folders)) {
		var busy *BusyError
		if err := ix.reopenToWrite(n); n == 0 && errors.As(err, &busy) && ix.idx != nil {
			// Only the folder records would have been written: the index
			// is current, and they wait for a run that can write.
			return ix.finalStats(st), nil
		} else if err != nil {
			return st, err
		}
		return ix.reconcileLocked(ctx, scopes, all, progress)
	}
	p := Progress{FilesTotal: len(d.changed), BytesTotal: d.total}
	built, err := ix.write(ctx, &st, d.gone, d.changed, l.folders, &p, progress)
	if err != nil {
		return st, err
	}
	if err := ix.installBuilt(built); err != nil {
		return st, err
	}
	if l.folders != nil {
		ix.folders = *l.folders
	}
	if progress != nil && len(d.changed) > 0 {
		p.Path = ""
		progress(p)
	}
	return ix.finalStats(st), nil
}

// scopeListing is what listScopes found: the files of the scopes, the
// folders that could not be read (as key prefixes), the keys of the files
// taken as unchanged without a stat (present), and, for a sync of
// everything, the vault folders' records made anew.
type scopeListing struct {
	files      []fileRef
	unreadable []string
	present    map[string]bool
	folders    *folderRecords
}

// listScopes lists the files of the scopes. A sync of everything (all)
// lists the vault by its folders' mtimes (folders.go) and records them
// anew. Files listed are counted in st when found unchanged by their
// folder; problems go to st.Problems.
func (ix *Index) listScopes(st *Stats, scopes []scope, all bool, now time.Time) (scopeListing, error) {
	l := scopeListing{present: make(map[string]bool, len(ix.man))}
	if all {
		l.folders = &folderRecords{CheckedAt: ix.folders.CheckedAt, Flags: ix.opt.includeFlags(), MTime: map[string]int64{}}
	}
	full := true // every vault listed in full: the full check
	for _, s := range scopes {
		if l.folders != nil && s.root.Kind == VaultRoot && s.prefix == "" {
			if quick, same, ok := ix.quickList(s.root, now, l.folders.MTime); ok {
				l.files = append(l.files, quick.files...)
				for _, k := range same {
					l.present[k] = true
				}
				st.Unchanged += len(same)
				full = false
				continue
			}
		}
		var into map[string]int64
		if l.folders != nil && s.root.Kind == VaultRoot {
			into = l.folders.MTime
		}
		found, err := ix.opt.list(s.root, s.prefix, into, now)
		if err != nil {
			return l, fmt.Errorf("cannot list %s: %w", s.root.Dir, err)
		}
		l.files = append(l.files, found.files...)
		l.unreadable = append(l.unreadable, found.unreadable...)
		st.Problems = append(st.Problems, found.problems...)
	}
	if l.folders != nil && full {
		l.folders.CheckedAt = now.UnixNano()
	}
	return l, nil
}

// changes are what a run writes: the files whose size or mtime changed
// (total bytes), and the keys of the files gone.
type changes struct {
	changed []fileRef
	total   int64
	gone    []string
}

// differences compares the listing with the manifest. A file is gone when
// a scope holds it (or, with all, its root is no longer the index's) and
// the listing did not find it, unless it is under a folder that could not
// be read.
func (ix *Index) differences(st *Stats, l scopeListing, scopes []scope, all bool) changes {
	var d changes
	for _, f := range l.files {
		k := f.key()
		if l.present[k] {
			continue
		}
		l.present[k] = true
		if old := ix.man[k]; old != nil && old.Size == f.size && old.MTime == f.mtime {
			st.Unchanged++
			continue
		}
		d.changed = append(d.changed, f)
		d.total += f.size
	}
	for key := range ix.man {
		if l.present[key] || slices.ContainsFunc(l.unreadable, func(p string) bool { return strings.HasPrefix(key, p) }) {
			continue
		}
		root, _, _ := strings.Cut(key, ":")
		_, known := ix.roots[root]
		if slices.ContainsFunc(scopes, func(s scope) bool { return s.holds(key) }) || (all && !known) {
			d.gone = append(d.gone, key)
		}
	}
	return d
}

// installBuilt puts the store a full build made in place (built is ""
// after a run through the online index) and reads its manifest.
func (ix *Index) installBuilt(built string) error {
	if built == "" {
		return nil
	}
	if err := ix.install(built); err != nil {
		return err
	}
	// The manifest read back from the store just built.
	if err := ix.loadManifest(); err != nil {
		ix.damaged = true
		return fmt.Errorf("cannot open the search index just built in %s: %w", ix.opt.Dir, err)
	}
	ix.removeOtherManifests()
	return nil
}

// finalStats completes a run's figures with what the index holds.
func (ix *Index) finalStats(st Stats) Stats {
	st.Files = len(ix.man)
	ix.idxMu.RLock()
	defer ix.idxMu.RUnlock()
	if ix.idx != nil {
		st.Docs, _ = ix.idx.DocCount()
	}
	return st
}

// write removes the gone files' documents and indexes the changed files,
// through the online index, or for a full build (an empty index) through
// the offline builder: then built is the folder of the store it made, for
// install. Called with mu held.
func (ix *Index) write(ctx context.Context, st *Stats, gone []string, changed []fileRef, folders *folderRecords, p *Progress, progress ProgressFunc) (built string, err error) {
	ix.idxMu.RLock()
	defer ix.idxMu.RUnlock()
	if ix.idx == nil {
		return "", bleve.ErrorIndexClosed
	}
	w := ix.newWriter(st)
	w.ctx = ctx
	defer func() {
		if r := recover(); r != nil {
			w.abandon()
			built, err = "", ix.damagedBy(r)
		}
	}()
	if ix.fullBuild(gone, changed) {
		if w.build, err = ix.startBuild(); err != nil {
			return "", err
		}
	}
	if err := w.apply(ctx, gone, changed, p, progress); err != nil {
		return "", err
	}
	if folders != nil {
		if len(st.Problems) > 0 {
			*folders = folderRecords{} // as in reconcileLocked: a file could not be read
		}
		if !folders.equal(ix.folders) {
			w.folders = folders
			w.dirty = true
		}
	}
	if err := w.finish(); err != nil {
		return "", err
	}
	if w.build != nil {
		return w.build.dir, nil
	}
	if w.worthCompacting() {
		if err := w.compact(ctx); err != nil {
			return "", err
		}
	}
	return "", nil
}

// apply removes the gone files' documents and indexes the changed files,
// committing batches as they fill; a failure ends the run (w.fail).
func (w *writer) apply(ctx context.Context, gone []string, changed []fileRef, p *Progress, progress ProgressFunc) error {
	for _, key := range gone {
		if err := w.remove(key); err != nil {
			return w.fail(err)
		}
	}
	for _, f := range changed {
		if err := ctx.Err(); err != nil {
			return w.fail(err)
		}
		if progress != nil {
			p.Path = f.path()
			progress(*p)
		}
		if err := w.index(f); err != nil {
			return w.fail(err)
		}
		p.Files++
		p.Bytes += f.size
		if w.pending >= batchBytes {
			if err := w.commit(false); err != nil {
				return err
			}
		}
	}
	return nil
}

// abandon ends a run the search library panicked in: a full build is
// dropped, the batches in the background are waited for, the stores
// closed.
func (w *writer) abandon() {
	if w.build != nil {
		w.build.abort()
		w.build = nil
	}
	w.inflight.Wait()
	w.closeStores()
}

// writer accumulates one batch of changes.
type writer struct {
	// ctx ends the run: checked between files and between the lines of
	// one (a transcript reaches hundreds of MB).
	ctx     context.Context
	ix      *Index
	st      *Stats
	b       *bleve.Batch
	pending int  // bytes of section text in b
	dirty   bool // the manifest changed since the last commit
	// persisted is told when the last committed batch is on disk (and so
	// every batch before it).
	persisted chan error
	// marked: the manifest in the index says a run is in progress.
	marked bool
	// folders, when set, are written with the manifest by the last batch.
	folders *folderRecords
	// inflight counts batches running in the background; failed holds
	// the first error of one.
	inflight sync.WaitGroup
	failed   atomic.Pointer[error]
	// stores are the SQLite-era stores opened during this run.
	stores map[string]*agentdb.DB
	// build, when set, takes the documents of a full build instead of b.
	build *offlineBuild
	// manID is the manifest file the last batch names.
	manID string
	// batches counts the batches committed, written the bytes of section
	// text in them.
	batches int
	written int64
}

// compactAfterBatches: a run that committed this many batches (512 KiB
// of text and more) and wrote at least a quarter of the index's text (a
// large part of a build: a full one goes through the offline builder,
// build.go, and ends as one segment) merges the index into one segment
// afterwards (see worthCompacting).
const compactAfterBatches = 8

// worthCompacting says whether the run just finished leaves segments worth
// merging. A build of the scale-100 vault through the online index left
// 14-20 segments, and
// every search process opens, maps, searches and unmaps each one: merged,
// a warm search takes less CPU. Merging rewrites the whole index, so only
// a run that wrote a good part of it pays for that (about a second after a
// build of 10-15 CPU-seconds at scale 100); smaller runs leave merging to
// scorch's own merger.
func (w *writer) worthCompacting() bool {
	if w.batches < w.ix.compactAfter {
		return false
	}
	var indexed int64
	for _, f := range w.ix.man {
		indexed += f.Indexed
	}
	return w.written*4 >= indexed
}

// singleSegment is scorch's single-segment merge plan, merging every
// segment in one task (its own merges at most ten at a time, so that a
// forced merge of 14 segments left 2).
var singleSegment = func() mergeplan.MergePlanOptions {
	o := mergeplan.SingleSegmentMergePlanOptions
	o.SegmentsPerMergeTask = 1 << 20
	return o
}()

// rootSegments is how many segments the index's current snapshot has.
func rootSegments(s *scorch.Scorch) uint64 {
	st, ok := s.Stats().(*scorch.Stats)
	if !ok {
		return 0
	}
	return atomic.LoadUint64(&st.TotFileSegmentsAtRoot) + atomic.LoadUint64(&st.TotMemorySegmentsAtRoot)
}

// compact merges the index into one segment and waits until the index on
// disk names it: scorch's persister writes the merged root in the
// background, and a batch (the schema stamp written again) that is on
// disk comes after it.
func (w *writer) compact(ctx context.Context) error {
	adv, err := w.ix.idx.Advanced()
	if err != nil {
		return nil
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	// A segment written just before may still be on its way into the
	// root as a file (a forced merge takes only those): a few rounds.
	for range 4 {
		if rootSegments(s) <= 1 {
			break
		}
		if err := s.ForceMerge(ctx, &singleSegment); err != nil {
			// The index is whole without it; the next large run tries again.
			return nil
		}
	}
	b := w.ix.idx.NewBatch()
	b.SetInternal(keySchema, []byte(schemaStamp(w.ix.m)))
	persisted := make(chan error, 1)
	b.SetPersistedCallback(func(err error) { persisted <- err })
	if err := w.ix.idx.Batch(b); err != nil {
		return fmt.Errorf("cannot update the search index: %w", err)
	}
	w.persisted = persisted
	return w.wait()
}

func (ix *Index) newWriter(st *Stats) *writer {
	return &writer{ix: ix, st: st, b: ix.idx.NewBatch()}
}

// docID is key#L<line>, the line zero-padded to seven digits so that ids
// sort as (file, line): hits of a filter-only query are listed so.
func docID(key string, line int32) string {
	n := strconv.Itoa(int(line))
	return key + "#L" + strings.Repeat("0", max(0, 7-len(n))) + n
}

// parseDocID splits key#L<line>.
func parseDocID(id string) (key string, line int, ok bool) {
	i := strings.LastIndex(id, "#L")
	if i < 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(id[i+2:])
	return id[:i], line, err == nil && line > 0
}

func (w *writer) remove(key string) error {
	old, err := w.old(key)
	if old != nil {
		for _, d := range old.Docs {
			w.b.Delete(docID(key, d.Line))
		}
		delete(w.ix.man, key)
		w.dirty = true
		w.st.Removed++
	}
	return err
}

// old is the manifest's record of a file with its documents decoded, nil
// for a file not indexed. A record that does not decode fails the run and
// the next one rebuilds the index.
func (w *writer) old(key string) (*fileState, error) {
	f := w.ix.man[key]
	if f == nil {
		return nil, nil
	}
	if _, err := f.docList(); err != nil {
		w.ix.damaged = true
		return nil, fmt.Errorf("cannot update the search index (it will be rebuilt): %s: %w", key, err)
	}
	return f, nil
}

// index reads one file and replaces its documents. A file that vanished
// since it was listed loses its documents; one that cannot be read keeps
// them and is reported.
func (w *writer) index(f fileRef) error {
	var err error
	switch f.root.Kind {
	case SessionsRoot:
		err = w.indexTranscript(f)
	case SQLiteRoot:
		err = w.indexSQLite(f)
	default:
		err = w.indexMarkdown(f)
	}
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return w.remove(f.key())
	case errors.As(err, &pathErr):
		w.st.Problems = append(w.st.Problems, err.Error())
		return nil
	}
	return err
}

// touched records that a file's content is what was indexed: only its
// size and mtime are new.
func (w *writer) touched(old *fileState, size, mtime int64) {
	old.Size, old.MTime, old.enc = size, mtime, nil
	w.dirty = true
	w.st.Touched++
}

// add indexes one section of a file, committing the batch when it is full
// (a long transcript is many batches).
func (w *writer) add(f fileRef, s Section, terms string) error {
	s = cutLongLines(s)
	for _, c := range s.cuts {
		w.st.Problems = append(w.st.Problems, fmt.Sprintf("%s: the line is %d bytes; only its first %d are searched", w.place(f, s, c.index), c.bytes, maxLineBytes))
	}
	d := w.ix.an.newDocument(docID(f.key(), int32(s.Line)), f, s, terms)
	if w.build != nil {
		w.build.add(d)
	} else if err := w.b.IndexAdvanced(d); err != nil {
		return err
	}
	w.pending += len(s.Text)
	w.written += int64(len(s.Text))
	w.st.Sections++
	if w.pending >= batchBytes {
		return w.commit(false)
	}
	return nil
}

// place names line index of section s of a file in a problem: path:line,
// or for a SQLite-era session its store and the event's seq.
func (w *writer) place(f fileRef, s Section, index int) string {
	switch {
	case f.root.Kind == SQLiteRoot:
		return fmt.Sprintf("%s seq %d", f.root.Store, s.Line-1)
	case s.Kind == Message:
		return fmt.Sprintf("%s:%d", f.path(), s.Line)
	}
	return fmt.Sprintf("%s:%d", f.path(), s.Line+index)
}

// dropGone deletes a file's old documents on whose line no new one
// starts; the others stay, or are replaced by indexing their id again
// (see commit).
func (w *writer) dropGone(key string, was, now []docRef) {
	lines := make(map[int32]bool, len(now))
	for _, d := range now {
		lines[d.Line] = true
	}
	for _, d := range was {
		if !lines[d.Line] {
			w.b.Delete(docID(key, d.Line))
		}
	}
}

// indexMarkdown reads and splits a Markdown file. Of its new sections,
// those an old document already is (same line, same text and heading)
// stay as they are: an appended line, or a line edited in place,
// re-indexes one document, not the file.
func (w *writer) indexMarkdown(f fileRef) error {
	key := f.key()
	data, err := readFile(f.path(), f.size)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	state := &fileState{Size: int64(len(data)), MTime: f.mtime, Indexed: int64(len(data)), Docs: []docRef{}}
	copy(state.Hash[:], sum[:])
	w.st.Bytes += state.Indexed
	old, err := w.old(key)
	if err != nil {
		return err
	}
	if old != nil && old.Hash == state.Hash && old.Indexed == state.Indexed {
		w.touched(old, state.Size, state.MTime)
		return nil
	}
	var was []docRef
	if old != nil {
		was = old.Docs
	}
	indexed := make(map[docRef]bool, len(was))
	for _, d := range was {
		indexed[d] = true
	}
	var fresh []Section
	for _, s := range SplitMarkdown(data) {
		d := docRef{int32(s.Line), sectionSum(s)}
		if !indexed[d] {
			fresh = append(fresh, s)
		}
		state.Docs = append(state.Docs, d)
	}
	w.dropGone(key, was, state.Docs)
	w.ix.man[key] = state
	w.dirty = true
	w.st.Indexed++
	terms := pathTerms(f.rel)
	for _, s := range fresh {
		if err := w.add(f, s, terms); err != nil {
			return err
		}
	}
	return nil
}

// cancelled is the run's context error, if it ended.
func (w *writer) cancelled() error {
	if w.ctx == nil {
		return nil
	}
	return w.ctx.Err()
}

// context is the run's context, for the calls that take one.
func (w *writer) context() context.Context {
	if w.ctx == nil {
		return context.Background()
	}
	return w.ctx
}

// indexTranscript indexes the complete lines of a transcript, streaming
// (they reach hundreds of MB). When the file only grew since it was
// indexed (the indexed bytes hash the same), only the new lines are read;
// otherwise its documents are replaced.
func (w *writer) indexTranscript(f fileRef) error {
	key := f.key()
	file, err := regfile.Open(f.path()) // a FIFO swapped in since the listing never blocks
	if err != nil {
		return err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return err
	}
	state := &fileState{Size: fi.Size(), MTime: fi.ModTime().UnixNano(), Docs: []docRef{}}
	old, err := w.old(key)
	if err != nil {
		return err
	}
	h := sha256.New()
	from, line, err := w.indexedPrefix(file, old, state, h)
	if err != nil {
		return err
	}
	if err := w.indexLines(f, file, from, line, state, h); err != nil {
		return err
	}
	w.st.Bytes += state.Indexed - from
	copy(state.Hash[:], h.Sum(nil))
	w.record(key, old, state, from)
	return nil
}

// indexedPrefix hashes the part of a transcript indexed before, into h,
// and counts its lines, in one read. When it is what was indexed (the
// file only grew), the new lines start at from (line), and state keeps
// the old documents; otherwise from is 0, line 1 and h is reset.
func (w *writer) indexedPrefix(file *os.File, old, state *fileState, h hash.Hash) (from int64, line int, err error) {
	if old == nil || old.Indexed > state.Size {
		return 0, 1, nil
	}
	lines := 0
	err = transcript.ForEachLine(file, 0, old.Indexed, w.maxLine(), func(l transcript.Line) bool {
		hashLine(h, l)
		if l.Terminated {
			h.Write([]byte{'\n'})
			lines++
		}
		return true
	})
	if err != nil {
		return 0, 0, err
	}
	var sum [16]byte
	copy(sum[:], h.Sum(nil))
	if sum != old.Hash {
		h.Reset()
		return 0, 1, nil
	}
	state.Docs = slices.Clone(old.Docs)
	w.st.Bytes += old.Indexed
	return old.Indexed, 1 + lines, nil
}

// indexLines indexes a transcript's complete lines from the byte offset
// from (line number line) on, hashing them into h; a torn last line waits
// until it is complete. state.Indexed ends after the last line read.
func (w *writer) indexLines(f fileRef, file *os.File, from int64, line int, state *fileState, h hash.Hash) error {
	terms := pathTerms(f.rel)
	state.Indexed = from
	var addErr error
	err := transcript.ForEachLine(file, from, state.Size, w.maxLine(), func(l transcript.Line) bool {
		if !l.Terminated {
			return false
		}
		if addErr = w.cancelled(); addErr != nil {
			return false
		}
		hashLine(h, l)
		h.Write([]byte{'\n'})
		if l.TooLong {
			w.st.Problems = append(w.st.Problems, fmt.Sprintf("%s:%d: the line is %d bytes, longer than the %d-byte cap (max_line_mb); it is not searched", f.path(), line, l.Len, w.maxLine()))
		}
		for _, s := range SplitTranscript(l.Bytes, line, int(l.Offset)) {
			state.Docs = append(state.Docs, docRef{int32(s.Line), sectionSum(s)})
			if addErr = w.add(f, s, terms); addErr != nil {
				return false
			}
		}
		state.Indexed = l.Offset + l.Len + 1
		line++
		return true
	})
	return errors.Join(err, addErr)
}

// record puts the new state of a transcript (a file, or a SQLite-era
// session) in the manifest, indexed from from on: a rewritten one
// (from 0) loses the documents that are gone, one that only grew counts
// as appended, and one in which nothing new was complete as touched.
func (w *writer) record(key string, old, state *fileState, from int64) {
	if from == 0 && old != nil {
		w.dropGone(key, old.Docs, state.Docs) // rewritten
	}
	switch {
	case from > 0 && state.Indexed == from:
		w.touched(old, state.Size, state.MTime)
		return
	case from > 0:
		w.st.Appended++
	}
	w.ix.man[key] = state
	w.dirty = true
	w.st.Indexed++
}

// hashLine hashes a line for the manifest; a line over the cap is read
// through, not kept, so its length stands for it.
func hashLine(h hash.Hash, l transcript.Line) {
	if l.TooLong {
		fmt.Fprintf(h, "\x00too long: %d bytes\x00", l.Len)
		return
	}
	h.Write(l.Bytes)
}

// maxLine is the longest transcript line the index decodes.
func (w *writer) maxLine() int64 {
	if w.ix.opt.MaxLineBytes > 0 {
		return w.ix.opt.MaxLineBytes
	}
	return transcript.DefaultMaxLineBytes
}

// commit applies the batch. The last batch of a run carries the manifest;
// the first of several carries a marker in its place instead, so that an
// index left behind in between (a crash, a kill) is rebuilt on its next
// open rather than trusted: on disk, the manifest either matches the
// documents or says it does not. (Writing the whole manifest with every
// batch cost a fifth of a full build.)
//
// The batches in between run in the background, one at a time, while the
// next is read and prepared: bleve builds a batch's segment on one core,
// and the analysis of the next can use the other. They commute, because
// a run touches every document id once (a changed section is replaced by
// indexing its id again, never deleted and added), so the order bleve
// introduces them in does not matter; the marker goes first and alone,
// and the last batch only once all the others are in.
func (w *writer) commit(last bool) error {
	if w.build != nil {
		w.pending = 0 // the builder cuts its own segments
		return nil
	}
	if !w.dirty && w.b.Size() == 0 {
		return nil
	}
	b := w.b
	w.b = w.ix.idx.NewBatch()
	w.pending, w.dirty = 0, false
	w.batches++
	background := !last && w.marked
	switch {
	case last:
		w.inflight.Wait()
		if err := w.backgroundErr(); err != nil {
			return err
		}
		ref, id, err := w.ix.saveManifest(w.ix.man.encode())
		if err != nil {
			return err
		}
		w.manID = id
		b.SetInternal(keyManifest, ref)
		if w.folders != nil {
			b.SetInternal(keyFolders, w.folders.encode())
		}
	case !w.marked:
		b.SetInternal(keyManifest, []byte(manifestInProgress))
		w.marked = true
	}
	persisted := make(chan error, 1)
	b.SetPersistedCallback(func(err error) {
		select {
		case persisted <- err:
		default:
		}
	})
	if background {
		w.inflight.Wait() // one in the background at a time
		if err := w.backgroundErr(); err != nil {
			return err
		}
		w.inflight.Add(1)
		go func() {
			defer w.inflight.Done()
			defer func() {
				if r := recover(); r != nil {
					err := w.ix.damagedBy(r)
					w.failed.Store(&err)
				}
			}()
			if err := w.ix.idx.Batch(b); err != nil {
				w.failed.Store(&err)
			}
		}()
		return nil
	}
	if err := w.ix.idx.Batch(b); err != nil {
		w.ix.damaged = true
		return fmt.Errorf("cannot update the search index (it will be rebuilt): %w", err)
	}
	w.persisted = persisted
	return nil
}

// backgroundErr is the error of a batch that ran in the background.
func (w *writer) backgroundErr() error {
	if err := w.failed.Load(); err != nil {
		w.ix.damaged = true
		return fmt.Errorf("cannot update the search index (it will be rebuilt): %w", *err)
	}
	return nil
}

// finish commits what is pending, with the manifest, and waits until it
// is on disk.
func (w *writer) finish() error {
	defer w.closeStores()
	if w.build != nil {
		ref, _, err := w.ix.saveManifest(w.ix.man.encode())
		if err != nil {
			w.build.abort()
			w.ix.man = manifest{}
			return err
		}
		// The store built names the file; install opens it, and the
		// others go once it is in place (reconcileLocked).
		internal := map[string][]byte{string(keyManifest): ref}
		if w.folders != nil {
			internal[string(keyFolders)] = w.folders.encode()
		}
		if err := w.build.finish(internal); err != nil {
			w.ix.man = manifest{}
			return err
		}
		return nil
	}
	if w.marked {
		w.dirty = true // the marker must be replaced
	}
	if err := w.commit(true); err != nil {
		return errors.Join(err, w.wait())
	}
	if err := w.wait(); err != nil {
		return err
	}
	if w.manID != "" {
		// The index on disk names the new file: the others go.
		w.ix.manID = w.manID
		w.ix.removeOtherManifests()
	}
	return nil
}

// fail ends a run that failed with err: what was committed is finished
// with the manifest; a full build is dropped, leaving the index empty.
func (w *writer) fail(err error) error {
	if w.build != nil {
		w.closeStores()
		w.build.abort()
		w.ix.man = manifest{}
		return err
	}
	return errors.Join(err, w.finish())
}

// wait returns once everything committed is on disk, or scorch reports
// that writing it failed.
func (w *writer) wait() error {
	w.inflight.Wait()
	if w.persisted == nil {
		return nil
	}
	select {
	case err := <-w.persisted:
		if err != nil {
			return fmt.Errorf("cannot write the search index to disk: %w", err)
		}
		return nil
	case err := <-w.ix.asyncErr:
		return fmt.Errorf("cannot write the search index to disk: %w", err)
	}
}
