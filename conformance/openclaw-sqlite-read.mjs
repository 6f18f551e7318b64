// Reads a state dir that OpenClaw 2026.9.6's importer moved into SQLite, with
// Node's own node:sqlite and OpenClaw's own code: per session (generation),
// its key, events, JSONL-equivalent bytes, the leaf of
// scanSessionTranscriptTree, the active events OpenClaw persisted
// (session_transcript_active_events) and how many messages
// buildSessionContext builds from them. One JSON object per line.
// Usage: node openclaw-sqlite-read.mjs OPENCLAW_PACKAGE_DIR STATE NAME
import { DatabaseSync } from "node:sqlite";
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompressSync } from "node:zlib";
import { createHash } from "node:crypto";

const [pkg, state, name] = process.argv.slice(2);
const dist = join(pkg, "dist");
const find = (prefix) => join(dist, readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith(".mjs")));
const tree = await import(find("transcript-tree-"));
const session = await import(find("session-D9cHHQGH")); // buildSessionContext (2026.9.6's chunk name)

for (const agent of readdirSync(join(state, "agents")).sort()) {
  const path = join(state, "agents", agent, "agent", "openclaw-agent.sqlite");
  if (!existsSync(path)) continue;
  const db = new DatabaseSync(path, { readOnly: true });
  const current = new Map(db.prepare("SELECT session_key, current_session_id FROM session_nodes").all().map((r) => [r.session_key, r.current_session_id]));
  for (const w of db.prepare("SELECT session_id, session_key, reason FROM session_windows ORDER BY session_key, created_at, rowid").all()) {
    const rows = db.prepare("SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ? ORDER BY seq").all(w.session_id);
    const events = rows.map((r) => JSON.parse(r.event_json ?? zstdDecompressSync(r.event_zstd).toString("utf8")));
    const bytes = rows.reduce((n, r) => n + (r.event_utf8_bytes ?? Buffer.byteLength(r.event_json)) + 1, 0);
    const scan = tree.l(events);
    const active = db.prepare("SELECT event_seq FROM session_transcript_active_events WHERE session_id = ? ORDER BY active_position").all(w.session_id)
      .map((r) => events[rows.findIndex((x) => x.seq === r.event_seq)]);
    const context = session.t(active.filter((e) => e && e.type !== "session"));
    const types = {};
    for (const e of events) if (e?.type && e.type !== "session") types[e.type] = (types[e.type] ?? 0) + 1;
    const ids = active.map((e) => e?.id ?? null);
    // A long active path is golden as its count, ends and hash: the goldens stay small.
    const path = ids.length <= 64 ? { activeIds: ids } : {
      activeCount: ids.length, activeHead: ids.slice(0, 16), activeTail: ids.slice(-16),
      activeSha256: createHash("sha256").update(ids.map((id) => id ?? "").join("\n")).digest("hex"),
    };
    console.log(JSON.stringify({
      workspace: name, agent, key: w.session_key, sessionId: w.session_id, current: current.get(w.session_key) === w.session_id,
      reason: w.reason, events: rows.length, bytes, compressed: rows.filter((r) => r.event_zstd).length,
      leafId: scan.leafId ?? null, ...path, contextMessages: context.messages.length, entryTypes: types,
    }));
  }
  db.close();
}
