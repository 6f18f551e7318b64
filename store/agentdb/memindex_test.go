package agentdb_test

import (
	"database/sql"
	"encoding/binary"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"clawvault-tui/model/recall"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

// memStore writes a store whose memory index holds two files, in
// OpenClaw's layout.
func memStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agent", agentdb.FileName)
	err := demo.WriteAgentStore(path, demo.AgentStore{AgentID: "ops", AppVersion: "2026.9.6", Now: now,
		Sessions: []demo.StoreSession{{Key: keyMain, SessionID: sidMain, Reason: "initial", UpdatedAt: now,
			Lines: [][]byte{header(sidMain), msg("a1", "", "user", "hi", 1)}, Entry: []byte(`{"sessionId":"` + sidMain + `"}`)}},
		Memory: []demo.StoreMemorySource{
			{Path: "MEMORY.md", Content: []byte("# Memory\n\n- dark roast coffee in the morning\n- router VLAN 42\n"), MTime: now},
			{Path: "memory/2026-11-20.md", Content: []byte("# 2026-11-20\n- coffee with Alice about the router\n"), MTime: now.Add(-24 * time.Hour)},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// addVec0 declares sqlite-vec's table as OpenClaw does when the extension
// is loaded: a virtual table whose module this build does not have.
func addVec0(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`PRAGMA writable_schema = ON;
INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('table', 'memory_index_chunks_vec', 'memory_index_chunks_vec', 0,
 'CREATE VIRTUAL TABLE memory_index_chunks_vec USING vec0(id TEXT PRIMARY KEY, embedding FLOAT[64])');
INSERT INTO memory_index_meta (key, value) VALUES ('memory_vector_rebuild_v1', 'clean');
PRAGMA writable_schema = OFF;`); err != nil {
		t.Fatal(err)
	}
}

func TestOpenWithSqliteVecTable(t *testing.T) {
	path := memStore(t)
	addVec0(t, path)
	db := open(t, path)
	mi, err := db.OpenMemIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer mi.Close()
	if !mi.Layout.VecTable || !mi.Layout.ChunkFTS || !mi.Layout.PathFTS || !mi.Layout.ChunkRowid || mi.Layout.Tokenizer != "unicode61" {
		t.Errorf("layout %+v", mi.Layout)
	}
	meta, state, err := mi.Meta(ctx)
	if err != nil || meta == nil || meta.Provider != "openai" || meta.VectorDims == nil || *meta.VectorDims != 64 || state != "clean" {
		t.Errorf("meta %+v state %q err %v", meta, state, err)
	}
}

func TestMemIndexReads(t *testing.T) {
	db := open(t, memStore(t))
	mi, err := db.OpenMemIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer mi.Close()
	chunks, semantic, err := mi.Counts(ctx)
	if err != nil || chunks != 5 || semantic != 5 {
		t.Fatalf("counts %d %d %v, want 5 chunks", chunks, semantic, err)
	}
	rows, used, err := mi.Body(ctx, recall.BodyPlan("coffee", "unicode61"), []string{"memory"}, 10)
	if err != nil || !used || len(rows) != 2 || rows[0].Rank >= 0 || rows[0].Rank > rows[1].Rank {
		t.Fatalf("body rows %+v used %v err %v: two matches by bm25", rows, used, err)
	}
	if rows, _, _ := mi.Body(ctx, recall.Plan{Query: "ro", Substring: []string{"ro"}}, nil, 10); len(rows) != 3 {
		t.Errorf("substring plan found %d rows, want 3 (roast, router twice)", len(rows))
	}
	paths, used, failed, err := mi.PathRows(ctx, recall.PathPlans("2026-11-20", "unicode61")[0], nil)
	if err != nil || !used || failed || len(paths) != 1 || paths[0].Path != "memory/2026-11-20.md" || paths[0].StartLine != 1 {
		t.Errorf("path rows %+v %v %v %v", paths, used, failed, err)
	}
	table, err := mi.Vectors(ctx, nil)
	if err != nil || table.Len() != 5 || len(table.Vector(0)) != 64 {
		t.Fatalf("vectors: %v, %d rows", err, table.Len())
	}
	exact, err := mi.ExactEmbeddings(ctx, []int64{table.Rowids[0]})
	if want := demo.Embed("# Memory\n", 64); err != nil || !slices.Equal(exact[table.Rowids[0]], want) {
		t.Errorf("exact embedding differs from what was stored: %v", err)
	}
	meta, err := mi.RecallMeta(ctx, []string{table.IDs[0], "gone"})
	if _, gone := meta["gone"]; err != nil || gone || meta[table.IDs[0]].Provenance == nil {
		t.Errorf("recall meta %+v %v: provenance for the chunk, nothing for a missing one", meta, err)
	}
}

func TestDecodeEmbedding(t *testing.T) {
	blob := make([]byte, 16)
	binary.LittleEndian.PutUint64(blob, math.Float64bits(.5))
	binary.LittleEndian.PutUint64(blob[8:], math.Float64bits(-2))
	cases := []struct {
		in   any
		want []float64
	}{
		{blob, []float64{.5, -2}},
		{blob[:15], nil},
		{append(slices.Clone(blob), make([]byte, 8)...), []float64{.5, -2, 0}},
		{"[0.5,-2]", []float64{.5, -2}},
		{"not json", nil},
		{nil, nil},
	}
	nan := make([]byte, 8)
	binary.LittleEndian.PutUint64(nan, math.Float64bits(math.NaN()))
	cases = append(cases, struct {
		in   any
		want []float64
	}{nan, nil})
	for _, c := range cases {
		if got := agentdb.DecodeEmbedding(c.in); !slices.Equal(got, c.want) {
			t.Errorf("DecodeEmbedding(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func FuzzDecodeEmbedding(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, "[1,2]")
	f.Fuzz(func(t *testing.T, blob []byte, text string) {
		if v := agentdb.DecodeEmbedding(blob); v != nil && len(v) != len(blob)/8 {
			t.Fatalf("%d coordinates from %d bytes", len(v), len(blob))
		}
		agentdb.DecodeEmbedding(text)
	})
}
