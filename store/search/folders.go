package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// A warm search must not stat every file of the vault (9,000 files at
// scale 100, most of a query's time): a sync trusts the modification time
// of each vault folder instead. A folder's mtime changes when a file in it
// is created, removed or renamed over (an atomic save, ours and most
// editors'), so a folder whose mtime is what it was at the last sync has
// the same files; they are taken as unchanged without a stat. Two kinds of
// change leave the folder's mtime alone, and are looked for apart:
//
//   - A file written in place (ClawVault appends observations to the
//     day's ledger file): files modified within hotWindow before the sync
//     are still stat'ed, every time.
//   - Anything else written in place (an old file rewritten by a tool
//     that does not rename): seen by the full check, every file stat'ed,
//     that a sync runs when the last one is fullCheckEvery old; at once
//     by the TUI's watcher, or search --reindex.
//
// The records are written with the manifest, in its batch, so they are
// never newer than it; a record older than the manifest only makes the
// next sync read a folder again.
const (
	hotWindow      = 24 * time.Hour
	fullCheckEvery = time.Hour
	// mtimeSlack: a folder modified this close to the moment it was
	// looked at is read again next time (a file system with coarse mtimes
	// could hide a second change in the same tick).
	mtimeSlack = 2 * time.Second
)

// folderRecords are the vault folders' mtimes at the last sync.
type folderRecords struct {
	// CheckedAt is when every file was last stat'ed (UnixNano).
	CheckedAt int64
	// Flags are the include options the folders were listed with.
	Flags byte
	// MTime maps a folder key (root id + ":" + slash-separated relative
	// path, "" for the root itself) to its mtime in UnixNano; 0 means
	// read it again.
	MTime map[string]int64
}

var keyFolders = []byte("clawvault-tui/folders")

const foldersMagic = "CVTF\x01"

func (o *Options) includeFlags() byte {
	var f byte
	if o.IncludeTemplates {
		f |= 1
	}
	if o.IncludeArchive {
		f |= 2
	}
	return f
}

func (r folderRecords) encode() []byte {
	b := []byte(foldersMagic)
	b = binary.AppendVarint(b, r.CheckedAt)
	b = append(b, r.Flags)
	b = binary.AppendUvarint(b, uint64(len(r.MTime)))
	for k, t := range r.MTime {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendVarint(b, t)
	}
	return b
}

var errFolders = errors.New("the search index's folder records are damaged")

// decodeFolders reads what encode wrote; anything else is an error (the
// next sync then stats every file).
func decodeFolders(b []byte) (folderRecords, error) {
	rest, ok := bytes.CutPrefix(b, []byte(foldersMagic))
	if !ok {
		return folderRecords{}, errFolders
	}
	r := reader{b: rest}
	rec := folderRecords{CheckedAt: r.varint()}
	if flags := r.bytes(1); r.err == nil {
		rec.Flags = flags[0]
	}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return folderRecords{}, errFolders
	}
	rec.MTime = make(map[string]int64, n)
	for range n {
		k := string(r.bytes(r.uvarint()))
		t := r.varint()
		if r.err != nil {
			return folderRecords{}, errFolders
		}
		rec.MTime[k] = t
	}
	if len(r.b) != 0 {
		return folderRecords{}, errFolders
	}
	return rec, nil
}

// folderKey is the record key of a vault folder.
func folderKey(root *Root, rel string) string { return root.ID + ":" + rel }

// recordFolder notes a folder's mtime as seen before it was read.
func recordFolder(into map[string]int64, root *Root, rel string, mtime time.Time, now time.Time) {
	t := mtime.UnixNano()
	if now.Sub(mtime) < mtimeSlack {
		t = 0
	}
	into[folderKey(root, rel)] = t
}

// quickList lists a vault root by its folder records (see the top of this
// file): it reads only the folders whose mtime changed and stats only
// their files and the hot ones. same are the keys of files taken as
// unchanged without a stat. ok is false when the records cannot be
// trusted (none yet, other include options, a folder that cannot be
// read, the full check is due): the caller lists the root in full.
func (ix *Index) quickList(root *Root, now time.Time, into map[string]int64) (l listing, same []string, ok bool) {
	if !ix.foldersTrusted(now) {
		return listing{}, nil, false
	}
	prefix := root.ID + ":"
	if _, known := ix.folders.MTime[prefix]; !known {
		return listing{}, nil, false
	}
	q := &quickLister{ix: ix, root: root, prefix: prefix, now: now, into: into,
		subfolders: ix.recordedSubfolders(prefix), files: ix.indexedFilesByFolder(prefix),
		hotSince: now.Add(-hotWindow).UnixNano()}
	if !q.walk("") {
		return listing{}, nil, false
	}
	return q.l, q.same, true
}

// recordedSubfolders are the folders of a root the last sync saw, by
// parent folder ("" for the root).
func (ix *Index) recordedSubfolders(prefix string) map[string][]string {
	subfolders := map[string][]string{}
	for k := range ix.folders.MTime {
		if rel, ok := strings.CutPrefix(k, prefix); ok && rel != "" {
			parent := path.Dir(rel)
			if parent == "." {
				parent = ""
			}
			subfolders[parent] = append(subfolders[parent], rel)
		}
	}
	return subfolders
}

// indexedFilesByFolder are the manifest's keys of a root's files, by the
// folder they are in.
func (ix *Index) indexedFilesByFolder(prefix string) map[string][]string {
	files := map[string][]string{}
	for k := range ix.man {
		if rel, ok := strings.CutPrefix(k, prefix); ok {
			dir := path.Dir(rel)
			if dir == "." {
				dir = ""
			}
			files[dir] = append(files[dir], k)
		}
	}
	return files
}

// quickLister walks a vault root for quickList.
type quickLister struct {
	ix         *Index
	root       *Root
	prefix     string
	now        time.Time
	into       map[string]int64 // the folders' records made anew
	subfolders map[string][]string
	files      map[string][]string
	hotSince   int64
	l          listing
	same       []string
}

func (q *quickLister) add(rel string, fi fs.FileInfo) {
	q.l.files = append(q.l.files, fileRef{root: q.root, rel: rel, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
}

// walk lists the folder rel and those under it: a folder with the mtime
// recorded by the files the manifest has in it (stat'ing the hot ones), one
// without by reading it. False when the records cannot be trusted.
func (q *quickLister) walk(rel string) bool {
	dir := filepath.Join(q.root.Dir, filepath.FromSlash(rel))
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	recordFolder(q.into, q.root, rel, fi.ModTime(), q.now)
	if t := q.ix.folders.MTime[folderKey(q.root, rel)]; t == 0 || t != fi.ModTime().UnixNano() {
		return q.read(rel, dir)
	}
	for _, k := range q.files[rel] {
		if q.ix.man[k].MTime < q.hotSince {
			q.same = append(q.same, k)
			continue
		}
		frel := strings.TrimPrefix(k, q.prefix)
		if fi, err := os.Lstat(filepath.Join(q.root.Dir, filepath.FromSlash(frel))); err == nil && fi.Mode().IsRegular() {
			q.add(frel, fi)
		} else if !errors.Is(err, fs.ErrNotExist) && err != nil {
			return false
		}
	}
	for _, sub := range q.subfolders[rel] {
		if !q.walk(sub) {
			return false
		}
	}
	return true
}

// read lists a folder whose mtime changed: its files, and its folders
// walked in turn.
func (q *quickLister) read(rel, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		erel := path.Join(rel, e.Name())
		switch {
		case e.IsDir():
			if q.ix.opt.includedDir(erel) && !q.walk(erel) {
				return false
			}
		case e.Type().IsRegular() && q.ix.opt.included(erel):
			if fi, err := e.Info(); err == nil {
				q.add(erel, fi)
			}
		}
	}
	return true
}

// foldersTrusted says whether the folder records may stand for a stat of
// every file: there are some, made with today's include options, and the
// full check is not due. (A full check in the future: the clock was set
// back.)
func (ix *Index) foldersTrusted(now time.Time) bool {
	rec := ix.folders
	since := now.Sub(time.Unix(0, rec.CheckedAt))
	return rec.MTime != nil && rec.Flags == ix.opt.includeFlags() && since < ix.fullCheckEvery && since >= 0
}

// quickSync is a sync of everything that finds nothing changed, without
// decoding the manifest: most warm searches. ok is false as soon as
// anything may have changed, and the caller then syncs as usual
// (reconcileLocked, with quickList), which finds the same files unchanged
// where this finds them so: every vault folder recorded has the mtime
// recorded (so the same files, see the top of this file), and so has its
// parent; every file of the manifest is in such a folder or in a
// workspace (or transcript) root, listed in full as usual; each of those
// listed is in the manifest with its size and mtime, and so is each hot
// vault file, stat'ed. What a sync would write (the folder records, the
// manifest) would be what the index has, so nothing is written.
// Called with mu held.
func (ix *Index) quickSync(now time.Time) (st Stats, ok bool) {
	if ix.manRaw == nil || !ix.foldersTrusted(now) {
		return Stats{}, false
	}
	vaults, ok := ix.vaultFoldersUnchanged(now)
	if !ok {
		return Stats{}, false
	}
	listed, ok := ix.listOtherRoots(now)
	if !ok {
		return Stats{}, false
	}
	n, ok := ix.manifestUnchanged(vaults, listed, now)
	if !ok {
		return Stats{}, false
	}
	st = Stats{Unchanged: int(n), Files: int(n)}
	ix.idxMu.RLock()
	defer ix.idxMu.RUnlock()
	if ix.idx != nil {
		st.Docs, _ = ix.idx.DocCount()
	}
	return st, true
}

// vaultFoldersUnchanged returns the vault roots when every folder the
// records name has its recorded mtime (not too recent to trust), its
// parent is recorded too, and every record is of one of them.
func (ix *Index) vaultFoldersUnchanged(now time.Time) (vaults []*Root, ok bool) {
	rec := ix.folders.MTime
	folders := 0
	for i := range ix.opt.Roots {
		r := &ix.opt.Roots[i]
		if r.Kind != VaultRoot {
			continue
		}
		vaults = append(vaults, r)
		prefix := r.ID + ":"
		if _, known := rec[prefix]; !known {
			return nil, false
		}
		for k, t := range rec {
			rel, mine := strings.CutPrefix(k, prefix)
			if !mine {
				continue
			}
			folders++
			if parent := parentDir(rel); rel != "" {
				if _, known := rec[prefix+parent]; !known {
					return nil, false
				}
			}
			fi, err := os.Lstat(filepath.Join(r.Dir, filepath.FromSlash(rel)))
			if err != nil || !fi.IsDir() || t == 0 || t != fi.ModTime().UnixNano() || now.Sub(fi.ModTime()) < mtimeSlack {
				return nil, false
			}
		}
	}
	if len(vaults) == 0 || folders != len(rec) {
		return nil, false // records of a root the index no longer has
	}
	return vaults, true
}

// listOtherRoots lists the roots that are not vaults in full, by key;
// false when one could not be listed whole.
func (ix *Index) listOtherRoots(now time.Time) (map[string]fileRef, bool) {
	listed := map[string]fileRef{}
	for i := range ix.opt.Roots {
		r := &ix.opt.Roots[i]
		if r.Kind == VaultRoot {
			continue
		}
		l, err := ix.opt.list(r, "", nil, now)
		if err != nil || len(l.problems) > 0 || len(l.unreadable) > 0 {
			return nil, false
		}
		for _, f := range l.files {
			listed[f.key()] = f
		}
	}
	return listed, true
}

// manifestUnchanged scans the manifest in place: every file is in an
// unchanged vault folder (and, when hot, has its size and mtime) or was
// listed with its size and mtime, and every file listed is in it. n is
// the number of files.
func (ix *Index) manifestUnchanged(vaults []*Root, listed map[string]fileRef, now time.Time) (n uint64, ok bool) {
	rec := ix.folders.MTime
	prefixes := make([][]byte, len(vaults))
	for i, r := range vaults {
		prefixes[i] = []byte(r.ID + ":")
	}
	hotSince := now.Add(-hotWindow).UnixNano()
	unchanged := func(e *manifestEntry) bool {
		for i, r := range vaults {
			rel, mine := bytes.CutPrefix(e.key, prefixes[i])
			if !mine {
				continue
			}
			// Its folder is one of those found unchanged above.
			dir := len(prefixes[i])
			if j := bytes.LastIndexByte(rel, '/'); j >= 0 {
				dir += j
			}
			if _, known := rec[string(e.key[:dir])]; !known {
				return false
			}
			if e.mtime < hotSince {
				return true
			}
			fi, err := os.Lstat(filepath.Join(r.Dir, filepath.FromSlash(string(rel))))
			return err == nil && fi.Mode().IsRegular() && fi.Size() == e.size && fi.ModTime().UnixNano() == e.mtime
		}
		f, found := listed[string(e.key)]
		return found && f.size == e.size && f.mtime == e.mtime
	}
	matched, changed := 0, false
	n, err := scanManifest(ix.manRaw, nil, func(e *manifestEntry) bool {
		if !unchanged(e) {
			changed = true
			return false
		}
		if _, found := listed[string(e.key)]; found {
			matched++
		}
		return true
	})
	return n, err == nil && !changed && matched == len(listed)
}

// parentDir is the folder a slash-separated relative path is in, "" for
// the root (path.Dir, for the clean paths of the records).
func parentDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

func (r folderRecords) equal(o folderRecords) bool {
	return r.CheckedAt == o.CheckedAt && r.Flags == o.Flags && (r.MTime == nil) == (o.MTime == nil) && maps.Equal(r.MTime, o.MTime)
}
