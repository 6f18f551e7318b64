package agentdb_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store/agentdb"
)

// TestCachedStats: the cache answers for sessions OpenClaw did not touch,
// counts only what was appended to one it did, recounts one it rewrote, and
// always agrees with the full aggregate.
func TestCachedStats(t *testing.T) {
	path := store(t)
	cache := filepath.Join(t.TempDir(), "cache", "ops.stats")
	db := open(t, path)
	check := func(what string, after map[string]int64, want agentdb.CacheReport) {
		t.Helper()
		got, rep := cachedAgreeing(t, db, cache, after, what)
		if len(got) != 3 {
			t.Errorf("%s: %d sessions cached, want 3", what, len(got))
		}
		// The reference: each session counted by a query of its own.
		for id := range got {
			seq, ok := after[id]
			if !ok {
				seq = -1
			}
			one, err := db.SessionStats(ctx, id, seq)
			if err != nil {
				t.Fatal(err)
			}
			if got[id] != one {
				t.Errorf("%s: %s cached %+v, counted alone %+v", what, id, got[id], one)
			}
		}
		if rep != want {
			t.Errorf("%s: %+v, want %+v", what, rep, want)
		}
	}
	check("first run", nil, agentdb.CacheReport{Recounted: 3})
	check("nothing changed", map[string]int64{sidMain: 7}, agentdb.CacheReport{Unchanged: 3})

	w := writer(t, path)
	touch := func(sid string) {
		if _, err := w.Exec(`UPDATE session_windows SET transcript_updated_at = ? WHERE session_id = ?`, time.Now().UnixNano(), sid); err != nil {
			t.Fatal(err)
		}
	}
	if err := appendEvent(ctx, w, 3); err != nil {
		t.Fatal(err)
	}
	touch(sidCron)
	check("an append", map[string]int64{sidCron: 2}, agentdb.CacheReport{Unchanged: 2, Appended: 1})

	if _, err := w.Exec(`UPDATE transcript_events SET event_json = '{"type":"custom","id":"y","parentId":null,"data":{"rewritten":true}}', event_utf8_bytes = 66 WHERE session_id = ? AND seq = 3`, sidCron); err != nil {
		t.Fatal(err)
	}
	touch(sidCron)
	check("a rewrite", nil, agentdb.CacheReport{Unchanged: 2, Recounted: 1})
	check("read again", nil, agentdb.CacheReport{Unchanged: 3})

	// Several sessions moved between two runs are checked together: one
	// grew by two events, one only had its window touched (nothing
	// appended), one lost its last counted event (a rewrite).
	for _, seq := range []int{4, 5} {
		if err := appendEvent(ctx, w, seq); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Exec(`DELETE FROM transcript_events WHERE session_id = ? AND seq = 2`, sidOld); err != nil {
		t.Fatal(err)
	}
	for _, sid := range []string{sidCron, sidMain, sidOld} {
		touch(sid)
	}
	check("two appends, a touch and a rewrite at once", map[string]int64{sidCron: 4}, agentdb.CacheReport{Appended: 2, Recounted: 1})
	check("and read again", nil, agentdb.CacheReport{Unchanged: 3})
}

// TestStatsCacheBadInput: a cache file that is damaged, of another
// version or cut short costs a recount of the sessions it no longer
// describes, never a wrong count; a rewrite generation that is not a plain
// word is kept hashed, and still recognised.
func TestStatsCacheBadInput(t *testing.T) {
	path := store(t)
	cache := filepath.Join(t.TempDir(), "ops.stats")
	db := open(t, path)
	full, err := db.Stats(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(what string, want agentdb.CacheReport) {
		t.Helper()
		got, rep, err := db.CachedStats(ctx, cache, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep != want {
			t.Errorf("%s: %+v, want %+v", what, rep, want)
		}
		for id, s := range full {
			if got[id] != s {
				t.Errorf("%s: %s %+v, want %+v", what, id, got[id], s)
			}
		}
	}
	w := writer(t, path)
	if _, err := w.Exec(`INSERT INTO transcript_rewrite_watermarks (session_id, generation, updated_at) VALUES (?, 'gen 2 (after a rewind)', 1)`, sidOld); err != nil {
		t.Fatal(err)
	}
	run("first run", agentdb.CacheReport{Recounted: 3})
	run("read again", agentdb.CacheReport{Unchanged: 3})
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) != 5 || !strings.Contains(string(data), " #") {
		t.Fatalf("cache file %q: want a version line, 3 sessions (one generation hashed) and the end", data)
	}
	for _, c := range []struct {
		what    string
		content string
		want    agentdb.CacheReport
	}{
		{"another version", strings.Replace(string(data), " 3\n", " 2\n", 1), agentdb.CacheReport{Recounted: 3}},
		{"a line cut short", lines[0] + lines[1] + lines[2] + lines[3][:len(lines[3])/2], agentdb.CacheReport{Unchanged: 2, Recounted: 1}},
		{"a number that is not one", lines[0] + strings.Replace(lines[1], " ", " x", 2) + lines[2] + lines[3], agentdb.CacheReport{Unchanged: 2, Recounted: 1}},
		{"a field too many", lines[0] + strings.TrimSuffix(lines[1], "\n") + " 7\n" + lines[2] + lines[3], agentdb.CacheReport{Unchanged: 2, Recounted: 1}},
		{"not text", "\x00\xff\xfe", agentdb.CacheReport{Recounted: 3}},
	} {
		if err := os.WriteFile(cache, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		run(c.what, c.want)
	}
}

// TestOpenKeepsASmallPageCache: every connection Open makes keeps a page
// cache of 256 KiB (see Open), and reads through it what it would read
// otherwise.
func TestOpenKeepsASmallPageCache(t *testing.T) {
	path := store(t)
	db := open(t, path)
	if n, err := db.CacheSize(); err != nil || n != -256 {
		t.Errorf("cache_size %d, %v; want -256 (KiB)", n, err)
	}
	nodes, windows, err := db.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) == 0 || len(windows) == 0 {
		t.Errorf("%d nodes and %d windows, want some of each", len(nodes), len(windows))
	}
}

// TestStatsCacheAppends: a status that recounts a few sessions appends
// their lines to the cache file, whose later line of a session wins; once
// the replaced lines pass the slack the file is rewritten with one line a
// session. A session gone from the store rewrites it without the session's
// line; a file that may not be appended to (another version, a last line
// cut short) is rewritten.
func TestStatsCacheAppends(t *testing.T) {
	path := store(t)
	cache := filepath.Join(t.TempDir(), "ops.stats")
	db := open(t, path)
	w := writer(t, path)
	lines := func() int {
		t.Helper()
		data, err := os.ReadFile(cache)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(data), "\n") {
			t.Fatalf("cache file %q does not end a line", data)
		}
		return strings.Count(string(data), "\n") - 1
	}
	run := func(what string, want agentdb.CacheReport, wantLines int) {
		t.Helper()
		if _, rep := cachedAgreeing(t, db, cache, nil, what); rep != want {
			t.Errorf("%s: %+v, want %+v", what, rep, want)
		}
		if n := lines(); n != wantLines {
			t.Errorf("%s: %d session lines in the cache file, want %d", what, n, wantLines)
		}
	}
	run("first run", agentdb.CacheReport{Recounted: 3}, 3)
	seq := 3
	grow := func() {
		t.Helper()
		if err := appendEvent(ctx, w, seq); err != nil {
			t.Fatal(err)
		}
		seq++
		if _, err := w.Exec(`UPDATE session_windows SET transcript_updated_at = ? WHERE session_id = ?`, seq, sidCron); err != nil {
			t.Fatal(err)
		}
	}
	// 3 sessions: 16 replaced lines are kept (statsCacheSlack), the 17th
	// append rewrites the file.
	for i := 1; i <= 16; i++ {
		grow()
		run(fmt.Sprintf("append %d", i), agentdb.CacheReport{Unchanged: 2, Appended: 1}, 3+i)
	}
	run("read with replaced lines", agentdb.CacheReport{Unchanged: 3}, 19)
	grow()
	run("append over the slack", agentdb.CacheReport{Unchanged: 2, Appended: 1}, 3)
	grow()
	run("an append after a rewrite", agentdb.CacheReport{Unchanged: 2, Appended: 1}, 4)

	// A session gone from the store: its line goes, the file is rewritten.
	if _, err := w.Exec(`DELETE FROM session_windows WHERE session_id = ?`, sidOld); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CachedStats(ctx, cache, nil); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(cache); err != nil || strings.Contains(string(data), sidOld) || lines() != 2 {
		t.Errorf("after a session went: %q %v, want the two others' lines", data, err)
	}
	if _, err := w.Exec(`INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES (?, 'agent:ops:old', 1, 1)`, sidOld); err != nil {
		t.Fatal(err)
	}
	run("a session back", agentdb.CacheReport{Unchanged: 2, Recounted: 1}, 3)

	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, content string }{
		{"another version", strings.Replace(string(data), " 3\n", " 2\n", 1)},
		{"a last line cut short", strings.TrimSuffix(string(data), "\n")},
	} {
		if err := os.WriteFile(cache, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		// The session whose line was cut short is counted again.
		want := agentdb.CacheReport{Unchanged: 2, Recounted: 1}
		if c.what == "another version" {
			want = agentdb.CacheReport{Recounted: 3}
		}
		run(c.what, want, 3)
	}
}

// cachedAgreeing reads every session's stats through the cache file and
// checks them against the full aggregate (the same sessions, the same
// figures); it returns them and how the cache was used.
func cachedAgreeing(t *testing.T, db *agentdb.DB, cache string, after map[string]int64, what string) (map[string]agentdb.Stats, agentdb.CacheReport) {
	t.Helper()
	got, rep, err := db.CachedStats(ctx, cache, after)
	if err != nil {
		t.Fatal(err)
	}
	full, err := db.Stats(ctx, after)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(full) {
		t.Errorf("%s: %d sessions cached, %d counted", what, len(got), len(full))
	}
	for id, s := range full {
		if got[id] != s {
			t.Errorf("%s: %s cached %+v, in one pass %+v", what, id, got[id], s)
		}
	}
	return got, rep
}
