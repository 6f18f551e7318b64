package observer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

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
	var readErr error
	lastReport := start
	err = transcript.ForEachLine(f, start, end, func(l transcript.Line) bool {
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
	res.BytesRead = res.NextOffset - start
	// What was read is only sound if the file is still the one opened, at
	// least as long as it was.
	after, err := f.Stat()
	if err != nil {
		return res, err
	}
	if after.Size() < end {
		return res, fmt.Errorf("%w: it shrank from %d to %d bytes during the read", errTranscriptChanged, end, after.Size())
	}
	if cur, err := fsys.Stat(path); err != nil || !sameFile(cur, fi) {
		return res, fmt.Errorf("%w: %s was replaced during the read", errTranscriptChanged, path)
	}
	return res, nil
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

func sameFile(a, b os.FileInfo) bool {
	sa, okA := a.Sys().(*syscall.Stat_t)
	sb, okB := b.Sys().(*syscall.Stat_t)
	if !okA || !okB {
		return os.SameFile(a, b)
	}
	return sa.Ino == sb.Ino && sa.Dev == sb.Dev
}
