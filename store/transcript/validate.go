package transcript

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"clawvault-tui/model"
)

// Validate finishes an index built with DeferValidation: it checks every
// line that was read by its prefix only, as strictly as JSON.parse, and
// returns the exact index. That is ix itself, marked validated, when every
// line is valid JSON and the prefix told the whole story; otherwise a new
// index without the bad lines, which are reported as malformed, and with the
// flags only the whole line shows (appendMode "side", excludeFromContext),
// its tree rebuilt. ix is never modified.
func (ix *Index) Validate(ctx context.Context, r io.ReaderAt, opt Options) (*Index, error) {
	if ix.Validated {
		return ix, nil
	}
	bad, flagged, err := ix.findInvalid(ctx, r, opt)
	if err != nil {
		return nil, err
	}
	next := *ix
	next.validEnd = len(ix.Entries)
	next.prefixOnly = 0
	next.Validated = true
	if len(bad) == 0 && len(flagged) == 0 {
		return &next, nil
	}
	if len(bad) == 0 {
		next.Entries = slices.Clone(ix.Entries)
		for i, f := range flagged {
			next.Entries[i].Flags |= f
		}
		next.finish(r)
		next.Validated = true
		return &next, nil
	}
	drop := make(map[int32]bool, len(bad))
	next.Malformed = slices.Clone(ix.Malformed)
	for _, i := range bad {
		drop[i] = true
		next.Malformed = append(next.Malformed, ix.Entries[i].Line)
	}
	slices.Sort(next.Malformed)
	next.Entries = make([]model.Entry, 0, len(ix.Entries)-len(bad))
	next.Facts = map[int32]model.TreeFacts{}
	for i, e := range ix.Entries {
		if drop[int32(i)] {
			continue
		}
		if f, ok := ix.Facts[int32(i)]; ok {
			next.Facts[int32(len(next.Entries))] = f
		}
		e.Flags |= flagged[int32(i)]
		next.Entries = append(next.Entries, e)
	}
	next.validEnd = len(next.Entries)
	next.prefixOnly = 0
	if ix.Tail != nil && ix.Tail.Parsed && drop[int32(len(ix.Entries)-1)] {
		t := *ix.Tail
		t.Parsed = false
		next.Tail = &t
	}
	next.finish(r)
	next.Validated = true
	return &next, nil
}

// findInvalid reads the prefix-only lines back in blocks of about a chunk
// and returns the positions of those that are not valid JSON objects, and
// the flags the rest of a valid line adds.
func (ix *Index) findInvalid(ctx context.Context, r io.ReaderAt, opt Options) ([]int32, map[int32]model.EntryFlags, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	v := &validation{ix: ix, r: r, progress: opt.Progress}
	if n := len(ix.Entries); n > 0 && ix.validEnd < n {
		v.total = ix.Entries[n-1].Offset - ix.Entries[ix.validEnd].Offset
	}
	next := make(chan entryBlock)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var buf []byte
			for b := range next {
				buf = v.check(b, buf)
			}
		})
	}
	for _, b := range ix.prefixOnlyBlocks() {
		select {
		case next <- b:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	slices.Sort(v.bad)
	return v.bad, v.flagged, v.firstErr
}

// entryBlock is the entry positions [from, to).
type entryBlock struct{ from, to int }

// prefixOnlyBlocks cuts the entries read by their prefix only into blocks
// of about a chunk of the file, each starting at such an entry.
func (ix *Index) prefixOnlyBlocks() []entryBlock {
	var blocks []entryBlock
	for i := ix.validEnd; i < len(ix.Entries); {
		if ix.Entries[i].Flags&model.FlagPrefixOnly == 0 {
			i++
			continue
		}
		j, start := i, ix.Entries[i].Offset
		for j < len(ix.Entries) && ix.Entries[j].Offset-start < int64(chunkSize) {
			j++
		}
		blocks = append(blocks, entryBlock{i, j})
		i = j
	}
	return blocks
}

// validation gathers what the workers of findInvalid find.
type validation struct {
	ix       *Index
	r        io.ReaderAt
	progress func(done, total int64)
	total    int64

	mu       sync.Mutex
	done     int64
	bad      []int32
	flagged  map[int32]model.EntryFlags
	firstErr error
}

// check reads one block's lines with one read into buf (returned, to be
// used again) and sniffs its prefix-only lines in full.
func (v *validation) check(b entryBlock, buf []byte) []byte {
	first, last := v.ix.Entries[b.from], v.ix.Entries[b.to-1]
	span := last.Offset + int64(last.Length) - first.Offset
	buf = slices.Grow(buf[:0], int(span))[:span]
	if n, err := v.r.ReadAt(buf, first.Offset); int64(n) < span {
		v.mu.Lock()
		if v.firstErr == nil {
			v.firstErr = fmt.Errorf("validate: read %d bytes at %d: %v (the file changed)", span, first.Offset, err)
		}
		v.mu.Unlock()
		return buf
	}
	var local []int32
	var localFlags map[int32]model.EntryFlags
	for i := b.from; i < b.to; i++ {
		e := v.ix.Entries[i]
		if e.Flags&model.FlagPrefixOnly == 0 {
			continue
		}
		info, ok := SniffLine(buf[e.Offset-first.Offset : e.Offset-first.Offset+int64(e.Length)])
		if !ok {
			local = append(local, int32(i))
			continue
		}
		if f := info.lateFlags(); f != 0 {
			if localFlags == nil {
				localFlags = map[int32]model.EntryFlags{}
			}
			localFlags[int32(i)] = f
		}
	}
	v.add(local, localFlags, span)
	return buf
}

// add records one block's findings and reports progress.
func (v *validation) add(bad []int32, flags map[int32]model.EntryFlags, span int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.bad = append(v.bad, bad...)
	for i, f := range flags {
		if v.flagged == nil {
			v.flagged = map[int32]model.EntryFlags{}
		}
		v.flagged[i] = f
	}
	v.done += span
	if v.progress != nil {
		v.progress(v.done, v.total)
	}
}

// lateFlags are the entry flags a message line's prefix cannot show.
func (info *LineInfo) lateFlags() model.EntryFlags {
	var f model.EntryFlags
	if info.appendMode == appendModeSide {
		f |= model.FlagSideAppend
	}
	if info.excludeContext && info.Type == model.TypeMessage {
		f |= model.FlagExcludeContext
	}
	return f
}
