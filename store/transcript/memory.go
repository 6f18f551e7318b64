package transcript

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"clawvault-tui/model"
)

// Memory is a transcript held in memory, read as a Reader: a compressed
// archive (a .jsonl.deleted.<ts>.zst file, a cold archive of the SQLite-era
// store) decoded once, on first use, by load.
type Memory struct {
	name string
	load func(ctx context.Context) ([]byte, error)

	mu   sync.Mutex
	data []byte
	err  error
}

var _ Reader = (*Memory)(nil)

// NewMemory returns the reader of the transcript load returns; name is its
// index's Path.
func NewMemory(name string, load func(ctx context.Context) ([]byte, error)) *Memory {
	return &Memory{name: name, load: load}
}

func (m *Memory) bytes(ctx context.Context) (*bytes.Reader, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil && m.err == nil {
		m.data, m.err = m.load(ctx)
		if m.err != nil && ctx.Err() != nil {
			m.err = nil // cancelled: the next call loads again
			return nil, ctx.Err()
		}
	}
	if m.err != nil {
		return nil, m.err
	}
	return bytes.NewReader(m.data), nil
}

// Index builds the index of the whole transcript.
func (m *Memory) Index(ctx context.Context, opt Options) (*Index, error) {
	r, err := m.bytes(ctx)
	if err != nil {
		return nil, err
	}
	return Build(ctx, m.name, r, r.Size(), opt)
}

// Validate checks the lines ix read by their prefix only.
func (m *Memory) Validate(ctx context.Context, ix *Index, opt Options) (*Index, error) {
	if ix.Validated {
		return ix, nil
	}
	r, err := m.bytes(ctx)
	if err != nil {
		return nil, err
	}
	return ix.Validate(ctx, r, opt)
}

// Previews decodes the entries' lines.
func (m *Memory) Previews(ctx context.Context, entries []model.Entry, width int) ([]PreviewLine, error) {
	r, err := m.bytes(ctx)
	if err != nil {
		return nil, err
	}
	return PreviewLines(ctx, entries, width, func(e model.Entry) (*model.EntryBody, error) { return ReadBody(r, e) })
}

// Body decodes one entry's line.
func (m *Memory) Body(ctx context.Context, e model.Entry) (*model.EntryBody, error) {
	r, err := m.bytes(ctx)
	if err != nil {
		return nil, err
	}
	return ReadBody(r, e)
}

// Search matches query in every line.
func (m *Memory) Search(ctx context.Context, ix *Index, query string, progress func(done, total int64)) ([]int32, error) {
	if ix.Path != m.name {
		return nil, fmt.Errorf("the index of %s cannot search %s", ix.Path, m.name)
	}
	r, err := m.bytes(ctx)
	if err != nil {
		return nil, err
	}
	return ix.Search(ctx, r, query, progress)
}
