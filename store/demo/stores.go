package demo

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// file is writeFile with the step's sticky error.
func (g *generator) file(path string, data []byte, mtime time.Time) {
	if g.err == nil {
		g.err = g.ctx.Err()
	}
	if g.err == nil {
		g.err = writeFile(path, data, mtime)
	}
}

// writeStores writes each file-era agent's sessions.json exactly as OpenClaw saves it
// (JSON.stringify(store, null, 2), no trailing newline, rows in insertion order), plus a
// rotated backup of main's store.
func (g *generator) writeStores() error {
	for _, agent := range []string{"main", "work"} {
		rows := slices.Clone(g.rows[agent])
		slices.SortStableFunc(rows, func(a, b *storeRow) int {
			if c := a.created.Compare(b.created); c != 0 {
				return c
			}
			return strings.Compare(a.key, b.key)
		})
		store, mtime := storeObject(rows, time.Time{})
		path := filepath.Join(g.sessionsDir(agent), "sessions.json")
		g.file(path, jsonIndent2(nil, store), mtime)
		if agent == "main" {
			// Rotation kept yesterday's store: the rows that have not changed since.
			bakAt := g.ago(26*hour + 13*minute)
			bak, _ := storeObject(rows, bakAt)
			g.file(path+".bak."+itoa64(bakAt.UnixMilli()), jsonIndent2(nil, bak), bakAt)
		}
		for _, row := range rows {
			if row.updated.Before(g.ago(45 * dayDur)) {
				g.man.StaleRows = append(g.man.StaleRows, Case{agent, row.key, row.id, row.file})
			}
		}
	}
	return g.err
}

// storeObject builds the store; with a cutoff, only rows last updated before it.
func storeObject(rows []*storeRow, cutoff time.Time) (obj, time.Time) {
	store := obj{}
	var mtime time.Time
	for _, row := range rows {
		if !cutoff.IsZero() && !row.updated.Before(cutoff) {
			continue
		}
		store = append(store, kv{row.key, row.entry})
		if row.updated.After(mtime) {
			mtime = row.updated
		}
	}
	if !cutoff.IsZero() {
		mtime = cutoff
	}
	return store, mtime
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// writeConfig writes state/openclaw.json: the agents and session maintenance
// settings. It names no workspace: OpenClaw then puts each agent's inside
// the state dir (<state>/workspace for the default agent, else
// <state>/workspace-<id>), so a copied or moved demo edits its own memory,
// never the original's.
func (g *generator) writeConfig() error {
	at := g.ago(12*dayDur + 4*hour)
	cfg := o(
		"meta", o("lastTouchedVersion", "2026.7.28", "lastTouchedAt", isoMillis(at)),
		"agents", o(
			"defaults", o("model", o("primary", "anthropic/claude-sonnet-4-6"),
				"heartbeat", o("every", "30m"), "compaction", o("mode", "safeguard")),
			"list", []any{
				o("id", "main", "default", true),
				o("id", "work", "model", o("primary", "anthropic/claude-opus-4-6")),
				o("id", "ops"),
			}),
		"session", o("dmScope", "per-channel-peer", "maintenance", o(
			"mode", "warn", "pruneAfter", "30d", "maxEntries", 500, "resetArchiveRetention", "30d",
			"maxDiskBytes", "2gb", "highWaterBytes", "1.6gb")),
		"cron", o("enabled", true, "sessionRetention", "24h"),
		"channels", o(
			"telegram", o("enabled", true, "dmPolicy", "allowlist", "allowFrom", []string{"123456789", "6029384710", "5829104736"}),
			"discord", o("enabled", true),
			"slack", o("enabled", true),
			"whatsapp", o("enabled", true)),
		"plugins", o("entries", o("clawvault", o("enabled", true, "config", o("vaultPath", g.vault)))),
	)
	g.file(filepath.Join(g.state, "openclaw.json"), append(jsonIndent2(nil, cfg), '\n'), at)
	return g.err
}

// writeCronLogs writes state/cron/runs/<jobId>.jsonl, oldest run first. The nightly
// digest also lists runs whose sessions cron.sessionRetention has already pruned.
func (g *generator) writeCronLogs() error {
	r := g.rand("cron-logs")
	last := g.cronRuns["nightly-digest"]
	if len(last) > 0 {
		base := last[len(last)-1].at
		for age := 4; age <= 9; age++ {
			id := uuid4(r)
			runAt := base.AddDate(0, 0, -age).Add(-time.Duration(r.IntN(20000)) * time.Millisecond)
			dur := time.Duration(20000+r.IntN(60000)) * time.Millisecond
			status, extra := "ok", []any{"summary", "Digest posted."}
			if age == 6 {
				status, extra = "error", []any{"error", "Request timed out after 600000ms"}
				dur = 600 * time.Second
			}
			line := o("ts", runAt.Add(dur).UnixMilli(), "jobId", "nightly-digest", "action", "finished", "status", status)
			line = append(line, o(extra...)...)
			line = append(line, o("sessionId", id, "sessionKey", "agent:main:cron:nightly-digest:run:"+id,
				"runAtMs", runAt.UnixMilli(), "durationMs", dur.Milliseconds())...)
			g.cronRuns["nightly-digest"] = append(g.cronRuns["nightly-digest"], cronRun{runAt.Add(dur), line})
		}
	}
	jobs := make([]string, 0, len(g.cronRuns))
	for job := range g.cronRuns {
		jobs = append(jobs, job)
	}
	slices.Sort(jobs)
	for _, job := range jobs {
		runs := g.cronRuns[job]
		slices.SortStableFunc(runs, func(a, b cronRun) int { return a.at.Compare(b.at) })
		var b []byte
		for _, run := range runs {
			b = jsonCompact(b, run.line)
			b = append(b, '\n')
		}
		path := filepath.Join(g.state, "cron", "runs", job+".jsonl")
		g.file(path, b, runs[len(runs)-1].at)
		g.man.CronRunLogs = append(g.man.CronRunLogs, path)
	}
	return g.err
}
