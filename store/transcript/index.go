package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"

	"clawvault-tui/model"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/jsonscan"
)

// Index is the line index of one transcript: where every line is, what the
// tree needs from it, and nothing of the bodies.
type Index struct {
	Path string
	Size int64 // the file size this index covers
	// file is the identity of the file version indexed (set by Cache.Open).
	file fileid.ID

	// End is the offset just past the last newline: an extension resumes here.
	End int64
	// Lines counts the newline-terminated lines before End.
	Lines int32
	// Entries holds every line that parses as a JSON object, header included,
	// in file order.
	Entries []model.Entry
	// Facts holds the tree fields of compaction, branch_summary, label and
	// session_info entries, by position in Entries.
	Facts map[int32]model.TreeFacts
	// Names holds the ids that are not pi's eight hex digits.
	Names *model.Names
	// Malformed lists the line numbers of lines that do not parse.
	Malformed []int32
	// Tail describes a last line that has no newline yet.
	Tail *Tail

	Header   model.Header
	HeaderOK bool
	// Version is the header's version, 1 when it has none (pi's rule).
	Version int
	Tree    *model.Tree
	// Validated is false while some entries were read by their prefix only.
	Validated bool
	// validEnd counts the leading entries already validated.
	validEnd int
	// prefixOnly counts entries after validEnd read by their prefix only.
	prefixOnly int

	headSum, endSum uint64
}

// Tail is a last line without a newline: torn mid-write, or still being
// written. When it parses, it is also the last entry (pi reads it too).
type Tail struct {
	Offset int64
	Length int64
	Line   int32
	Parsed bool
}

// Options tune an indexing run.
type Options struct {
	// Progress, when set, is called with the bytes indexed so far.
	Progress func(done, total int64)
	// Workers is the number of goroutines that sniff lines; 0 means GOMAXPROCS.
	Workers int
	// DeferValidation reads canonical message lines by their prefix only
	// and leaves validating the rest of them to Validate, so that a huge
	// transcript opens in the time its tree needs. The index is exact
	// once Validate has run; until then a glued or damaged message line
	// that still starts and ends right counts as an entry.
	DeferValidation bool
}

// chunkSize is how much is read per step. Small enough that the transient
// buffers stay a few MiB whatever the file size; big enough that handing
// chunks between goroutines costs nothing measurable.
var chunkSize = 1 << 20

type chunk struct {
	seq    int
	base   int64 // file offset of data[0]
	data   []byte
	mapped bool // data points into a memory mapping, not a reusable buffer
}

type chunkResult struct {
	seq        int
	start      int64 // file offset of the chunk
	end        int64 // file offset just past the chunk
	lines      int32 // newline-terminated lines in the chunk
	entries    []model.Entry
	facts      []factAt
	malformed  []int32 // chunk-relative line numbers
	prefixOnly int     // entries read by their prefix only
	names      *model.Names
}

type factAt struct {
	local int32
	facts model.TreeFacts
}

// Build indexes r from byte 0 up to size.
func Build(ctx context.Context, path string, r io.ReaderAt, size int64, opt Options) (*Index, error) {
	ix := &Index{Path: path, Facts: map[int32]model.TreeFacts{}, Names: model.NewNames()}
	if err := ix.scan(ctx, r, 0, size, opt); err != nil {
		return nil, err
	}
	ix.finish(r)
	return ix, nil
}

// extend returns a new index that also covers the bytes from ix.End to
// size. ix itself is not modified, so readers holding it are safe.
func (ix *Index) extend(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Index, error) {
	next := &Index{Path: ix.Path, End: ix.End, Lines: ix.Lines, Malformed: slices.Clip(ix.Malformed)}
	keep := len(ix.Entries)
	if ix.Tail != nil && ix.Tail.Parsed {
		keep-- // the provisional last entry is re-read with what follows it
	}
	next.validEnd = min(ix.validEnd, keep)
	for _, e := range ix.Entries[next.validEnd:keep] {
		if e.Flags&model.FlagPrefixOnly != 0 {
			next.prefixOnly++
		}
	}
	next.Entries = slices.Clip(ix.Entries[:keep])
	if ix.Version < 2 || keep < len(ix.Entries) {
		// v1 migration rewrites ids in place; never touch a shared array.
		next.Entries = slices.Clone(next.Entries)
	}
	next.Facts = maps.Clone(ix.Facts)
	next.Names = ix.Names.Clone()
	delete(next.Facts, int32(keep))
	if err := next.scan(ctx, r, ix.End, size, opt); err != nil {
		return nil, err
	}
	next.finish(r)
	return next, nil
}

// scan indexes [from, size): a reader goroutine hands chunks that end on a
// newline to workers, and results are merged in file order.
func (ix *Index) scan(ctx context.Context, r io.ReaderAt, from, size int64, opt Options) error {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	chunks := make(chan chunk, workers)
	results := make(chan chunkResult, workers)
	free := make(chan []byte, workers+2)
	var tail []byte
	var tailBase int64
	var readErr error

	mapped := false
	if f, isFile := r.(*os.File); isFile {
		var unmap func()
		if tail, tailBase, unmap, mapped = mapChunks(ctx, f, from, size, chunks); mapped {
			defer unmap() // deferred calls run last: after the workers stop
		}
	}
	if !mapped {
		go func() {
			defer close(chunks)
			tail, tailBase, readErr = readChunks(ctx, r, from, size, chunks, free)
		}()
	}
	var wg sync.WaitGroup
	var faultMu sync.Mutex
	var faultErr error
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A file truncated under a mapping faults on read: report it.
			debug.SetPanicOnFault(true)
			defer func() {
				if r := recover(); r != nil {
					faultMu.Lock()
					faultErr = fmt.Errorf("the file changed while it was being indexed: %v", r)
					faultMu.Unlock()
					cancel()
				}
			}()
			var scratch chunkScratch
			for c := range chunks {
				populate(c)
				res := scratch.sniff(c, opt.DeferValidation)
				if !c.mapped {
					select {
					case free <- c.data[:0]:
					default:
					}
				}
				select {
				case results <- res:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var ordered []chunkResult
	var done int64
	for res := range results {
		if res.seq >= len(ordered) {
			ordered = append(ordered, make([]chunkResult, res.seq+1-len(ordered))...)
		}
		ordered[res.seq] = res
		done += res.end - res.start
		if opt.Progress != nil {
			opt.Progress(done, size-from)
		}
	}
	if err := errors.Join(faultErr, readErr); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ix.merge(ordered)
	ix.End = tailBase
	ix.Size = size
	ix.Tail = nil
	if len(bytes.TrimSpace(tail)) > 0 {
		ix.addTail(tail, tailBase)
	}
	return nil
}

// readChunks reads [from, size) and sends chunks that end just after a
// newline. It returns the bytes after the last newline (the unterminated
// tail) and their offset.
func readChunks(ctx context.Context, r io.ReaderAt, from, size int64, out chan<- chunk, free chan []byte) ([]byte, int64, error) {
	var carry []byte
	base := from
	seq := 0
	for off := from; off < size; {
		var buf []byte
		select {
		case buf = <-free:
		default:
			// A small file gets a buffer its size, not a chunk: zeroing 1 MiB
			// per file dominated planning over thousands of small transcripts.
			buf = make([]byte, 0, min(int64(chunkSize), size-off+int64(len(carry))))
		}
		buf = append(buf[:0], carry...)
		want := min(int64(chunkSize), size-off)
		if int64(cap(buf)-len(buf)) < want {
			buf = slices.Grow(buf, int(want))
		}
		n, err := r.ReadAt(buf[len(buf):len(buf)+int(want)], off)
		buf = buf[:len(buf)+n]
		off += int64(n)
		if int64(n) < want {
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, 0, fmt.Errorf("read at offset %d: %w", off, err)
			}
			// The file shrank under us: index what there is.
			size = off
		}
		nl := bytes.LastIndexByte(buf, '\n')
		if nl < 0 {
			// One line longer than a chunk: keep reading into it.
			carry = buf
			continue
		}
		carry = append([]byte(nil), buf[nl+1:]...)
		select {
		case out <- chunk{seq: seq, base: base, data: buf[:nl+1]}:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
		seq++
		base += int64(nl + 1)
	}
	return carry, base, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// chunkScratch is one worker's reusable state: entries are collected in a
// slice that keeps its capacity from chunk to chunk and copied out at the
// exact size, and timestamps share their day count.
type chunkScratch struct {
	entries []model.Entry
	days    model.ISODayCache
}

// sniff indexes the newline-terminated lines of one chunk.
func (s *chunkScratch) sniff(c chunk, prefixOnly bool) chunkResult {
	data := c.data
	res := chunkResult{seq: c.seq, start: c.base, end: c.base + int64(len(c.data)), names: model.NewNames()}
	res.entries = s.entries[:0]
	for pos := 0; pos < len(data); {
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			break
		}
		line := data[pos : pos+nl]
		res.lines++
		lineOff := c.base + int64(pos)
		pos += nl + 1
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if lineOff == 0 && bytes.HasPrefix(line, utf8BOM) {
			// pi's content.trim() drops a byte-order mark.
			line = line[len(utf8BOM):]
			lineOff += int64(len(utf8BOM))
		}
		if isBlank(line) {
			continue
		}
		var flags model.EntryFlags
		info, ok := LineInfo{}, false
		if prefixOnly {
			info, ok = sniffPrefix(line, &s.days)
			flags = model.FlagPrefixOnly
		}
		if !ok {
			info, ok = SniffLine(line)
			flags = 0
		}
		if !ok {
			res.malformed = append(res.malformed, res.lines)
			continue
		}
		e, f, hasFacts := info.Entry(line, lineOff, res.lines, res.names)
		e.Flags |= flags
		if flags != 0 {
			res.prefixOnly++
		}
		if hasFacts {
			res.facts = append(res.facts, factAt{int32(len(res.entries)), f})
		}
		res.entries = append(res.entries, e)
	}
	s.entries = res.entries[:0]
	res.entries = slices.Clone(res.entries)
	return res
}

// isBlank reports a line pi skips: empty after JavaScript's trim.
func isBlank(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// merge appends the chunks' results in file order, growing the entry
// slice once: at a million entries, repeated doubling would copy the
// index several times over.
func (ix *Index) merge(chunks []chunkResult) {
	total := len(ix.Entries)
	for _, p := range chunks {
		total += len(p.entries)
	}
	ix.Entries = slices.Grow(ix.Entries, total-len(ix.Entries))
	for _, p := range chunks {
		base := int32(len(ix.Entries))
		// Chunks intern odd ids apart; renumber them into the index's table.
		var remap []uint32
		for i := range p.names.Len() {
			remap = append(remap, uint32(ix.Names.Intern(p.names.Name(i))))
		}
		for i := range p.entries {
			e := &p.entries[i]
			e.Line += ix.Lines
			if remap != nil {
				e.ID, e.ParentID = model.Remap(e.ID, remap), model.Remap(e.ParentID, remap)
			}
		}
		ix.Entries = append(ix.Entries, p.entries...)
		for _, f := range p.facts {
			ix.Facts[base+f.local] = f.facts
		}
		for _, m := range p.malformed {
			ix.Malformed = append(ix.Malformed, m+ix.Lines)
		}
		ix.Lines += p.lines
		ix.prefixOnly += p.prefixOnly
	}
}

func (ix *Index) addTail(tail []byte, off int64) {
	line := tail
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	t := &Tail{Offset: off, Length: int64(len(tail)), Line: ix.Lines + 1}
	if off == 0 && bytes.HasPrefix(line, utf8BOM) {
		line = line[len(utf8BOM):]
		off += int64(len(utf8BOM))
	}
	if info, ok := SniffLine(line); ok {
		t.Parsed = true
		e, f, hasFacts := info.Entry(line, off, t.Line, ix.Names)
		e.Flags |= model.FlagUnterminated
		if hasFacts {
			ix.Facts[int32(len(ix.Entries))] = f
		}
		ix.Entries = append(ix.Entries, e)
	}
	ix.Tail = t
}

// finish decodes the header, migrates v1 files in memory and builds the tree.
func (ix *Index) finish(r io.ReaderAt) {
	ix.HeaderOK = false
	ix.Header = model.Header{}
	ix.Version = 1
	if len(ix.Entries) > 0 && ix.Entries[0].Type == model.TypeSession && ix.Entries[0].Flags&model.FlagStringID != 0 {
		if line, err := ReadLine(r, ix.Entries[0]); err == nil {
			ix.HeaderOK = true
			ix.Header = decodeHeader(line)
			if ix.Header.Version > 0 {
				ix.Version = ix.Header.Version
			}
		}
	}
	if ix.HeaderOK && ix.Version < 2 {
		model.MigrateV1(ix.Entries, ix.Facts)
	}
	ix.Tree = model.BuildTree(ix.Entries, ix.Facts, ix.Version, ix.Names)
	ix.headSum, ix.endSum = fingerprint(r, ix.End)
	ix.Validated = ix.prefixOnly == 0
	if ix.Validated {
		ix.validEnd = len(ix.Entries)
	}
}

func decodeHeader(line []byte) model.Header {
	var raw struct {
		Version       json.RawMessage `json:"version"`
		ID            string          `json:"id"`
		Timestamp     string          `json:"timestamp"`
		Cwd           string          `json:"cwd"`
		ParentSession string          `json:"parentSession"`
		BranchedFrom  string          `json:"branchedFrom"`
	}
	_ = json.Unmarshal(line, &raw)
	h := model.Header{ID: raw.ID, Timestamp: raw.Timestamp, Cwd: raw.Cwd, ParentSession: raw.ParentSession, BranchedFrom: raw.BranchedFrom}
	if n, ok := jsonscan.Int(bytes.Trim(raw.Version, `"`)); ok {
		h.Version = int(n)
	}
	return h
}

// ReadLine reads the bytes of one entry's line.
func ReadLine(r io.ReaderAt, e model.Entry) ([]byte, error) {
	buf := make([]byte, e.Length)
	n, err := r.ReadAt(buf, e.Offset)
	if n == len(buf) {
		return buf, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = fmt.Errorf("line %d: the file ends %d bytes into a %d-byte line (it was truncated)", e.Line, n, e.Length)
	}
	return nil, err
}

// fingerprint hashes the first and the last 4 KiB before end, to tell a
// file that only grew from one rewritten in place.
func fingerprint(r io.ReaderAt, end int64) (head, tail uint64) {
	const window = 4096
	sum := func(off, n int64) uint64 {
		if n <= 0 {
			return 0
		}
		buf := make([]byte, n)
		if m, _ := r.ReadAt(buf, off); int64(m) != n {
			return 1 // unreadable: never matches a real sum of 0-length data
		}
		h := fnv.New64a()
		h.Write(buf)
		return h.Sum64()
	}
	return sum(0, min(window, end)), sum(max(0, end-window), min(window, end))
}
