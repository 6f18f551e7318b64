package agentdb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
)

// MaxEventBytes is the largest event OpenClaw stores compressed (its
// schema's CHECK), and so the most a compressed row may decode to.
const MaxEventBytes = 4 << 20

var (
	decoderOnce sync.Once
	decoder     *zstd.Decoder
)

// zstdDecoder is shared: DecodeAll is safe for concurrent use. Its memory
// is bounded so that a damaged row cannot make it allocate without limit.
func zstdDecoder() *zstd.Decoder {
	decoderOnce.Do(func() {
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(2*MaxEventBytes))
	})
	return decoder
}

// DecodeEvent returns the JSON text of one transcript_events row: event_json
// as it is, or event_zstd decoded and checked against event_utf8_bytes.
// Exactly one of the two is set in a valid row. seq names the row in an
// error.
func DecodeEvent(seq int64, eventJSON []byte, jsonSet bool, eventZstd []byte, utf8Bytes sql.NullInt64) ([]byte, error) {
	switch {
	case jsonSet && eventZstd != nil:
		return nil, fmt.Errorf("event seq %d has both event_json and event_zstd", seq)
	case jsonSet:
		return eventJSON, nil
	case eventZstd == nil:
		return nil, fmt.Errorf("event seq %d has neither event_json nor event_zstd", seq)
	case !utf8Bytes.Valid || utf8Bytes.Int64 < 1 || utf8Bytes.Int64 > MaxEventBytes:
		return nil, fmt.Errorf("event seq %d is compressed but its event_utf8_bytes (%v) is not a size between 1 and %d", seq, utf8Bytes.Int64, MaxEventBytes)
	}
	out, err := zstdDecoder().DecodeAll(eventZstd, make([]byte, 0, utf8Bytes.Int64))
	if err != nil {
		return nil, fmt.Errorf("event seq %d: its zstd frame does not decode: %v", seq, err)
	}
	if int64(len(out)) != utf8Bytes.Int64 {
		return nil, fmt.Errorf("event seq %d decodes to %d bytes, but event_utf8_bytes says %d", seq, len(out), utf8Bytes.Int64)
	}
	if !utf8.Valid(out) {
		return nil, fmt.Errorf("event seq %d decodes to bytes that are not UTF-8", seq)
	}
	return out, nil
}

// rawEvent is one row as stored.
type rawEvent struct {
	seq        int64
	json       sql.NullString
	zstd       []byte
	utf8Bytes  sql.NullInt64
	navigation sql.NullString
	createdAt  sql.NullInt64
}

func (r *rawEvent) decode() ([]byte, error) {
	return DecodeEvent(r.seq, []byte(r.json.String), r.json.Valid, r.zstd, r.utf8Bytes)
}

func (db *DB) eventColumns() string {
	if db.Layout.Compressed {
		return "seq, event_json, event_zstd, event_utf8_bytes, navigation_json"
	}
	return "seq, event_json, NULL, NULL, NULL"
}

func scanEvent(rows interface{ Scan(...any) error }) (rawEvent, error) {
	var r rawEvent
	err := rows.Scan(&r.seq, &r.json, &r.zstd, &r.utf8Bytes, &r.navigation)
	return r, err
}

// Event returns the JSON text of one event.
func (db *DB) Event(ctx context.Context, sessionID string, seq int64) ([]byte, error) {
	r, err := scanEvent(db.db.QueryRowContext(ctx, `SELECT `+db.eventColumns()+` FROM transcript_events WHERE session_id = ? AND seq = ?`, sessionID, seq))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("session %s has no event seq %d (it was rewritten or deleted since it was listed)", sessionID, seq)
	}
	if err != nil {
		return nil, db.explain(err)
	}
	return r.decode()
}

// Body decodes one event in full, as transcript.DecodeEntry decodes a
// JSONL line.
func (db *DB) Body(ctx context.Context, sessionID string, seq int64) (*model.EntryBody, error) {
	text, err := db.Event(ctx, sessionID, seq)
	if err != nil {
		return nil, err
	}
	return transcript.DecodeEntry(text, fmt.Sprintf("event seq %d", seq))
}

// Event is one event as Events hands it out.
type Event struct {
	Seq int64
	// Text is the event's JSON, nil when TooLong.
	Text []byte
	// Bytes is its length in UTF-8 bytes, also when TooLong.
	Bytes int64
	// TooLong: the event is longer than the cap Events was given; its
	// body was neither read nor decoded (as a JSONL line over the cap is
	// skipped by transcript.ForEachLine).
	TooLong bool
}

// Events streams the events of a session from seq after+1 on, decoded, in
// seq order; fn returns false to stop. For sweeps and search: each body is
// decoded once, as it is read. An event of more than maxBytes (<= 0: no
// cap) comes as TooLong: SQLite measures it without loading it.
func (db *DB) Events(ctx context.Context, sessionID string, after, maxBytes int64, fn func(Event) bool) error {
	return db.eventsIn(ctx, db.db, sessionID, after, maxBytes, fn)
}

// eventsIn is Events in a transaction (or the pool).
func (db *DB) eventsIn(ctx context.Context, q querier, sessionID string, after, maxBytes int64, fn func(Event) bool) error {
	if maxBytes <= 0 {
		maxBytes = math.MaxInt64
	}
	rows, err := q.QueryContext(ctx, `SELECT `+db.cappedEventColumns()+` FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq`,
		maxBytes, sessionID, after)
	if err != nil {
		return db.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r rawEvent
		var size int64
		if err := rows.Scan(&r.seq, &r.json, &r.zstd, &r.utf8Bytes, &r.navigation, &size); err != nil {
			return db.explain(err)
		}
		ev := Event{Seq: r.seq, Bytes: size}
		if size > maxBytes {
			ev.TooLong = true
		} else if ev.Text, err = r.decode(); err != nil {
			return err
		}
		if !fn(ev) {
			return nil
		}
	}
	return db.explain(rows.Err())
}

// cappedEventColumns are eventColumns with each body left out (NULL) when
// its size, the last column, is over the first query argument. SQLite
// reads a value's size from its record header without loading it.
func (db *DB) cappedEventColumns() string {
	size := "octet_length(event_json)"
	if db.Layout.Compressed {
		size = "coalesce(event_utf8_bytes, octet_length(event_json))"
		return "seq, CASE WHEN " + size + " > ?1 THEN NULL ELSE event_json END, CASE WHEN " + size + " > ?1 THEN NULL ELSE event_zstd END, event_utf8_bytes, navigation_json, " + size
	}
	return "seq, CASE WHEN " + size + " > ?1 THEN NULL ELSE event_json END, NULL, NULL, NULL, " + size
}

// JSONL writes a session's events as the JSONL file they were or would be:
// one event per line.
func (db *DB) JSONL(ctx context.Context, sessionID string) ([]byte, error) {
	var buf bytes.Buffer
	err := db.Events(ctx, sessionID, -1, 0, func(ev Event) bool {
		buf.Write(ev.Text)
		buf.WriteByte('\n')
		return true
	})
	return buf.Bytes(), err
}
