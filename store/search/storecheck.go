package search

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"clawvault-tui/store"
	"clawvault-tui/store/regfile"
)

// Before bleve opens an index, its files are looked at (checkStore):
// bleve opens index_meta.json, the store's root.bolt and every segment
// with a blocking open, so a FIFO in their place would hang the search (a
// link would lead outside the folder); and zap trusts a segment's bytes,
// so a truncated, zeroed or bit-flipped one panicked on open or on a
// query, in goroutines of bleve's own where no recover reaches.
//
// Each segment ends with the CRC-32 of everything before it, which zap
// writes and never reads. Reading a whole index to check them costs what
// a warm search costs, so a segment is checked once per version of its
// file: the identity of those checked is kept beside the index
// (checked-segments). Segment files are written once and never changed;
// a file changed in any way gets a new identity (size, modification and
// change times, inode), and is checked again.

// checkedSegmentsFile lists the segments whose checksums were checked.
const checkedSegmentsFile = "checked-segments"

// zapFooterCRC is the size of a segment's checksum, its last bytes.
const zapFooterCRC = 4

// checkStore returns why the index's files cannot be handed to bleve
// ("" when they can): one that is not a regular file, a segment whose
// checksum does not match. A folder with no index at all is fine (there
// is nothing to open).
func (ix *Index) checkStore() (reason string) {
	meta := filepath.Join(ix.opt.Dir, "index_meta.json")
	if fi, err := os.Lstat(meta); errors.Is(err, fs.ErrNotExist) {
		return ""
	} else if reason := notRegular(meta, fi, err); reason != "" {
		return reason
	}
	entries, err := os.ReadDir(ix.storePath())
	if err != nil {
		return err.Error()
	}
	checked := ix.readCheckedSegments()
	now := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if name != "root.bolt" && !strings.HasSuffix(name, ".zap") {
			continue
		}
		path := filepath.Join(ix.storePath(), name)
		fi, err := e.Info()
		if reason := notRegular(path, fi, err); reason != "" {
			return reason
		}
		if name == "root.bolt" {
			continue
		}
		id := segmentIdentity(fi)
		if checked[name] != id {
			if reason := checkSegment(path); reason != "" {
				return reason
			}
		}
		now[name] = id
	}
	if !maps.Equal(checked, now) {
		ix.writeCheckedSegments(now)
	}
	return ""
}

// notRegular says why a file of the index is not one bleve may open.
func notRegular(path string, fi fs.FileInfo, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case !fi.Mode().IsRegular():
		return regfile.Check(path, fi).Error()
	}
	return ""
}

// checkSegment compares a segment's checksum with its bytes.
func checkSegment(path string) string {
	f, err := regfile.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err.Error()
	}
	if fi.Size() < zapFooterCRC {
		return fmt.Sprintf("the segment %s is %d bytes, too short to be one", filepath.Base(path), fi.Size())
	}
	h := crc32.NewIEEE()
	if _, err := io.CopyBuffer(h, io.NewSectionReader(f, 0, fi.Size()-zapFooterCRC), make([]byte, 256<<10)); err != nil {
		return err.Error()
	}
	var stored [zapFooterCRC]byte
	if _, err := f.ReadAt(stored[:], fi.Size()-zapFooterCRC); err != nil {
		return err.Error()
	}
	if got := binary.BigEndian.Uint32(stored[:]); got != h.Sum32() {
		return fmt.Sprintf("the segment %s fails its checksum", filepath.Base(path))
	}
	return ""
}

// segmentIdentity is what tells one version of a segment file from
// another: its size, modification and change times and inode (the last
// two where the system has them).
func segmentIdentity(fi fs.FileInfo) string {
	ctime, ino := changeTimeAndInode(fi)
	return fmt.Sprintf("%d %d %d %d", fi.Size(), fi.ModTime().UnixNano(), ctime, ino)
}

// readCheckedSegments reads the checked segments' identities by name; a
// list that cannot be read is empty (every segment is checked again).
func (ix *Index) readCheckedSegments() map[string]string {
	checked := map[string]string{}
	data, err := regfile.ReadFileLimit(filepath.Join(ix.opt.Dir, checkedSegmentsFile), 1<<20)
	if err != nil {
		return checked
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if name, id, ok := strings.Cut(sc.Text(), " "); ok && strings.HasSuffix(name, ".zap") {
			checked[name] = id
		}
	}
	return checked
}

// writeCheckedSegments records the segments found whole. A failure only
// means they are checked again next time.
func (ix *Index) writeCheckedSegments(checked map[string]string) {
	var b []byte
	for name, id := range checked {
		b = append(append(append(append(b, name...), ' '), id...), '\n')
	}
	_ = store.WriteFileAtomic(store.OSWriter, filepath.Join(ix.opt.Dir, checkedSegmentsFile), b, 0o600)
}
