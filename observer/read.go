package observer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
// during the read is an error (errTranscriptChanged).
func readIncremental(ctx context.Context, fsys store.FS, path string, start int64, emit func(msg string), progress func(n int64)) (readResult, error) {
	res := readResult{NextOffset: start}
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
		res, err = readParallel(ctx, f, start, end, workers, emit, progress)
	} else {
		res, err = readSequential(ctx, f, start, end, emit, progress)
	}
	if err != nil {
		return res, err
	}
	res.BytesRead = res.NextOffset - start
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

// readSequential reads [start, end) line by line on this goroutine.
func readSequential(ctx context.Context, f store.File, start, end int64, emit func(msg string), progress func(n int64)) (readResult, error) {
	res := readResult{NextOffset: start}
	var readErr error
	lastReport := start
	err := transcript.ForEachLine(f, start, end, func(l transcript.Line) bool {
		res.Lines++
		if res.Lines%4096 == 0 {
			if readErr = ctx.Err(); readErr != nil {
				return false
			}
			if progress != nil {
				progress(l.Offset - lastReport)
				lastReport = l.Offset
			}
		}
		msg := normalizeLineFast(l.Bytes)
		if !l.Terminated {
			if msg == "" {
				res.PartialTail = true
				return true
			}
			emit(msg)
			res.Messages++
			res.NextOffset = l.Offset + int64(len(l.Bytes))
			return true
		}
		if msg != "" {
			emit(msg)
			res.Messages++
		} else if !isBlankOrValidJSON(l.Bytes) {
			res.Malformed++
		}
		res.NextOffset = l.Offset + int64(len(l.Bytes)) + 1
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
// without a newline) and, once a worker is done with it, their messages.
type chunk struct {
	data  []byte
	last  bool // the range ends in this chunk
	msgs  []string
	res   readResult // counts, and NextOffset as a length within data
	err   error
	ready chan struct{}
}

// readParallel reads [start, end) in chunks cut at newlines: one goroutine
// reads, workers turn lines into messages, and this goroutine emits them in
// file order. It gives what readSequential gives, on all cores.
func readParallel(ctx context.Context, f store.File, start, end int64, workers int, emit func(msg string), progress func(n int64)) (readResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *chunk, workers)
	ordered := make(chan *chunk, 2*workers)
	// Chunk buffers go back to a free list once parsed.
	free := make(chan []byte, 3*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				c.parse()
				select {
				case free <- c.data[:0]:
				default:
				}
				c.data = nil
				close(c.ready)
			}
		}()
	}
	go func() {
		defer close(ordered)
		defer close(jobs)
		var carry []byte // a line begun in the previous read
		for pos := start; pos < end || len(carry) > 0; {
			if ctx.Err() != nil {
				return
			}
			var buf []byte
			select {
			case buf = <-free:
			default:
			}
			want := min(int64(readChunk), end-pos)
			if cap(buf) < len(carry)+int(want) {
				buf = make([]byte, 0, max(len(carry)+int(want), readChunk+len(carry)))
			}
			buf = append(buf[:0], carry...)
			n, err := f.ReadAt(buf[len(buf):len(buf)+int(want)], pos)
			buf = buf[:len(buf)+n]
			pos += int64(n)
			c := &chunk{ready: make(chan struct{})}
			if int64(n) < want {
				c.err = fmt.Errorf("%w: it ended at %d bytes instead of %d during the read (%v)", errTranscriptChanged, pos, end, err)
				close(c.ready)
				ordered <- c
				return
			}
			cut := len(buf)
			if pos < end {
				cut = bytes.LastIndexByte(buf, '\n') + 1
				if cut == 0 { // a line longer than the chunk: read on
					carry = buf
					continue
				}
			}
			carry = append([]byte(nil), buf[cut:]...)
			c.data, c.last = buf[:cut], pos >= end && len(carry) == 0
			ordered <- c
			jobs <- c
			if c.last {
				return
			}
		}
	}()
	res := readResult{NextOffset: start}
	var err error
	for c := range ordered {
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
		for _, m := range c.msgs {
			emit(m)
		}
		res.Lines += c.res.Lines
		res.Messages += c.res.Messages
		res.Malformed += c.res.Malformed
		res.PartialTail = res.PartialTail || c.res.PartialTail
		res.NextOffset += c.res.NextOffset
		if progress != nil {
			progress(c.res.NextOffset)
		}
	}
	wg.Wait()
	return res, err
}

// parse turns a chunk's lines into messages with readSequential's rules;
// res.NextOffset becomes the length of what the chunk consumed.
func (c *chunk) parse() {
	data := c.data
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 { // the range's last line, without a newline
			if msg := normalizeLineFast(data); msg != "" {
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
		if msg := normalizeLineFast(line); msg != "" {
			c.msgs = append(c.msgs, msg)
			c.res.Messages++
		} else if !isBlankOrValidJSON(line) {
			c.res.Malformed++
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
