package agentdb_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

// spaceStore writes a store of two sessions whose events are of every
// kind: user messages with base64 images (some long enough to be stored
// compressed), tool results, assistant turns, custom entries, a
// compaction.
func spaceStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agents", "ops", "agent", "openclaw-agent.sqlite")
	var sessions []demo.StoreSession
	for s, id := range []string{"aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"} {
		lines := [][]byte{[]byte(`{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}`)}
		parent := "null"
		for i := 1; i <= 40*(s+1); i++ {
			eid := fmt.Sprintf("e%07d", i)
			var line string
			switch i % 5 {
			case 0:
				line = fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":%q,"mimeType":"image/png"}]}}`,
					eid, parent, strings.Repeat("iVBORw0KGgo", 20+i*30))
			case 1:
				line = fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"message":{"role":"toolResult","toolCallId":"t","toolName":"x","isError":false,"content":[{"type":"text","text":%q}]}}`,
					eid, parent, strings.Repeat("out ", i*40))
			case 2:
				line = fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`, eid, parent, strings.Repeat("said ", i*20))
			case 3:
				line = fmt.Sprintf(`{"type":"custom","id":%q,"parentId":%s,"customType":"openclaw.cache-ttl","data":{"n":%d}}`, eid, parent, i)
			default:
				line = fmt.Sprintf(`{"type":"compaction","id":%q,"parentId":%s,"summary":%q,"firstKeptEntryId":"e0000001","tokensBefore":1}`, eid, parent, strings.Repeat("sum ", i))
			}
			lines = append(lines, []byte(line))
			parent = fmt.Sprintf("%q", eid)
		}
		sessions = append(sessions, demo.StoreSession{Key: "agent:ops:s" + fmt.Sprint(s), SessionID: id, Reason: "initial", Lines: lines,
			UpdatedAt: time.Now(), Entry: []byte(`{"sessionId":"` + id + `","updatedAt":1}`)})
	}
	if err := demo.WriteAgentStore(path, demo.AgentStore{AgentID: "ops", AppVersion: "2026.9.6", Now: time.Now(), Sessions: sessions}); err != nil {
		t.Fatal(err)
	}
	return path
}

// Space read from the file itself says what Space through SQL (dbstat,
// and a scan of every body) says: the same bytes for every table and
// index, kind and session.
func TestSpaceFromTheFileIsSpaceThroughSQL(t *testing.T) {
	viaSQL, file := spaceBothWays(t, spaceStore(t))
	if !reflect.DeepEqual(viaSQL, file) {
		t.Errorf("through SQL:\n%+v\nfrom the file:\n%+v", viaSQL, file)
	}
	if file.ByKind[agentdb.KindImage] == 0 || file.ByKind["message:toolResult"] == 0 || file.ByKind["custom:openclaw.cache-ttl"] == 0 ||
		file.ByKind["compaction"] == 0 || file.Events != 122 || len(file.Sessions) != 2 || file.Sessions[0].Key != "agent:ops:s1" {
		t.Errorf("%+v", file)
	}
	var total int64
	for _, n := range file.ByKind {
		total += n
	}
	if total != file.EventBytes {
		t.Errorf("the kinds add up to %d bytes, the events are %d", total, file.EventBytes)
	}
}

// spaceBothWays measures the store through SQL and from the file.
func spaceBothWays(t *testing.T, path string) (viaSQL, fromFile *agentdb.Space) {
	t.Helper()
	measure := func(raw bool) *agentdb.Space {
		defer agentdb.ReadRaw(raw, 0)()
		reads := 0
		defer agentdb.CountRawReads(&reads)()
		defer func() {
			if raw && reads != 2 || !raw && reads != 0 {
				t.Errorf("raw %v: %d reads from the file", raw, reads)
			}
		}()
		db, err := agentdb.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		s, err := db.Space(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return measure(false), measure(true)
}

// The trees' pages from the file are dbstat's: counted without reading
// any leaf but the events' when every page of the file is so accounted
// for (deleted events leave free pages), walked to the leaves when another
// tree's row overflows (the events table then the pages no other tree nor
// the freelist holds), and walked whole when the database keeps pointer
// maps (auto_vacuum).
func TestSpaceReadsNoLeafItNeedNot(t *testing.T) {
	for _, setup := range []struct {
		name, sql string
		walks     int
	}{
		{"free pages", `DELETE FROM transcript_events WHERE seq > 10`, 0},
		{"another tree overflows", `CREATE TABLE big (x); INSERT INTO big VALUES (randomblob(20000)); DELETE FROM transcript_events WHERE seq > 10`, 1},
		{"pointer maps", `PRAGMA auto_vacuum = FULL; VACUUM`, 1},
	} {
		t.Run(setup.name, func(t *testing.T) {
			path := spaceStore(t)
			rw, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rw.Exec(setup.sql); err != nil {
				t.Fatal(err)
			}
			var free int64
			if err := rw.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil {
				t.Fatal(err)
			}
			rw.Close()
			if strings.Contains(setup.sql, "DELETE") && free == 0 {
				t.Fatal("no free pages")
			}
			walks := 0
			defer agentdb.CountLeafWalks(&walks)()
			viaSQL, fromFile := spaceBothWays(t, path)
			if !reflect.DeepEqual(viaSQL, fromFile) {
				t.Errorf("through SQL:\n%+v\nfrom the file:\n%+v", viaSQL, fromFile)
			}
			if walks != setup.walks {
				t.Errorf("the leaves walked %d times, want %d", walks, setup.walks)
			}
		})
	}
}
