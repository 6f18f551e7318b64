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
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"clawvault-tui/jscompat"
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
	// Malformed lists the line numbers of lines that do not parse, and of
	// those longer than the cap (LongLines), which are skipped unread.
	Malformed []int32
	// LongLines lists the line numbers of lines longer than the cap
	// (Options.MaxLineBytes): measured for their end, never loaded.
	LongLines []int32
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
	// processLifetime: built with Options.ProcessLifetime, so that the
	// tree's arrays too go to memory mapped apart.
	processLifetime bool
}

// Tail is a last line without a newline: torn mid-write, or still being
// written. When it parses, it is also the last entry (pi reads it too).
type Tail struct {
	Offset int64
	Length int64
	Line   int32
	Parsed bool
	// TooLong: the tail is longer than the cap, and was not read.
	TooLong bool
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
	// ProcessLifetime says the index lives until the process exits (a
	// command that indexes once and prints). Its entries then go to memory
	// mapped apart with transparent huge pages allowed, never returned: on
	// a virtual machine the first touch of each 4 KiB page of a fresh heap
	// costs more than filling it (the 34 MB of entries of a 713k-line
	// transcript took 8,500 page faults; with huge pages, a few dozen).
	ProcessLifetime bool
	// MaxLineBytes caps the lines read (0: DefaultMaxLineBytes): a longer
	// one is measured for its end and reported in LongLines and
	// Malformed, never loaded whole, so that memory stays about the cap
	// and time linear whatever one line holds.
	MaxLineBytes int64
}

// maxLine is the cap on a line's length.
func (o Options) maxLine() int64 {
	if o.MaxLineBytes <= 0 {
		return DefaultMaxLineBytes
	}
	return o.MaxLineBytes
}

// chunkSize is how much is read per step. Small enough that the transient
// buffers stay a few MiB whatever the file size; big enough that handing
// chunks between goroutines costs nothing measurable.
var chunkSize = 1 << 20

type chunk struct {
	base int64 // file offset of data[0]
	data []byte
	// long: the chunk's last line is longer than the cap; it follows data
	// and was not read past the cap. to is where the chunk's range ends,
	// which the sizes and progress count the line up to.
	long bool
	to   int64
}

type chunkResult struct {
	start      int64 // file offset of the chunk
	end        int64 // file offset just past the chunk
	lines      int32 // newline-terminated lines in the chunk
	entries    []model.Entry
	facts      []factAt
	malformed  []int32 // chunk-relative line numbers
	long       []int32 // chunk-relative line numbers of lines over the cap
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
	next := &Index{Path: ix.Path, End: ix.End, Lines: ix.Lines, Malformed: slices.Clip(ix.Malformed), LongLines: slices.Clip(ix.LongLines)}
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

// scan indexes [from, size). The range is cut into chunks of chunkSize
// bytes; workers take them in order, each reading its chunk with one pread
// into a buffer of its own and owning the lines that start in it (reading
// on past the chunk's end to finish its last line). Results are merged in
// file order. Reading beats mapping the file here: on a virtual machine
// with shadow page tables, touching each page of a 300 MB mapping cost a
// core four times what copying the bytes out of the page cache does, and
// the mapped pages counted in the process's resident memory.
func (ix *Index) scan(ctx context.Context, r io.ReaderAt, from, size int64, opt Options) error {
	maxLine := opt.maxLine()
	tail, end, tailTooLong, err := readTail(r, from, size, maxLine)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sc := newScanRun(r, from, end, opt, cancel)
	sc.start(ctx)
	ix.mergeChunks(ctx, sc, size)
	if sc.firstErr != nil { // written before cancel, read after every worker stopped
		return sc.firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ix.End = end
	ix.Size = size
	ix.processLifetime = opt.ProcessLifetime
	ix.Tail = nil
	switch {
	case tailTooLong:
		ix.Tail = &Tail{Offset: end, Length: size - end, Line: ix.Lines + 1, TooLong: true}
	case len(bytes.TrimSpace(tail)) > 0:
		ix.addTail(tail, end)
	}
	return nil
}

// scanRun is one scan's chunks of the complete lines [from, end) and the
// workers that sniff them.
type scanRun struct {
	r         io.ReaderAt
	from, end int64
	opt       Options
	maxLine   int64
	chunks    int
	workers   int
	results   []chunkResult
	next      atomic.Int64
	cancel    context.CancelFunc
	errMu     sync.Mutex
	firstErr  error
	// done says which chunk is finished; free hands merged chunks' entry
	// slices back to the workers, so that only the index's own slice is
	// new memory (fresh pages cost more than the copy on a virtual
	// machine). With workers, done holds one result per worker: they wait
	// for the merge rather than run ahead of a cancel.
	done chan int
	free chan []model.Entry
}

func newScanRun(r io.ReaderAt, from, end int64, opt Options, cancel context.CancelFunc) *scanRun {
	chunks := int((end - from + int64(chunkSize) - 1) / int64(chunkSize))
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, chunks)
	sc := &scanRun{r: r, from: from, end: end, opt: opt, maxLine: opt.maxLine(), chunks: chunks, workers: workers,
		results: make([]chunkResult, chunks), cancel: cancel, done: make(chan int, chunks), free: make(chan []model.Entry, chunks)}
	if workers > 1 {
		sc.done = make(chan int, workers)
	}
	return sc
}

// start runs the workers; done is closed when they have all stopped. A
// small file is sniffed on this goroutine.
func (sc *scanRun) start(ctx context.Context) {
	if sc.workers <= 1 {
		sc.work(ctx)
		close(sc.done)
		return
	}
	var wg sync.WaitGroup
	for range sc.workers {
		wg.Go(func() { sc.work(ctx) })
	}
	go func() {
		wg.Wait()
		close(sc.done)
	}()
}

// work takes chunks in order, each read with one pread into a buffer of
// the worker's own, and sniffs them.
func (sc *scanRun) work(ctx context.Context) {
	var scratch chunkScratch
	var buf []byte
	if sc.opt.ProcessLifetime && sc.chunks > 1 {
		// A read buffer of its own mapping: 2 huge pages rather than
		// 260 fresh heap pages.
		buf = processBytes(chunkSize + int(lineOverhang) + 1)
	}
	for {
		k := int(sc.next.Add(1) - 1)
		if k >= sc.chunks || ctx.Err() != nil {
			return
		}
		lo := sc.from + int64(k)*int64(chunkSize)
		c, err := readOwned(sc.r, &buf, sc.from, lo, min(lo+int64(chunkSize), sc.end), sc.end, sc.maxLine)
		if err != nil {
			sc.errMu.Lock()
			if sc.firstErr == nil {
				sc.firstErr = err
			}
			sc.errMu.Unlock()
			sc.cancel()
			return
		}
		var reuse []model.Entry
		select {
		case reuse = <-sc.free:
		default:
		}
		sc.results[k] = scratch.sniff(c, sc.opt.DeferValidation, sc.maxLine, reuse)
		sc.done <- k
	}
}

// mergeChunks merges the chunks in file order as soon as they and all
// before them are done, while the workers go on; progress is reported
// from here.
func (ix *Index) mergeChunks(ctx context.Context, sc *scanRun, size int64) {
	ready := make([]bool, sc.chunks)
	merged := 0
	var total int64
	for k := range sc.done {
		if ctx.Err() != nil {
			continue // cancelled, or a worker failed: drain
		}
		ready[k] = true
		total += sc.results[k].end - sc.results[k].start
		if sc.opt.Progress != nil {
			sc.opt.Progress(total, size-sc.from)
		}
		for merged < sc.chunks && ready[merged] && ctx.Err() == nil {
			res := &sc.results[merged]
			if merged == 0 && res.end > res.start {
				ix.sizeEntries(res, sc.end-sc.from, sc.opt.ProcessLifetime)
			}
			ix.mergeOne(res)
			sc.free <- res.entries[:0]
			*res = chunkResult{}
			merged++
		}
	}
}

// sizeEntries grows the index's entries once, for span bytes at the
// density of the first chunk.
func (ix *Index) sizeEntries(first *chunkResult, span int64, processLifetime bool) {
	perByte := float64(len(first.entries)) / float64(first.end-first.start)
	want := int(perByte*float64(span)*1.05) + 16
	if processLifetime && len(ix.Entries) == 0 {
		ix.Entries = ProcessEntries(want)
	}
	ix.Entries = slices.Grow(ix.Entries, want)
}

// errChanged is a read that came back short: the file shrank (or was
// truncated) while it was being indexed.
func errChanged(off int64, err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return fmt.Errorf("the file changed while it was being indexed: it ends before offset %d", off)
	}
	return fmt.Errorf("read at offset %d: %w", off, err)
}

// readTail finds the bytes after the last newline of [from, size), reading
// backwards from the end, and returns them with the offset just past that
// newline (from when there is none). Past maxLine bytes they are no longer
// kept (tooLong): the newline is looked for in a buffer of bounded size.
func readTail(r io.ReaderAt, from, size, maxLine int64) (tail []byte, end int64, tooLong bool, err error) {
	var buf []byte
	step := int64(4096)
	for hi := size; hi > from; {
		lo := max(from, hi-step)
		buf = slices.Grow(buf[:0], int(hi-lo))[:hi-lo]
		if n, err := r.ReadAt(buf, lo); n < len(buf) {
			return nil, 0, false, errChanged(lo+int64(n), err)
		}
		i := bytes.LastIndexByte(buf, '\n')
		if !tooLong {
			tail = append(slices.Clone(buf[i+1:]), tail...)
			tooLong = int64(len(tail)) > maxLine
		}
		if tooLong {
			tail = nil
		}
		if i >= 0 {
			return tail, lo + int64(i) + 1, tooLong, nil
		}
		hi = lo
		step = min(2*step, 16<<20)
		if tooLong {
			step = min(step, 1<<20) // only looking for the newline now
		}
	}
	return tail, from, tooLong, nil
}

// readOwned reads the lines that start in [lo, hi) into *buf and returns
// them as a chunk (base: the first one's offset). A line starts at from or
// just after a newline; the last one owned runs past hi to its newline,
// which comes before end (just past the last newline of the file). A last
// line longer than maxLine is read no further than the cap: the chunk says
// it is long, and the chunks it runs through find where the next line
// starts on their own, so no byte is read twice.
func readOwned(r io.ReaderAt, buf *[]byte, from, lo, hi, end, maxLine int64) (chunk, error) {
	// Read [lo-1, hi) and a little past it in one call: the byte before lo
	// says whether a line starts at lo, and the overhang most often holds
	// the end of the last line (what it does not hold is read after).
	at := max(from, lo-1)
	want := min(hi+lineOverhang, end) - at
	b := slices.Grow((*buf)[:0], int(want))[:want]
	if n, err := r.ReadAt(b, at); n < len(b) {
		return chunk{}, errChanged(at+int64(n), err)
	}
	if i := bytes.IndexByte(b[hi-at-1:], '\n'); i >= 0 {
		b = b[:hi-at+int64(i)]
	} else {
		b = b[:hi-at]
	}
	start := lo
	if lo > from {
		i := bytes.IndexByte(b, '\n')
		if i < 0 || at+int64(i)+1 >= hi {
			*buf = b
			return chunk{base: hi}, nil // no line starts here
		}
		start = at + int64(i) + 1
	}
	b, long, err := finishLastLine(r, b, at, hi, end, maxLine)
	*buf = b
	if err != nil {
		return chunk{}, err
	}
	if long {
		// The data ends where the long line starts.
		lastStart := int64(bytes.LastIndexByte(b[:hi-at], '\n') + 1)
		return chunk{base: start, data: b[start-at : lastStart], long: true, to: hi}, nil
	}
	return chunk{base: start, data: b[start-at:]}, nil
}

// finishLastLine reads on past b (the bytes from at, cut at hi or just
// past a newline after it) to the end of the line that holds byte hi-1,
// in steps that double. A line that runs more than a chunk past its own is
// looked at before it is read: its newline is looked for in a buffer of
// bounded size, no further than the cap, and the line is then read whole
// only if it ends under the cap; long says it does not (b then stops
// inside it). Memory stays about a chunk, whatever the line.
func finishLastLine(r io.ReaderAt, b []byte, at, hi, end, maxLine int64) (_ []byte, long bool, _ error) {
	lastStart := at + int64(bytes.LastIndexByte(b[:hi-at], '\n')+1)
	for b[len(b)-1] != '\n' {
		off := at + int64(len(b))
		if off-lastStart > maxLine {
			return b, true, nil
		}
		past := int64(len(b)) - (hi - at)
		if past >= int64(chunkSize) {
			return readLongLine(r, b, off, lastStart+maxLine+1, end)
		}
		more := min(max(2*past, 4*lineOverhang), end-off, maxLine+1-(off-lastStart))
		if more <= 0 {
			return b, false, errChanged(off, nil)
		}
		b = slices.Grow(b, int(more))
		grown := b[len(b) : len(b)+int(more)]
		n, err := r.ReadAt(grown, off)
		if n < len(grown) {
			return b, false, errChanged(off+int64(n), err)
		}
		if i := bytes.IndexByte(grown, '\n'); i >= 0 {
			return b[:len(b)+i+1], false, nil
		}
		b = b[:len(b)+n]
	}
	return b, false, nil
}

// readLongLine finishes a line b holds up to offset off: it looks for the
// newline before capEnd (the cap's end) and reads the rest of the line
// into b if there is one; long when there is none. end is just past the
// file's last newline, so a line that runs to it means the file changed.
func readLongLine(r io.ReaderAt, b []byte, off, capEnd, end int64) (_ []byte, long bool, _ error) {
	nl, found, err := findNewline(r, off, min(capEnd, end))
	switch {
	case err != nil:
		return b, false, err
	case !found && capEnd <= end:
		return b, true, nil
	case !found:
		return b, false, errChanged(end, nil)
	}
	rest := int(nl + 1 - off)
	b = slices.Grow(b, rest)
	grown := b[len(b) : len(b)+rest]
	if n, err := r.ReadAt(grown, off); n < rest || grown[rest-1] != '\n' {
		return b, false, errChanged(off+int64(n), err)
	}
	return b[:len(b)+rest], false, nil
}

// findNewline looks for the first newline in [from, to), through a buffer
// of at most measureChunk bytes.
func findNewline(r io.ReaderAt, from, to int64) (at int64, found bool, err error) {
	buf := make([]byte, min(int64(measureChunk), max(to-from, 1)))
	for p := from; p < to; {
		want := min(int64(len(buf)), to-p)
		n, err := r.ReadAt(buf[:want], p)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return p + int64(i), true, nil
		}
		if int64(n) < want {
			return 0, false, errChanged(p+int64(n), err)
		}
		p += int64(n)
	}
	return 0, false, nil
}

// lineOverhang is how far past its chunk a worker reads at once to finish
// its last line: most lines are shorter. (Reading a chunk's size past it,
// as this once did, copied every byte of the file out of the page cache
// twice.)
var lineOverhang int64 = 16 << 10

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// chunkScratch is one worker's reusable state: timestamps share their day
// count, and each chunk's entries are sized from the last chunk's.
type chunkScratch struct {
	days jscompat.ISODayCache
	// bytesPerEntry is the density of the worker's last chunk, to size the
	// next chunk's entries in one allocation (no copy to an exact size).
	bytesPerEntry int
}

// sniff indexes the newline-terminated lines of one chunk. A line longer
// than maxLine is not read: it is counted, and reported as long and
// malformed.
func (s *chunkScratch) sniff(c chunk, prefixOnly bool, maxLine int64, reuse []model.Entry) chunkResult {
	data := c.data
	res := chunkResult{start: c.base, end: c.base + int64(len(c.data)), names: model.NewNames()}
	if s.bytesPerEntry <= 0 {
		s.bytesPerEntry = 256
	}
	if want := len(data)/s.bytesPerEntry*9/8 + 16; cap(reuse) >= want {
		res.entries = reuse[:0]
	} else {
		res.entries = make([]model.Entry, 0, want)
	}
	// One LineInfo for every line, filled in place: it is some 200 bytes,
	// and returning it by value copied it three times per line.
	var info LineInfo
	for pos := 0; pos < len(data); {
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			break
		}
		line := data[pos : pos+nl]
		res.lines++
		lineOff := c.base + int64(pos)
		pos += nl + 1
		if int64(len(line)) > maxLine {
			res.malformed = append(res.malformed, res.lines)
			res.long = append(res.long, res.lines)
			continue
		}
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
		var ok bool
		if prefixOnly {
			ok = sniffPrefix(line, &s.days, &info)
			flags = model.FlagPrefixOnly
		} else {
			ok = sniffCanonical(line, &s.days, &info)
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
	if c.long {
		res.lines++
		res.malformed = append(res.malformed, res.lines)
		res.long = append(res.long, res.lines)
		res.end = c.to // the index is sized by entries per byte
	}
	if len(res.entries) > 0 {
		s.bytesPerEntry = max(16, len(data)/len(res.entries))
	}
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

// mergeOne appends one chunk's result, the chunks before it being in.
func (ix *Index) mergeOne(p *chunkResult) {
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
	for _, m := range p.long {
		ix.LongLines = append(ix.LongLines, m+ix.Lines)
	}
	ix.Lines += p.lines
	ix.prefixOnly += p.prefixOnly
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
			ix.Header, _ = DecodeHeader(line)
			if ix.Header.Version > 0 {
				ix.Version = ix.Header.Version
			}
		}
	}
	if ix.HeaderOK && ix.Version < 2 {
		model.MigrateV1(ix.Entries, ix.Facts)
	}
	var arena model.Arena
	if ix.processLifetime {
		arena = newProcessArena(len(ix.Entries))
	}
	ix.Tree = model.BuildTreeIn(arena, ix.Entries, ix.Facts, ix.Version, ix.Names, model.RulesAuto)
	ix.headSum, ix.endSum = fingerprint(r, ix.End)
	ix.Validated = ix.prefixOnly == 0
	if ix.Validated {
		ix.validEnd = len(ix.Entries)
	}
}

// DecodeHeader reads a session header line (a JSONL file's first line, or
// a SQLite-era store's header event); ok is false when it is not a JSON
// object of that shape.
func DecodeHeader(line []byte) (h model.Header, ok bool) {
	var raw struct {
		Version       json.RawMessage `json:"version"`
		ID            string          `json:"id"`
		Timestamp     string          `json:"timestamp"`
		Cwd           string          `json:"cwd"`
		ParentSession string          `json:"parentSession"`
		BranchedFrom  string          `json:"branchedFrom"`
	}
	ok = json.Unmarshal(line, &raw) == nil
	h = model.Header{ID: raw.ID, Timestamp: raw.Timestamp, Cwd: raw.Cwd, ParentSession: raw.ParentSession, BranchedFrom: raw.BranchedFrom}
	if n, isInt := jsonscan.Int(bytes.Trim(raw.Version, `"`)); isInt {
		h.Version = int(n)
	}
	return h, ok
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
