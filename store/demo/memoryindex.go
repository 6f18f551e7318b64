package demo

import (
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// The memory search index of the SQLite agent, in OpenClaw 2026.9.6's
// layout: its FTS5 tables and the triggers that fill them (the DDL as
// OpenClaw creates it), sources, chunks with Float64 embeddings, recall
// metadata, provenance and the index identity. The embeddings come from
// Embed, so that a replayed search (store/memsearch) has a provider to
// ask: store/embedding/embedtest serves the same vectors.

// Memory index identity of the demo: OpenClaw's default provider and
// model (no memory.search settings in openclaw.json), 64 dimensions, and
// the memory source alone (the demo isolates direct messages per peer,
// so OpenClaw does not index sessions for cross-conversation recall).
const (
	MemoryModel = "text-embedding-3-small"
	MemoryDims  = 64
	// memoryProviderKey is the SHA-256 of the OpenAI adapter's cache key
	// data for api.openai.com without extra headers.
	memoryProviderKey = `{"provider":"openai","baseUrl":"https://api.openai.com/v1","model":"text-embedding-3-small","headers":[["Content-Type","application/json"],["originator","openclaw"]]}`
	// memoryScope is the scope OpenClaw hashes without extra paths.
	memoryScope = `{"extraPaths":[],"multimodal":{"enabled":false,"modalities":[],"maxFileBytes":10485760}}`
)

var memoryFTSDDL = []string{
	"CREATE VIRTUAL TABLE memory_index_chunks_fts USING fts5(\n  text,\n  id UNINDEXED,\n  path UNINDEXED,\n  source UNINDEXED,\n  model UNINDEXED,\n  start_line UNINDEXED,\n  end_line UNINDEXED\n)",
	"CREATE TRIGGER memory_index_chunks_fts_after_insert\n      AFTER INSERT ON memory_index_chunks\n      BEGIN\n        INSERT INTO memory_index_chunks_fts (rowid, text, id, path, source, model, start_line, end_line)\n        VALUES (NEW.chunk_rowid, NEW.text, NEW.id, NEW.path, NEW.source, NEW.model, NEW.start_line, NEW.end_line);\n      END",
	"CREATE TRIGGER memory_index_chunks_fts_after_update\n      AFTER UPDATE OF chunk_rowid, text, id, path, source, model, start_line, end_line ON memory_index_chunks\n      BEGIN\n        DELETE FROM memory_index_chunks_fts WHERE rowid = OLD.chunk_rowid;\n        INSERT INTO memory_index_chunks_fts (rowid, text, id, path, source, model, start_line, end_line)\n        VALUES (NEW.chunk_rowid, NEW.text, NEW.id, NEW.path, NEW.source, NEW.model, NEW.start_line, NEW.end_line);\n      END",
	"CREATE TRIGGER memory_index_chunks_fts_after_delete\n      AFTER DELETE ON memory_index_chunks\n      BEGIN\n        DELETE FROM memory_index_chunks_fts WHERE rowid = OLD.chunk_rowid;\n      END",
	"CREATE VIRTUAL TABLE memory_index_paths_fts USING fts5(\n        path,\n        source UNINDEXED\n        \n      )",
	"CREATE TRIGGER memory_index_paths_fts_after_insert\n      AFTER INSERT ON memory_index_sources\n      BEGIN\n        INSERT INTO memory_index_paths_fts (rowid, path, source)\n        VALUES (NEW.id, NEW.path, NEW.source);\n      END",
	"CREATE TRIGGER memory_index_paths_fts_after_update\n      AFTER UPDATE OF id, path, source ON memory_index_sources\n      BEGIN\n        DELETE FROM memory_index_paths_fts\n        WHERE rowid = OLD.id;\n        INSERT INTO memory_index_paths_fts (rowid, path, source)\n        VALUES (NEW.id, NEW.path, NEW.source);\n      END",
	"CREATE TRIGGER memory_index_paths_fts_after_delete\n      AFTER DELETE ON memory_index_sources\n      BEGIN\n        DELETE FROM memory_index_paths_fts\n        WHERE rowid = OLD.id;\n      END",
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// memoryChunks splits a file as the demo indexes it: each line with the
// blank lines after it (OpenClaw's structural chunking keeps a bullet or
// a heading whole), 1-based lines.
func memoryChunks(content string) (starts, ends []int, texts []string) {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		starts, ends = append(starts, i+1), append(ends, j)
		texts = append(texts, strings.Join(lines[i:j], "\n"))
		i = j
	}
	return starts, ends, texts
}

// writeMemoryIndex fills the memory index tables from the sources, as
// OpenClaw's indexer leaves them (the FTS tables through its triggers).
func writeMemoryIndex(tx *sql.Tx, sources []StoreMemorySource) error {
	if len(sources) == 0 {
		return nil
	}
	for _, ddl := range memoryFTSDDL {
		if _, err := tx.Exec(ddl); err != nil {
			return fmt.Errorf("memory index FTS: %w", err)
		}
	}
	chunks := 0
	for _, m := range sources {
		n, err := writeMemorySource(tx, m)
		if err != nil {
			return err
		}
		chunks += n
	}
	meta := `{"model":"` + MemoryModel + `","provider":"openai","providerKey":"` + sha256Hex([]byte(memoryProviderKey)) +
		`","sources":["memory"],"scopeHash":"` + sha256Hex([]byte(memoryScope)) +
		`","chunkTokens":400,"chunkOverlap":80,"chunkingVersion":5,"ftsTokenizer":"unicode61","provenanceVersion":1,"vectorDims":` +
		fmt.Sprint(MemoryDims) + `}`
	_, err := tx.Exec(`INSERT INTO memory_index_meta (key, value) VALUES ('memory_index_meta_v1', ?)`, meta)
	return err
}

func writeMemorySource(tx *sql.Tx, m StoreMemorySource) (int, error) {
	hash := sha256Hex(m.Content)
	mtime := float64(m.MTime.UnixNano()) / 1e6
	if _, err := tx.Exec(`INSERT INTO memory_index_sources (path, source, hash, mtime, size) VALUES (?, 'memory', ?, ?, ?)`,
		m.Path, hash, mtime, len(m.Content)); err != nil {
		return 0, err
	}
	starts, ends, texts := memoryChunks(string(m.Content))
	for i, text := range texts {
		id := sha256Hex(fmt.Appendf(nil, "memory:%s:%d:%d:%s:%s", m.Path, starts[i], ends[i], sha256Hex([]byte(text)), MemoryModel))
		if _, err := tx.Exec(`INSERT INTO memory_index_chunks (id, path, source, start_line, end_line, hash, model, text, embedding, updated_at)
VALUES (?, ?, 'memory', ?, ?, ?, ?, ?, ?, ?)`, id, m.Path, starts[i], ends[i], sha256Hex([]byte(text)), MemoryModel, text,
			float64Blob(Embed(text, MemoryDims)), m.MTime.UnixMilli()); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(`INSERT INTO memory_index_chunk_recall_metadata (chunk_id, importance, triggers, project_key) VALUES (?, NULL, NULL, NULL)`, id); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(`INSERT INTO memory_index_chunk_provenance (chunk_id, origin_class, session_kind, observed_at, supersedes_key) VALUES (?, 'agent', 'unknown', ?, NULL)`,
			id, int64(mtime)); err != nil {
			return 0, err
		}
	}
	return len(texts), nil
}

// float64Blob is OpenClaw's stored embedding: little-endian Float64s.
func float64Blob(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

// Embed is the demo's embedding model, deterministic and offline: every
// lower-cased word adds ±1 to a hashed coordinate and each of its
// character trigrams ±0.35 to another, so texts sharing words (or most of
// a word) are near; unit length. A text without a word gets a small
// constant vector, never a zero one.
func Embed(text string, dims int) []float64 {
	v := make([]float64, dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_'
	})
	add := func(s string, w float64) {
		h := fnv.New64a()
		h.Write([]byte(s))
		x := h.Sum64()
		sign := 1.0
		if x>>63 == 1 {
			sign = -1
		}
		v[x%uint64(dims)] += sign * w
	}
	for _, word := range words {
		add("w:"+word, 1)
		r := []rune(" " + word + " ")
		for i := 0; i+3 <= len(r); i++ {
			add("t:"+string(r[i:i+3]), 0.35)
		}
	}
	if len(words) == 0 {
		for i := range v {
			v[i] = 0.01
		}
	}
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	if norm := math.Sqrt(sum); norm > 0 {
		for i := range v {
			v[i] /= norm
		}
	}
	return v
}
