package agentdb

import (
	"context"
	"fmt"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
)

// Session is one session of a SQLite-era store read as a
// transcript.Reader: its index from the store's identities (no body
// decoded), its bodies by seq. Each call opens the store and closes it
// before returning, as transcript.File does with its file: the gateway may
// be writing, and a session that changed is seen as it is now.
type Session struct {
	Store, SessionID string
}

var _ transcript.Reader = (*Session)(nil)

// NewSession returns the reader of one session of the store.
func NewSession(store, sessionID string) *Session {
	return &Session{Store: store, SessionID: sessionID}
}

func (s *Session) with(ctx context.Context, fn func(db *DB) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	db, err := Open(ctx, s.Store)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

// Index reads the session's tree.
func (s *Session) Index(ctx context.Context, opt transcript.Options) (*transcript.Index, error) {
	var ix *transcript.Index
	err := s.with(ctx, func(db *DB) error {
		st, err := db.SessionStats(ctx, s.SessionID, -1)
		if err != nil {
			return err
		}
		if opt.Progress != nil {
			opt.Progress(0, st.Bytes)
		}
		t, err := db.Transcript(ctx, s.SessionID)
		if err != nil {
			return err
		}
		if opt.Progress != nil {
			opt.Progress(st.Bytes, st.Bytes)
		}
		ix = t.Index(s.Store, st.Bytes)
		return nil
	})
	return ix, err
}

// Validate has nothing to do: SQLite holds whole events only.
func (s *Session) Validate(_ context.Context, ix *transcript.Index, _ transcript.Options) (*transcript.Index, error) {
	return ix, nil
}

// Previews decodes the entries' events.
func (s *Session) Previews(ctx context.Context, entries []model.Entry, width int) ([]transcript.PreviewLine, error) {
	var out []transcript.PreviewLine
	err := s.with(ctx, func(db *DB) error {
		var err error
		out, err = transcript.PreviewLines(ctx, entries, width, func(e model.Entry) (*model.EntryBody, error) {
			return db.Body(ctx, s.SessionID, e.Offset)
		})
		return err
	})
	return out, err
}

// Body decodes one event.
func (s *Session) Body(ctx context.Context, e model.Entry) (*model.EntryBody, error) {
	var b *model.EntryBody
	err := s.with(ctx, func(db *DB) error {
		var err error
		b, err = db.Body(ctx, s.SessionID, e.Offset)
		return err
	})
	return b, err
}

// Search reads the events in seq order and matches query in each, as a
// file's lines are matched.
func (s *Session) Search(ctx context.Context, ix *transcript.Index, query string, progress func(done, total int64)) ([]int32, error) {
	if ix.Path != s.Store+"#"+s.SessionID {
		return nil, fmt.Errorf("the index of %s cannot search session %s", ix.Path, s.SessionID)
	}
	match := transcript.Matcher(query)
	if match == nil || len(ix.Entries) == 0 {
		return nil, nil
	}
	var out []int32
	var done int64
	pos := 0
	err := s.with(ctx, func(db *DB) error {
		return db.Events(ctx, s.SessionID, -1, 0, func(ev Event) bool {
			if ctx.Err() != nil {
				return false
			}
			seq, text := ev.Seq, ev.Text
			for pos < len(ix.Entries) && ix.Entries[pos].Offset < seq {
				pos++
			}
			if pos < len(ix.Entries) && ix.Entries[pos].Offset == seq && match(text) {
				out = append(out, int32(pos))
			}
			done += int64(len(text)) + 1
			if progress != nil && seq%256 == 0 {
				progress(done, ix.Size)
			}
			return true
		})
	})
	if err == nil {
		err = ctx.Err()
	}
	return out, err
}
