package transcript

import (
	"context"
	"fmt"
	"os"

	"clawvault-tui/model"
	"clawvault-tui/store/regfile"
)

// Reader is one transcript as the TUI reads it: the index of its entries,
// their bodies and a text search. A JSONL file is one kind (File); a
// transcript kept in a database is another. An entry is addressed by the
// model.Entry its index holds, whose Offset is the entry's position in its
// container: a byte offset in a file, a row number in a table. Callers
// treat it as opaque, a key that survives re-indexing.
//
// Every method may run long on a big transcript: each stops when ctx is
// cancelled and then returns ctx's error.
type Reader interface {
	// Index returns the index of the entries, reporting progress through
	// opt.Progress. A reader may answer from a cache, or extend what it
	// indexed before when the transcript only grew.
	Index(ctx context.Context, opt Options) (*Index, error)
	// Validate finishes an index built with opt.DeferValidation (see
	// Index.Validate); a reader that reads every entry in full returns ix.
	Validate(ctx context.Context, ix *Index, opt Options) (*Index, error)
	// Previews returns one line of text per entry, at most width runes
	// (see Preview), with the role of each message (see PreviewLine). An
	// entry that cannot be read gets the reason in parentheses; the error
	// says the transcript could not be read at all. Only the entries asked
	// for are read.
	Previews(ctx context.Context, entries []model.Entry, width int) ([]PreviewLine, error)
	// Body reads and decodes one entry in full.
	Body(ctx context.Context, e model.Entry) (*model.EntryBody, error)
	// Search returns the positions in ix.Entries of the entries that
	// contain query, ignoring ASCII case (see Index.Search).
	Search(ctx context.Context, ix *Index, query string, progress func(done, total int64)) ([]int32, error)
}

// File is a JSONL transcript on disk, read as a Reader. Its indexes go
// through the Cache it came from. Each call opens the file and closes it
// before returning: holding it open between calls would keep a deleted or
// rotated transcript alive, and a file that was rewritten would go unseen.
type File struct {
	path  string
	cache *Cache
}

var _ Reader = (*File)(nil)

// File returns the reader of the transcript at path, indexed through c.
func (c *Cache) File(path string) *File {
	return &File{path: path, cache: c}
}

// Path is the file the reader reads.
func (f *File) Path() string { return f.path }

// Index returns the file's index: from the cache when the file is
// unchanged, extended when it only grew, built otherwise.
func (f *File) Index(ctx context.Context, opt Options) (*Index, error) {
	return f.cache.Open(ctx, f.path, opt)
}

// Validate checks the lines ix read by their prefix only.
func (f *File) Validate(ctx context.Context, ix *Index, opt Options) (*Index, error) {
	if ix.Validated {
		return ix, nil
	}
	fh, err := f.openFor(ix, "validate")
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ix.Validate(ctx, fh, opt)
}

// Previews reads the entries' lines one by one, with the file open once.
func (f *File) Previews(ctx context.Context, entries []model.Entry, width int) ([]PreviewLine, error) {
	fh, err := regfile.Open(f.path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return PreviewLines(ctx, entries, width, func(e model.Entry) (*model.EntryBody, error) { return ReadBody(fh, e) })
}

// Body reads and decodes the entry's line.
func (f *File) Body(ctx context.Context, e model.Entry) (*model.EntryBody, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fh, err := regfile.Open(f.path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ReadBody(fh, e)
}

// Search reads the file in blocks of lines and matches query in each.
func (f *File) Search(ctx context.Context, ix *Index, query string, progress func(done, total int64)) ([]int32, error) {
	fh, err := f.openFor(ix, "search")
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ix.Search(ctx, fh, query, progress)
}

// openFor opens the file for work on ix, which must be the file's own index.
func (f *File) openFor(ix *Index, work string) (*os.File, error) {
	if ix.Path != f.path {
		return nil, fmt.Errorf("the index of %s cannot %s %s", ix.Path, work, f.path)
	}
	return regfile.Open(f.path)
}
