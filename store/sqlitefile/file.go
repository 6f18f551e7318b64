// Package sqlitefile reads rows of SQLite tables straight from the database
// file and its write-ahead log, without SQLite: the pages of a table's
// b-tree between two rowids, each row's record decoded only as far as the
// caller asks.
//
// It exists for speed. Reading a million rows through SQLite's virtual
// machine costs about a microsecond of interpreted bytecode per row and one
// system call per page; reading the same leaf pages here costs a fraction of
// that, in reads of many pages at once. It is a reader of SQLite's documented
// file format (https://www.sqlite.org/fileformat2.html) for the few things
// this program reads in bulk, not a database: no SQL, no indexes, no writes.
//
// A File is a snapshot: the database file overlaid with the frames of the
// write-ahead log up to its last committed transaction when Open read it.
// The caller keeps a read transaction open through SQLite while it reads:
// SQLite then checkpoints no frame newer than that transaction's snapshot
// into the database file, so the pages read from the file stay those of a
// snapshot at or before the File's, and those read from the log are checked
// against the log's salt as they are read (a log restarted meanwhile is an
// error, ErrChanged). What was read is a committed state of the store; the
// caller checks it is the one its SQL saw (for example by a count or the
// highest key) before it trusts it over SQL.
package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"clawvault-tui/store/regfile"
)

// ErrUnsupported is a file this reader does not read (another text
// encoding, a page size it does not know): read through SQLite instead.
var ErrUnsupported = errors.New("sqlitefile: unsupported database file")

// ErrChanged is a write-ahead log that was restarted or rewritten while it
// was read: read again, or through SQLite.
var ErrChanged = errors.New("sqlitefile: the write-ahead log changed while it was read")

// CorruptError is a page that does not hold what the format says it must.
type CorruptError struct {
	Page   uint32
	Detail string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("sqlitefile: page %d is malformed: %s", e.Page, e.Detail)
}

func corrupt(page uint32, format string, args ...any) error {
	return &CorruptError{Page: page, Detail: fmt.Sprintf(format, args...)}
}

// File is one snapshot of a SQLite database, read-only. Its methods may be
// called from several goroutines at once.
type File struct {
	db, wal  *os.File
	pageSize int
	// usable is the page size less the bytes reserved at each page's end.
	usable int
	// pages is the database's size in pages in this snapshot.
	pages uint32
	// frames maps a page to the offset of its newest committed frame in
	// the log (the frame's header; the page follows it).
	frames map[uint32]int64
	salt   [8]byte
}

const (
	headerSize    = 100
	walHeaderSize = 32
	frameHeader   = 24
)

// Open reads the header of the database at path and the committed frames
// of its write-ahead log (path + "-wal"), if it has one. It writes nothing
// and takes no lock.
func Open(path string) (*File, error) {
	db, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	f := &File{db: db}
	if err := f.readHeader(); err != nil {
		db.Close()
		return nil, err
	}
	if err := f.readLog(path + "-wal"); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.checkEncoding(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.boundPages(); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// boundPages lowers the page count of the header or of the log's last
// commit to the pages that exist: those of the file and those in the log.
// No page past both can be read either way, and the count bounds the
// work of a scan of a damaged tree whose interior pages share children:
// each interior page it reaches adds a leaf or reaches a page below, the
// leaves are at most the pages, so it reads at most maxDepth times as
// many interior pages as the count; a damaged header's count of up to
// 2^32-1 is no bound.
func (f *File) boundPages() error {
	st, err := f.db.Stat()
	if err != nil {
		return err
	}
	exist := uint32(min(st.Size()/int64(f.pageSize), math.MaxUint32))
	for p := range f.frames {
		exist = max(exist, p)
	}
	f.pages = min(f.pages, exist)
	return nil
}

// Close closes the files.
func (f *File) Close() error {
	if f.wal != nil {
		f.wal.Close()
	}
	return f.db.Close()
}

// PageSize is the size of a page in bytes.
func (f *File) PageSize() int { return f.pageSize }

func (f *File) readHeader() error {
	var h [headerSize]byte
	if _, err := f.db.ReadAt(h[:], 0); err != nil {
		if err == io.EOF {
			return corrupt(1, "the file is shorter than a database header")
		}
		return err
	}
	if string(h[:16]) != "SQLite format 3\x00" {
		return corrupt(1, "no SQLite header")
	}
	size := int(binary.BigEndian.Uint16(h[16:]))
	if size == 1 {
		size = 65536
	}
	if size < 512 || size > 65536 || size&(size-1) != 0 {
		return corrupt(1, "page size %d", size)
	}
	f.pageSize, f.usable = size, size-int(h[20])
	if f.usable < 480 {
		return corrupt(1, "%d usable bytes a page", f.usable)
	}
	f.pages = binary.BigEndian.Uint32(h[28:])
	if f.pages == 0 || binary.BigEndian.Uint32(h[24:]) != binary.BigEndian.Uint32(h[92:]) {
		// The size in the header is stale (written by an old SQLite): the
		// file's length says it.
		st, err := f.db.Stat()
		if err != nil {
			return err
		}
		f.pages = uint32(st.Size() / int64(size))
	}
	return nil
}

// readLog indexes the log's committed frames: those whose salt is the
// log's and whose running checksum holds, up to the last one that commits
// a transaction. A missing or empty log adds nothing.
func (f *File) readLog(path string) error {
	wal, err := regfile.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	f.wal = wal
	var h [walHeaderSize]byte
	if n, _ := wal.ReadAt(h[:], 0); n < walHeaderSize {
		return nil
	}
	magic := binary.BigEndian.Uint32(h[:])
	if magic&^1 != 0x377f0682 || int(binary.BigEndian.Uint32(h[8:])) != f.pageSize {
		// Not a log of this database (or one SQLite is creating): it
		// holds nothing committed.
		return nil
	}
	bigEndian := magic&1 == 1
	s1, s2 := walChecksum(bigEndian, h[:24], 0, 0)
	if s1 != binary.BigEndian.Uint32(h[24:]) || s2 != binary.BigEndian.Uint32(h[28:]) {
		return nil
	}
	copy(f.salt[:], h[16:24])
	// Only committed frames go into f.frames: a log that ends early (a
	// frame of another salt or a bad checksum) keeps what it committed.
	f.frames = map[uint32]int64{}
	frames := f.frames
	pending := map[uint32]int64{}
	frameSize := int64(frameHeader + f.pageSize)
	// Up to 256 frames a read, and no more than the log holds.
	chunk := int64(256)
	if st, err := wal.Stat(); err == nil {
		chunk = max(1, min(chunk, (st.Size()-walHeaderSize)/frameSize))
	}
	buf := make([]byte, chunk*frameSize)
	at := int64(walHeaderSize)
	for {
		n, err := wal.ReadAt(buf, at)
		whole := int64(n) / frameSize
		for i := int64(0); i < whole; i++ {
			fr := buf[i*frameSize : (i+1)*frameSize]
			// As SQLite's recovery: a frame of another salt or of page 0
			// ends the log.
			if [8]byte(fr[8:16]) != f.salt || binary.BigEndian.Uint32(fr) == 0 {
				return nil
			}
			s1, s2 = walChecksum(bigEndian, fr[:8], s1, s2)
			s1, s2 = walChecksum(bigEndian, fr[frameHeader:], s1, s2)
			if s1 != binary.BigEndian.Uint32(fr[16:]) || s2 != binary.BigEndian.Uint32(fr[20:]) {
				return nil
			}
			pending[binary.BigEndian.Uint32(fr[:4])] = at + i*frameSize
			if size := binary.BigEndian.Uint32(fr[4:]); size != 0 {
				for p, off := range pending {
					frames[p] = off
				}
				clear(pending)
				f.pages = size
			}
		}
		if err != nil || whole == 0 {
			if err != nil && err != io.EOF {
				return err
			}
			return nil
		}
		at += whole * frameSize
	}
}

// checkEncoding refuses a database whose text is UTF-16: this reader
// returns text as stored. The encoding is read from page 1 as of the
// snapshot: a store created in WAL mode keeps a page 1 in its database
// file that was written before its first table set the encoding (0 there)
// until the log is checkpointed.
func (f *File) checkEncoding() error {
	var enc [4]byte
	if off, ok := f.frames[1]; ok {
		if _, err := f.wal.ReadAt(enc[:], off+frameHeader+56); err != nil {
			return err
		}
	} else if _, err := f.db.ReadAt(enc[:], 56); err != nil {
		return err
	}
	// 0 is a database with no schema yet, whose text is none.
	if e := binary.BigEndian.Uint32(enc[:]); e > 1 {
		return fmt.Errorf("%w: text encoding %d", ErrUnsupported, e)
	}
	return nil
}

// walChecksum continues SQLite's log checksum over b (a multiple of 8
// bytes), in the byte order the log's magic number names.
func walChecksum(bigEndian bool, b []byte, s1, s2 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		var x0, x1 uint32
		if bigEndian {
			x0, x1 = binary.BigEndian.Uint32(b[i:]), binary.BigEndian.Uint32(b[i+4:])
		} else {
			x0, x1 = binary.LittleEndian.Uint32(b[i:]), binary.LittleEndian.Uint32(b[i+4:])
		}
		s1 += x0 + s2
		s2 += x1 + s1
	}
	return s1, s2
}

// inLog says whether page n is read from the log.
func (f *File) inLog(n uint32) bool {
	_, ok := f.frames[n]
	return ok
}

// readPage reads page n into buf (a page's size).
func (f *File) readPage(n uint32, buf []byte) error {
	if n == 0 || n > f.pages {
		return corrupt(n, "no such page (the database has %d)", f.pages)
	}
	if off, ok := f.frames[n]; ok {
		// A log cut shorter than the frame was truncated by a checkpoint
		// since Open read it.
		readLog := func(b []byte, at int64) error {
			_, err := f.wal.ReadAt(b, at)
			if err == io.EOF {
				return ErrChanged
			}
			return err
		}
		var h [frameHeader]byte
		if err := readLog(h[:], off); err != nil {
			return err
		}
		if err := readLog(buf, off+frameHeader); err != nil {
			return err
		}
		// A restarted log reuses its frames under a new salt; check the
		// header again after the page, which a writer writes first.
		var again [frameHeader]byte
		if err := readLog(again[:], off); err != nil {
			return err
		}
		if binary.BigEndian.Uint32(h[:]) != n || [8]byte(h[8:16]) != f.salt || h != again {
			return ErrChanged
		}
		return nil
	}
	return f.readRun(n, buf)
}

// readRun reads the pages first..first+len(buf)/pageSize-1 from the database
// file in one call (none of them is in the log).
func (f *File) readRun(first uint32, buf []byte) error {
	_, err := f.db.ReadAt(buf, int64(first-1)*int64(f.pageSize))
	if err == io.EOF {
		return corrupt(first, "past the end of the file")
	}
	return err
}
