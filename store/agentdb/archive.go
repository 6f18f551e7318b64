package agentdb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"clawvault-tui/store/regfile"
)

// ArchiveKind tells the two archive tables apart.
type ArchiveKind string

const (
	// ArchiveReclaimed: session_transcript_archives, a transcript generation
	// reclaimed on delete or reset (the .jsonl.deleted/.reset file beside
	// it is derived from this row).
	ArchiveReclaimed ArchiveKind = "archive"
	// ArchiveCold: session_transcript_cold_archives, a retained generation
	// moved out of transcript_events into a compressed JSONL file or blob.
	ArchiveCold ArchiveKind = "cold"
)

// Archive describes one archived transcript without its bytes.
type Archive struct {
	Kind       ArchiveKind
	SessionID  string
	Generation string
	Key        string // reclaimed archives only
	Reason     string // deleted or reset (reclaimed archives)
	Encoding   string // identity or zstd (cold archives are zstd)
	Name       string
	SHA256     string
	// StoredBytes is the archive's size as stored; RawBytes the JSONL's
	// (cold archives record it, reclaimed ones when identity-encoded).
	StoredBytes int64
	RawBytes    int64
	Events      int64 // cold archives
	LastSeq     int64 // cold archives
	CreatedAt   time.Time
	// Storage is sqlite (a blob in the row) or file (File, under
	// sessions/cold/).
	Storage string
	File    string
}

// ColdDir is where OpenClaw keeps cold archive files for the store at
// dbPath: a store in a folder named agent uses its sibling sessions/cold/,
// any other the cold/ folder beside it.
func ColdDir(dbPath string) string {
	dir := filepath.Dir(dbPath)
	if filepath.Base(dir) == "agent" {
		return filepath.Join(filepath.Dir(dir), "sessions", "cold")
	}
	return filepath.Join(dir, "cold")
}

// Archives lists both archive tables, oldest first, without reading a blob.
func (db *DB) Archives(ctx context.Context) ([]Archive, error) {
	var out []Archive
	if db.Layout.Archives {
		rows, err := db.db.QueryContext(ctx, `SELECT session_id, generation, session_key, reason, encoding, archive_name,
archive_sha256, length(archive_blob), created_at FROM session_transcript_archives ORDER BY created_at, session_id, generation`)
		if err != nil {
			return nil, db.explain(err)
		}
		for rows.Next() {
			a := Archive{Kind: ArchiveReclaimed, Storage: "sqlite"}
			var created sql.NullInt64
			if err := rows.Scan(&a.SessionID, &a.Generation, &a.Key, &a.Reason, &a.Encoding, &a.Name, &a.SHA256, &a.StoredBytes, &created); err != nil {
				rows.Close()
				return nil, db.explain(err)
			}
			a.CreatedAt = millis(created)
			if a.Encoding == "identity" {
				a.RawBytes = a.StoredBytes
			}
			out = append(out, a)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, db.explain(err)
		}
	}
	if db.Layout.ColdArchives {
		rows, err := db.db.QueryContext(ctx, `SELECT session_id, generation, archive_name, archive_sha256, event_count, raw_bytes,
archive_bytes, last_seq, archived_at, storage FROM session_transcript_cold_archives ORDER BY archived_at, session_id`)
		if err != nil {
			return nil, db.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			a := Archive{Kind: ArchiveCold, Encoding: "zstd"}
			var archived sql.NullInt64
			if err := rows.Scan(&a.SessionID, &a.Generation, &a.Name, &a.SHA256, &a.Events, &a.RawBytes, &a.StoredBytes,
				&a.LastSeq, &archived, &a.Storage); err != nil {
				return nil, db.explain(err)
			}
			a.CreatedAt = millis(archived)
			if a.Storage == "file" && baseName(a.Name) {
				a.File = filepath.Join(ColdDir(db.Path), a.Name)
			}
			out = append(out, a)
		}
		if err := rows.Err(); err != nil {
			return nil, db.explain(err)
		}
	}
	return out, nil
}

// ArchiveJSONL returns an archive's transcript as JSONL: the blob (or the
// cold file), decompressed when zstd-encoded. A sha256 that matches neither
// the stored nor the decoded bytes is reported with the bytes.
func (db *DB) ArchiveJSONL(ctx context.Context, a Archive) ([]byte, error) {
	var stored []byte
	switch {
	case a.Storage == "file":
		if err := coldFileInside(a); err != nil {
			return nil, err
		}
		data, err := regfile.ReadFile(a.File)
		if err != nil {
			return nil, fmt.Errorf("the cold archive of session %s: %v", a.SessionID, err)
		}
		stored = data
	case a.Kind == ArchiveCold:
		if err := db.db.QueryRowContext(ctx, `SELECT archive_blob FROM session_transcript_cold_archives WHERE session_id = ?`, a.SessionID).Scan(&stored); err != nil {
			return nil, db.explain(err)
		}
	default:
		if err := db.db.QueryRowContext(ctx, `SELECT archive_blob FROM session_transcript_archives WHERE session_id = ? AND generation = ?`,
			a.SessionID, a.Generation).Scan(&stored); err != nil {
			return nil, db.explain(err)
		}
	}
	data := stored
	if a.Encoding == "zstd" {
		var err error
		if data, err = DecompressJSONL(stored); err != nil {
			return nil, fmt.Errorf("archive %s: %v", a.Name, err)
		}
	}
	if a.SHA256 != "" && !matchesSHA256(a.SHA256, stored) && !matchesSHA256(a.SHA256, data) {
		return data, fmt.Errorf("archive %s does not match its recorded sha256 (changed or damaged); its content is shown as it is", a.Name)
	}
	return data, nil
}

// baseName reports an archive_name that names a file in its folder: the
// store is data, and a name climbing out of the folder (or into another)
// is not followed.
func baseName(name string) bool {
	return name != "" && name != "." && name != ".." && filepath.Base(name) == name && !strings.ContainsAny(name, `/\\`)
}

// coldFileInside checks that a cold archive file is in the store's cold
// folder once symbolic links are followed: transcripts are read only inside
// the state dir, and a link in the folder may lead anywhere.
func coldFileInside(a Archive) error {
	if a.File == "" {
		return fmt.Errorf("the cold archive of session %s is named %q, which is not a file name in the cold archive folder; it is not read", a.SessionID, a.Name)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(a.File))
	if err != nil {
		return fmt.Errorf("the cold archive of session %s: %v", a.SessionID, err)
	}
	real, err := filepath.EvalSymlinks(a.File)
	if err != nil {
		return fmt.Errorf("the cold archive of session %s: %v", a.SessionID, err)
	}
	if filepath.Dir(real) != dir {
		return fmt.Errorf("the cold archive %s of session %s leads to %s, outside the cold archive folder; it is not read", a.File, a.SessionID, real)
	}
	return nil
}

func matchesSHA256(want string, data []byte) bool {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]) == want
}

// maxArchiveBytes bounds a decompressed archive (a transcript larger than
// this is not one OpenClaw writes).
const maxArchiveBytes = 4 << 30

var (
	archiveDecoderOnce sync.Once
	archiveDecoder     *zstd.Decoder
)

// DecompressJSONL decodes a zstd-compressed JSONL archive (a cold archive,
// a .jsonl.deleted.<ts>.zst file).
func DecompressJSONL(data []byte) ([]byte, error) {
	archiveDecoderOnce.Do(func() {
		archiveDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxArchiveBytes))
	})
	out, err := archiveDecoder.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("its zstd frame does not decode: %v", err)
	}
	if len(out) > maxArchiveBytes {
		return nil, fmt.Errorf("it decodes to more than %d bytes", maxArchiveBytes)
	}
	return out, nil
}
