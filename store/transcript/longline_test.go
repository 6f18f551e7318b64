package transcript

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// writeLongLine writes a transcript of a header, an entry, one line of
// n bytes, then after (an entry, or nothing when the long line is the
// last, unterminated one).
func writeLongLine(t *testing.T, path string, n int, after string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(header + "\n" + line("a", "") + "\n")
	w.WriteString(`{"type":"message","id":"big","parentId":"a","message":{"role":"user","content":"`)
	piece := strings.Repeat("x", 1<<16)
	for written := 0; written < n; written += len(piece) {
		w.WriteString(piece)
	}
	if after != "" {
		w.WriteString(`"}}` + "\n" + after + "\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A line longer than the cap is reported and skipped, never loaded: the
// memory an index takes does not grow with the line (a 1 GB line took
// 1.7 GB and 20 s). Not parallel: it counts the bytes allocated.
func TestLineOverTheCapIsSkippedUnread(t *testing.T) {
	const maxLine = 256 << 10
	const long = 24 << 20 // 96 times the cap
	for _, tc := range []struct {
		name  string
		after string
	}{
		{"mid-file", line("b", "a")},
		{"last and unterminated", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s1.jsonl")
			writeLongLine(t, path, long, tc.after)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ix, err := NewCache().Open(context.Background(), path, Options{MaxLineBytes: maxLine, Workers: 2})
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("indexing allocated %d MiB for a %d MiB line over a %d KiB cap; want a few MiB whatever the line", alloc>>20, long>>20, maxLine>>10)
			}
			if tc.after == "" {
				if ix.Tail == nil || !ix.Tail.TooLong || ix.Tail.Line != 3 || ix.Tail.Parsed || len(ix.Entries) != 2 {
					t.Errorf("tail %+v, %d entries; want line 3 too long, unread, and 2 entries", ix.Tail, len(ix.Entries))
				}
				return
			}
			if !slices.Equal(ix.LongLines, []int32{3}) || !slices.Equal(ix.Malformed, []int32{3}) || ix.Lines != 4 || ix.Tail != nil {
				t.Errorf("long lines %v, malformed %v, %d lines, tail %+v; want line 3 long and malformed of 4", ix.LongLines, ix.Malformed, ix.Lines, ix.Tail)
			}
			if len(ix.Entries) != 3 || ix.Tree.LeafID() != "b" {
				t.Errorf("%d entries, leaf %q; want the header, a and b", len(ix.Entries), ix.Tree.LeafID())
			}
		})
	}
}

// Lines longer than the cap, wherever they fall against the chunks, are
// skipped alike, and an index extended over them agrees with one built at
// once.
func TestLinesOverTheCapAcrossChunks(t *testing.T) {
	defer func(c int, o int64) { chunkSize, lineOverhang = c, o }(chunkSize, lineOverhang)
	chunkSize, lineOverhang = 64, 8
	var b strings.Builder
	b.WriteString(header + "\n")
	want := []int32{}
	for i := range 40 {
		if i%3 == 1 {
			b.WriteString(`{"type":"message","id":"l` + strings.Repeat("y", 100+i*13) + `"}` + "\n")
			want = append(want, int32(i+2))
			continue
		}
		b.WriteString(`{"type":"m","id":"` + string(rune('a'+i%26)) + `"}` + "\n")
	}
	data := b.String()
	for _, workers := range []int{1, 3} {
		ix, err := Build(context.Background(), "mem", strings.NewReader(data), int64(len(data)), Options{MaxLineBytes: 100, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ix.LongLines, want) || !slices.Equal(ix.Malformed, want) || ix.Lines != 41 {
			t.Errorf("%d workers: long %v, malformed %v, %d lines; want long and malformed %v of 41", workers, ix.LongLines, ix.Malformed, ix.Lines, want)
		}
		half := int64(strings.LastIndex(data[:len(data)/2], "\n") + 1)
		first, err := Build(context.Background(), "mem", strings.NewReader(data[:half]), half, Options{MaxLineBytes: 100, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		grown, err := first.extend(context.Background(), strings.NewReader(data), int64(len(data)), Options{MaxLineBytes: 100, Workers: workers})
		if err != nil || !slices.Equal(grown.LongLines, want) || !slices.Equal(grown.Malformed, want) || len(grown.Entries) != len(ix.Entries) {
			t.Errorf("%d workers, extended: %v, long %v, %d entries", workers, err, grown.LongLines, len(grown.Entries))
		}
	}
}

// A transcript that shrinks while it is indexed (truncated by another
// program) is one sentence, wherever the cut falls: in a chunk, in the
// tail, inside a line over the cap.
func TestIndexOfAFileThatShrinks(t *testing.T) {
	t.Parallel()
	data := header + "\n" + line("a", "") + "\n" + `{"type":"message","id":"big","x":"` + strings.Repeat("y", 5000) + `"}` + "\n" + line("b", "a") + "\n" + `{"torn`
	for _, cut := range []int{0, 10, len(header) + 1, len(data) / 2, len(data) - 40, len(data) - 3} {
		for _, maxLine := range []int64{0, 1000} {
			r := strings.NewReader(data[:cut])
			_, err := Build(context.Background(), "s1.jsonl", r, int64(len(data)), Options{MaxLineBytes: maxLine, Workers: 2})
			if err == nil || !strings.Contains(err.Error(), "changed while it was being indexed") {
				t.Errorf("cut at %d, cap %d: %v, want the file named as changed", cut, maxLine, err)
			}
		}
	}
}
