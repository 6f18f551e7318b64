package search

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blevesearch/mmap-go"

	"clawvault-tui/store"
	"clawvault-tui/store/regfile"
)

// The manifest is kept in a file beside the index's store, named by a
// random id, and the index holds a reference to it (manifestRefMagic and
// the id) where it held the manifest itself. scorch copies every internal
// value of the index into memory when it opens it: the 1.8 MB manifest at
// scale 100 was, with the page faults of the copy, a tenth of a warm
// search's CPU. The file is mapped instead, and a quiet sync scans it in
// place (quickSync): only the pages read are touched, from the page cache.
//
// The reference is written in the batch with the documents, as the
// manifest was, so the two still never disagree: the file is written
// (and synced) under a new id before the batch names it, and the other
// manifest files are removed only once that batch is on disk. A crash in
// between leaves the old reference with its file, and a stray new file
// that the next write removes. An index that names a file that is not
// there, or not whole, is rebuilt, as one with a damaged manifest is.
// No reader has the index open while a writer does (bolt's lock), so no
// reader's file is removed under it.
//
// An index that holds its manifest inline (written by an earlier
// version) is read as it is, and takes the file form at its next write.
const manifestRefMagic = "CVTR\x01"

// manifestFilePrefix starts the name of a manifest file in opt.Dir.
const manifestFilePrefix = "manifest-"

func (ix *Index) manifestPath(id string) string {
	return filepath.Join(ix.opt.Dir, manifestFilePrefix+id)
}

// saveManifest writes the encoded manifest to a new file and returns the
// reference to store in the index, and the file's id.
func (ix *Index) saveManifest(encoded []byte) (ref []byte, id string, err error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, "", err
	}
	id = hex.EncodeToString(b[:])
	if err := store.WriteFileAtomic(store.OSWriter, ix.manifestPath(id), encoded, 0o600); err != nil {
		return nil, "", fmt.Errorf("cannot write the search index's manifest: %w", err)
	}
	return append([]byte(manifestRefMagic), id...), id, nil
}

var errManifestRef = errors.New("the search index's manifest reference is damaged")

// openManifest returns the manifest an index's internal value holds:
// itself (inline), or, for a reference, its file mapped read-only (m, to
// unmap once done with). id is the file's, "" for an inline manifest.
func (ix *Index) openManifest(value []byte) (raw []byte, m mmap.MMap, id string, err error) {
	ref, isRef := bytes.CutPrefix(value, []byte(manifestRefMagic))
	if !isRef {
		return value, nil, "", nil
	}
	id = string(ref)
	if _, err := hex.DecodeString(id); err != nil || len(id) != 32 {
		return nil, nil, "", errManifestRef
	}
	f, err := regfile.Open(ix.manifestPath(id))
	if err != nil {
		return nil, nil, "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() < int64(len(manifestMagic)) {
		return nil, nil, "", errManifest
	}
	m, err = mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, nil, "", err
	}
	return m, m, id, nil
}

// removeOtherManifests removes the manifest files but the one the index
// names now (see the top of this file). Called with mu held, once what
// names it is on disk.
func (ix *Index) removeOtherManifests() {
	entries, err := os.ReadDir(ix.opt.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if id, ok := strings.CutPrefix(e.Name(), manifestFilePrefix); ok && id != ix.manID {
			os.Remove(filepath.Join(ix.opt.Dir, e.Name()))
		}
	}
}
