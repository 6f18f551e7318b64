package transcript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
)

// copyTestdata copies a file of testdata into a temp folder.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	writeFile(t, path, mustRead(t, filepath.Join("testdata", name)))
	return path
}

func TestFileReader(t *testing.T) {
	t.Parallel()
	path := copyTestdata(t, "spec-branch.jsonl")
	ctx := context.Background()
	r := NewCache().File(path)
	ix, err := r.Index(ctx, Options{DeferValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Validated {
		t.Fatal("a deferred index starts unvalidated")
	}
	valid, err := r.Validate(ctx, ix, Options{})
	if err != nil || !valid.Validated || !sameIndex(valid, buildFile(t, path)) {
		t.Fatalf("validated: %v, %v", valid, err)
	}

	previews, err := r.Previews(ctx, valid.Entries, 30)
	if err != nil || len(previews) != len(valid.Entries) {
		t.Fatalf("previews %q, %v", previews, err)
	}
	for i, e := range valid.Entries {
		b, err := r.Body(ctx, e)
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if want := Preview(b, 30); previews[i].Text != want {
			t.Errorf("preview %d = %q, want %q", i, previews[i].Text, want)
		}
		if e := valid.Entries[i]; e.Type == model.TypeMessage && previews[i].Role != e.Role {
			t.Errorf("preview %d: role %v, the index says %v", i, previews[i].Role, e.Role)
		}
		if id := valid.Tree.ID(int32(i)); i > 0 && b.ID != id {
			t.Errorf("body %d has id %q, the index says %q", i, b.ID, id)
		}
	}

	got, err := r.Search(ctx, valid, "go-draft", nil)
	if err != nil || len(got) == 0 {
		t.Fatalf("search: %v, %v", got, err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	if want, _ := valid.Search(ctx, f, "go-draft", nil); !slices.Equal(got, want) {
		t.Errorf("search = %v, want %v", got, want)
	}
}

// Each kind of bad input gets an error that says what happened.
func TestFileReaderBadInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := copyTestdata(t, "spec-branch.jsonl")
	c := NewCache()
	ix, err := c.File(path).Index(ctx, Options{DeferValidation: true})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("another file's index", func(t *testing.T) {
		other := c.File(path + ".other")
		if _, err := other.Validate(ctx, ix, Options{}); err == nil || !strings.Contains(err.Error(), "cannot validate") {
			t.Errorf("validate: %v", err)
		}
		if _, err := other.Search(ctx, ix, "x", nil); err == nil || !strings.Contains(err.Error(), "cannot search") {
			t.Errorf("search: %v", err)
		}
	})

	t.Run("truncated after indexing", func(t *testing.T) {
		data := mustRead(t, path)
		short := filepath.Join(t.TempDir(), "short.jsonl")
		writeFile(t, short, data[:ix.Entries[len(ix.Entries)-1].Offset+10])
		r := c.File(short)
		previews, err := r.Previews(ctx, ix.Entries, 40)
		if err != nil {
			t.Fatal(err)
		}
		if last := previews[len(previews)-1].Text; !strings.Contains(last, "truncated") {
			t.Errorf("the cut entry's preview is %q", last)
		}
		if previews[1].Text == "" || strings.HasPrefix(previews[1].Text, "(") {
			t.Errorf("an entry before the cut lost its preview: %q", previews[1])
		}
		if _, err := r.Body(ctx, ix.Entries[len(ix.Entries)-1]); err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("body: %v", err)
		}
	})

	t.Run("deleted after indexing", func(t *testing.T) {
		gone := filepath.Join(t.TempDir(), "gone.jsonl")
		writeFile(t, gone, mustRead(t, path))
		r := c.File(gone)
		ix, err := r.Index(ctx, Options{DeferValidation: true})
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(gone)
		if _, err := r.Index(ctx, Options{}); !os.IsNotExist(err) {
			t.Errorf("index: %v", err)
		}
		if _, err := r.Validate(ctx, ix, Options{}); !os.IsNotExist(err) {
			t.Errorf("validate: %v", err)
		}
		if _, err := r.Previews(ctx, ix.Entries, 40); !os.IsNotExist(err) {
			t.Errorf("previews: %v", err)
		}
		if _, err := r.Body(ctx, ix.Entries[1]); !os.IsNotExist(err) {
			t.Errorf("body: %v", err)
		}
		if _, err := r.Search(ctx, ix, "x", nil); !os.IsNotExist(err) {
			t.Errorf("search: %v", err)
		}
	})
}

// manyLines is a transcript of n message lines in one chain.
func manyLines(n int) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	prev := ""
	for i := range n {
		id := fmt.Sprintf("%08x", i+1)
		b.WriteString(line(id, prev) + "\n")
		prev = id
	}
	return b.String()
}

// A cancelled job stops where it is: the reader returns ctx's error and
// reads no further. Each run cancels at its first progress report and
// checks that the report it stopped at is far from the end.
func TestFileReaderStopsWhenCancelled(t *testing.T) {
	defer func(old int) { chunkSize = old }(chunkSize)
	chunkSize = 4096
	// Over 4 MiB: over a thousand chunks for two workers.
	path := filepath.Join(t.TempDir(), "big.jsonl")
	writeFile(t, path, manyLines(40000))
	if fi, _ := os.Stat(path); fi.Size() < 4<<20 {
		t.Fatalf("the file is %d bytes: too small", fi.Size())
	}
	r := NewCache().File(path)
	ix, err := r.Index(context.Background(), Options{DeferValidation: true})
	if err != nil || ix.Validated {
		t.Fatalf("index: validated %v, %v", ix != nil && ix.Validated, err)
	}

	// stopAtFirst returns a context, and a progress function that cancels
	// it at the first report and records the last.
	stopAtFirst := func() (context.Context, func(done, total int64), *[2]int64) {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		var last [2]int64
		return ctx, func(done, total int64) { last = [2]int64{done, total}; cancel() }, &last
	}
	farFromEnd := func(what string, err error, last *[2]int64) {
		t.Helper()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err %v, want it cancelled", what, err)
		}
		if last[1] == 0 || last[0] > last[1]/2 {
			t.Errorf("%s went on after the cancel: %d of %d bytes", what, last[0], last[1])
		}
	}

	ctx, progress, last := stopAtFirst()
	_, err = NewCache().File(path).Index(ctx, Options{Progress: progress, Workers: 2})
	farFromEnd("index", err, last)

	ctx, progress, last = stopAtFirst()
	_, err = r.Validate(ctx, ix, Options{Progress: progress, Workers: 2})
	farFromEnd("validation", err, last)

	ctx, progress, last = stopAtFirst()
	_, err = r.Search(ctx, ix, "nowhere", progress)
	farFromEnd("search", err, last)

	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Previews(done, ix.Entries[:10], 40); !errors.Is(err, context.Canceled) {
		t.Errorf("previews: %v", err)
	}
	if _, err := r.Body(done, ix.Entries[1]); !errors.Is(err, context.Canceled) {
		t.Errorf("body: %v", err)
	}
}
