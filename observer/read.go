package observer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"clawvault-tui/store"
	"clawvault-tui/store/transcript"
)

// readResult is what an incremental read of one transcript gave.
type readResult struct {
	NextOffset int64
	BytesRead  int64
	Lines      int
	Messages   int
	// Malformed counts newline-terminated lines in the range that are not
	// JSON (they advance the cursor all the same, as in ClawVault).
	Malformed int
	// PartialTail is a last line without a newline that was left for the
	// next sweep (it does not parse, or yields no message).
	PartialTail bool
	// LongLines are lines longer than the cap: skipped (the cursor moves
	// past them, as past a malformed line), never loaded whole.
	LongLines []LongLine
	// LastSeq is the last event read of a SQLite-era session.
	LastSeq int64
}

// LongLine is a transcript line a read skipped for its length.
type LongLine struct {
	// Line is the line's number in the file (1-based).
	Line   int   `json:"line"`
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	// Seq names the event of a SQLite-era session read from its rows
	// (Line counts the events read; Offset counts them as JSONL bytes); nil
	// for a line of a file, a cold archive's too.
	Seq *int64 `json:"seq,omitempty"`
}

// errTranscriptChanged is a transcript that shrank or was replaced while it
// was read: what was read may mix two files, so nothing of it is used.
var errTranscriptChanged = errors.New("the transcript changed while it was read")

// readIncremental is ClawVault's readIncrementalMessages from start to the
// end of the file as it is when the read begins: every newline-terminated
// line advances the offset, parsed or not; a last line without a newline is
// taken only when it parses and yields a message, so partial JSON waits.
// Each message ("<role>: <text>") goes to emit. Content appended during the
// read is left for the next sweep; a file that shrinks or is replaced
// during the read is an error (errTranscriptChanged). A line longer than
// maxLine is skipped (LongLines), never loaded whole; a torn last line that
// long waits like any torn line.
func readIncremental(ctx context.Context, fsys store.FS, path string, start, maxLine int64, emit func(msg string), progress func(n int64)) (readResult, error) {
	res := readResult{NextOffset: start}
	if maxLine <= 0 {
		maxLine = transcript.DefaultMaxLineBytes
	}
	f, err := fsys.Open(path)
	if err != nil {
		return res, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return res, err
	}
	end := fi.Size()
	if start > end {
		return res, fmt.Errorf("%w: it is shorter (%d bytes) than where the read starts (%d)", errTranscriptChanged, end, start)
	}
	if workers := runtime.GOMAXPROCS(0); workers > 1 && end-start >= 2*readChunk {
		res, err = readParallel(ctx, f, start, end, maxLine, workers, emit, progress)
	} else {
		res, err = readSequential(ctx, f, start, end, maxLine, emit, progress)
	}
	if err != nil {
		return res, err
	}
	res.BytesRead = res.NextOffset - start
	if len(res.LongLines) > 0 && start > 0 {
		// Numbered within the range so far; the lines before it are counted
		// only now, in the rare read that needs it.
		before, err := countLines(ctx, f, start)
		if err != nil {
			return res, err
		}
		for i := range res.LongLines {
			res.LongLines[i].Line += before
		}
	}
	// What was read is only sound if the file is still the one opened, at
	// least as long as it was. os.SameFile asks the system (device and
	// inode; volume and file index on Windows).
	after, err := f.Stat()
	if err != nil {
		return res, err
	}
	if after.Size() < end {
		return res, fmt.Errorf("%w: it shrank from %d to %d bytes during the read", errTranscriptChanged, end, after.Size())
	}
	if cur, err := fsys.Stat(path); err != nil || !os.SameFile(cur, fi) {
		return res, fmt.Errorf("%w: %s was replaced during the read", errTranscriptChanged, path)
	}
	return res, nil
}

// countLines counts the newlines of [0, end).
func countLines(ctx context.Context, f store.File, end int64) (int, error) {
	buf := make([]byte, 1<<20)
	n := 0
	for pos := int64(0); pos < end; {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		k, err := f.ReadAt(buf[:min(int64(len(buf)), end-pos)], pos)
		n += bytes.Count(buf[:k], []byte{'\n'})
		pos += int64(k)
		if k == 0 {
			return 0, fmt.Errorf("%w: it ended at %d bytes (%v)", errTranscriptChanged, pos, err)
		}
	}
	return n, nil
}

// readSequential reads [start, end) line by line on this goroutine.
func readSequential(ctx context.Context, f io.ReaderAt, start, end, maxLine int64, emit func(msg string), progress func(n int64)) (readResult, error) {
	res := readResult{NextOffset: start}
	var readErr error
	lastReport := start
	err := transcript.ForEachLine(f, start, end, maxLine, func(l transcript.Line) bool {
		res.Lines++
		if res.Lines%4096 == 0 || l.TooLong {
			if readErr = ctx.Err(); readErr != nil {
				return false
			}
			if progress != nil {
				progress(l.Offset - lastReport)
				lastReport = l.Offset
			}
		}
		if l.TooLong {
			if !l.Terminated {
				res.PartialTail = true
				return true
			}
			res.LongLines = append(res.LongLines, LongLine{Line: res.Lines, Offset: l.Offset, Bytes: l.Len})
			res.NextOffset = l.Offset + l.Len + 1
			return true
		}
		msg := normalizeLineFast(l.Bytes)
		if !l.Terminated {
			if msg == "" {
				res.PartialTail = true
				return true
			}
			emit(msg)
			res.Messages++
			res.NextOffset = l.Offset + l.Len
			return true
		}
		if msg != "" {
			emit(msg)
			res.Messages++
		} else if !isBlankOrValidJSON(l.Bytes) {
			res.Malformed++
		}
		res.NextOffset = l.Offset + l.Len + 1
		return true
	})
	if err == nil {
		err = readErr
	}
	if err != nil {
		return res, err
	}
	if progress != nil {
		progress(res.NextOffset - lastReport)
	}
	return res, nil
}

// readChunk is the size of the pieces a large range is split into.
const readChunk = 4 << 20

// chunk is a run of whole lines (the last chunk may end with a line
// without a newline) and, once a worker is done with it, their messages;
// or one line longer than the cap (long > 0), which is not read.
type chunk struct {
	data     []byte
	maxLine  int64
	long     int64 // the length of a line over the cap
	longTerm bool  // … and whether it has its newline
	msgs     []string
	res      readResult // counts, and NextOffset as a length within data
	err      error
	ready    chan struct{}
}

// readParallel reads [start, end) in chunks cut at newlines: one goroutine
// reads, workers turn lines into messages, and this goroutine emits them in
// file order. It gives what readSequential gives, on all cores. Each byte
// is read once, but for the partial line at the end of a chunk, read again
// at the start of the next; a line longer than a chunk is measured first,
// then read whole, or skipped when it is over the cap.
func readParallel(ctx context.Context, f store.File, start, end, maxLine int64, workers int, emit func(msg string), progress func(n int64)) (readResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &chunkReader{ctx: ctx, f: f, end: end, maxLine: maxLine,
		jobs: make(chan *chunk, workers), ordered: make(chan *chunk, 2*workers),
		// Chunk buffers go back to a free list once parsed.
		free: make(chan []byte, 3*workers)}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(r.parseChunks)
	}
	go r.readChunks(start)
	res := readResult{NextOffset: start}
	var err error
	for c := range r.ordered {
		<-c.ready
		if err != nil {
			continue // drain
		}
		if c.err != nil {
			err = c.err
			cancel()
			continue
		}
		if err = ctx.Err(); err != nil {
			continue
		}
		res.add(c, emit)
		if progress != nil {
			progress(c.res.NextOffset)
		}
	}
	wg.Wait()
	return res, err
}

// chunkReader cuts [start, end) of a file into chunks of whole lines
// (readChunks), in file order on ordered, and hands each to a worker
// (parseChunks) on jobs.
type chunkReader struct {
	ctx     context.Context
	f       store.File
	end     int64
	maxLine int64
	jobs    chan *chunk
	ordered chan *chunk
	free    chan []byte
}

// parseChunks is a worker: it turns each chunk's lines into messages, and
// gives its buffer back.
func (r *chunkReader) parseChunks() {
	for c := range r.jobs {
		c.parse()
		if cap(c.data) == readChunk {
			r.recycle(c.data)
		}
		c.data = nil
		close(c.ready)
	}
}

// recycle puts a chunk buffer on the free list, when it has room.
func (r *chunkReader) recycle(buf []byte) {
	select {
	case r.free <- buf[:0]:
	default:
	}
}

// send queues a chunk in file order, and to a worker unless it is an
// error.
func (r *chunkReader) send(c *chunk) {
	r.ordered <- c
	if c.err == nil {
		r.jobs <- c
	} else {
		close(c.ready)
	}
}

// readChunks reads the range chunk by chunk, each cut after its last
// newline (the rest is read again at the start of the next).
func (r *chunkReader) readChunks(pos int64) {
	defer close(r.ordered)
	defer close(r.jobs)
	for pos < r.end {
		if r.ctx.Err() != nil {
			return
		}
		var buf []byte
		select {
		case buf = <-r.free:
			buf = buf[:readChunk]
		default:
			buf = make([]byte, readChunk)
		}
		want := min(int64(readChunk), r.end-pos)
		n, err := r.f.ReadAt(buf[:want], pos)
		if int64(n) < want {
			r.send(r.changed(pos+int64(n), err))
			return
		}
		cut := n
		if pos+int64(n) < r.end {
			cut = bytes.LastIndexByte(buf[:n], '\n') + 1
		}
		if cut == 0 {
			// A line longer than a chunk.
			c, next := r.longLine(pos, buf)
			r.send(c)
			if c.err != nil {
				return
			}
			pos = next
			continue
		}
		r.send(&chunk{maxLine: r.maxLine, ready: make(chan struct{}), data: buf[:cut]})
		pos += int64(cut)
	}
}

// changed is the error of a file that ended before the range did.
func (r *chunkReader) changed(pos int64, err error) *chunk {
	return &chunk{ready: make(chan struct{}), err: fmt.Errorf("%w: it ended at %d bytes instead of %d during the read (%v)", errTranscriptChanged, pos, r.end, err)}
}

// longLine is the chunk of a line at pos longer than a chunk (buf, given
// back): measured first, then read whole, or, over the cap, skipped. next
// is where the line after it starts.
func (r *chunkReader) longLine(pos int64, buf []byte) (c *chunk, next int64) {
	length, terminated, err := lineLength(r.ctx, r.f, pos, r.end, buf)
	r.recycle(buf)
	if err != nil {
		return &chunk{ready: make(chan struct{}), err: err}, pos
	}
	c = &chunk{maxLine: r.maxLine, ready: make(chan struct{})}
	if length > r.maxLine {
		c.long, c.longTerm = length, terminated
	} else {
		line := make([]byte, length, length+1)
		if k, err := r.f.ReadAt(line, pos); int64(k) < length {
			return r.changed(pos+int64(k), err), pos
		}
		if terminated {
			line = append(line, '\n')
		}
		c.data = line
	}
	next = pos + length
	if terminated {
		next++
	}
	return c, next
}

// add emits a parsed chunk's messages and counts its lines, after those
// of the chunks before it.
func (res *readResult) add(c *chunk, emit func(msg string)) {
	for _, m := range c.msgs {
		emit(m)
	}
	for _, l := range c.res.LongLines {
		l.Line += res.Lines
		l.Offset += res.NextOffset
		res.LongLines = append(res.LongLines, l)
	}
	res.Lines += c.res.Lines
	res.Messages += c.res.Messages
	res.Malformed += c.res.Malformed
	res.PartialTail = res.PartialTail || c.res.PartialTail
	res.NextOffset += c.res.NextOffset
}

// lineLength measures the line at pos: its length without the newline,
// and whether it has one before end. buf is scratch space.
func lineLength(ctx context.Context, f store.File, pos, end int64, buf []byte) (int64, bool, error) {
	for p := pos; p < end; {
		if err := ctx.Err(); err != nil {
			return 0, false, err
		}
		want := min(int64(len(buf)), end-p)
		n, err := f.ReadAt(buf[:want], p)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return p + int64(i) - pos, true, nil
		}
		if int64(n) < want {
			return 0, false, fmt.Errorf("%w: it ended at %d bytes instead of %d during the read (%v)", errTranscriptChanged, p+int64(n), end, err)
		}
		p += int64(n)
	}
	return end - pos, false, nil
}

// parse turns a chunk's lines into messages with readSequential's rules;
// res.NextOffset becomes the length of what the chunk consumed (and
// LongLines' offsets and numbers are within the chunk).
func (c *chunk) parse() {
	if c.long > 0 {
		c.res.Lines++
		if !c.longTerm {
			c.res.PartialTail = true
			return
		}
		c.res.LongLines = append(c.res.LongLines, LongLine{Line: 1, Bytes: c.long})
		c.res.NextOffset = c.long + 1
		return
	}
	data := c.data
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 { // the range's last line, without a newline
			if int64(len(data)) > c.maxLine {
				c.res.PartialTail = true
			} else if msg := normalizeLineFast(data); msg != "" {
				c.msgs = append(c.msgs, msg)
				c.res.Messages++
				c.res.NextOffset += int64(len(data))
			} else {
				c.res.PartialTail = true
			}
			c.res.Lines++
			return
		}
		line := data[:i]
		c.res.Lines++
		switch {
		case int64(i) > c.maxLine: // only when the cap is below a chunk
			c.res.LongLines = append(c.res.LongLines, LongLine{Line: c.res.Lines, Offset: c.res.NextOffset, Bytes: int64(i)})
		default:
			if msg := normalizeLineFast(line); msg != "" {
				c.msgs = append(c.msgs, msg)
				c.res.Messages++
			} else if !isBlankOrValidJSON(line) {
				c.res.Malformed++
			}
		}
		c.res.NextOffset += int64(i + 1)
		data = data[i+1:]
	}
}

// isBlankOrValidJSON tells a line that merely yields no message (blank,
// or bookkeeping JSON) from a malformed one, for the report.
func isBlankOrValidJSON(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return jsonValid(line)
		}
	}
	return true
}
