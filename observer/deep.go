package observer

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/transcript"
)

// DeepCheck reads the unobserved range of one row's transcript and reports
// what only content can tell: whether the last line still waits for its
// newline, and whether any pending line yields a message for the observer.
// It stops at the first message unless countAll is set. A line longer
// than maxLine (0: transcript.DefaultMaxLineBytes) is not decoded: it
// yields no message, as the sweep skips it.
func DeepCheck(fsys store.FS, row *model.SessionRow, countAll bool, maxLine int64) *model.TailFacts {
	facts := &model.TailFacts{}
	if !row.Exists || row.Origin == model.OriginSQLite || !row.Name.Kind.IsTranscript() {
		return nil
	}
	f, err := fsys.Open(row.File)
	if err != nil {
		facts.Err = err.Error()
		return facts
	}
	defer f.Close()
	start := row.Selection.StartOffset
	if maxLine <= 0 {
		maxLine = transcript.DefaultMaxLineBytes
	}
	err = transcript.ForEachLine(f, start, row.Size, maxLine, func(l transcript.Line) bool {
		if !l.Terminated {
			facts.PartialTail = true
			facts.TailBytes = l.Len
		}
		if !l.TooLong && NormalizeLine(l.Bytes) != "" {
			facts.Messages++
			if !countAll && l.Terminated {
				// Keep going only to learn about the tail, cheaply.
				return false
			}
		}
		return true
	})
	if err != nil {
		facts.Err = err.Error()
	}
	facts.MessagesExact = countAll
	if !facts.PartialTail && !countAll {
		partial, tail, err := partialTail(f, row.Size)
		if err != nil {
			facts.Err = err.Error()
		}
		// A tail the observer already took (it parsed) is not pending.
		if partial && row.Size-tail >= start {
			facts.PartialTail, facts.TailBytes = true, tail
		}
	}
	return facts
}

// partialTail looks back from the end of the file for the last newline.
func partialTail(f store.File, size int64) (bool, int64, error) {
	if size == 0 {
		return false, 0, nil
	}
	const step = 64 << 10
	buf := make([]byte, step)
	for end := size; end > 0; end -= step {
		from := max(0, end-step)
		n, err := f.ReadAt(buf[:end-from], from)
		if int64(n) < end-from {
			return false, 0, fmt.Errorf("read the end of the file: %v", err)
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				tail := size - (from + int64(i) + 1)
				return tail > 0, tail, nil
			}
		}
	}
	return true, size, nil
}

// Deepen runs DeepCheck over the rows of a snapshot, in parallel, and
// re-diagnoses them. progress, when set, is called after each row.
func Deepen(ctx context.Context, fsys store.FS, snap *store.Snapshot, progress func(done, total int)) error {
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				snap.Rows[i].Tail = DeepCheck(fsys, &snap.Rows[i], false, snap.MaxLineBytes)
				snap.Rediagnose(i)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(snap.Rows))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range snap.Rows {
		select {
		case jobs <- i:
		case <-ctx.Done():
			close(jobs)
			wg.Wait()
			return ctx.Err()
		}
	}
	close(jobs)
	wg.Wait()
	return nil
}
