package agentdb_test

import (
	"context"
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
	path := spaceStore(t)
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
	sql, file := measure(false), measure(true)
	if !reflect.DeepEqual(sql, file) {
		t.Errorf("through SQL:\n%+v\nfrom the file:\n%+v", sql, file)
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
