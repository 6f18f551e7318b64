// Prints, for each transcript, what OpenClaw 2026.9.6 makes of it with its
// own code: the active leaf (scanSessionTranscriptTree), the active events
// its projection persists (prepareMemorySessionTranscriptProjection, the
// rows of session_transcript_active_events) and how many messages
// buildSessionContext builds from them. One JSON object per line.
// Usage: node openclaw-tree.mjs OPENCLAW_PACKAGE_DIR BASEDIR < file-list
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const [pkg, base] = process.argv.slice(2);
const dist = join(pkg, "dist");
const find = (prefix) => {
  const name = readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith(".mjs"));
  if (!name) throw new Error(`no ${prefix}*.mjs in ${dist}`);
  return join(dist, name);
};
const tree = await import(find("transcript-tree-"));
const index = await import(find("session-transcript-index-"));
const session = await import(find("session-D9cHHQGH")); // buildSessionContext (2026.9.6's chunk name)

const files = readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const file of files) {
  const events = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {}
  }
  const rows = new Map(events.map((e, seq) => [seq, { event_json: JSON.stringify(e), seq, created_at: 0 }]));
  const scan = tree.l(events);
  const projection = index.v("s", 0, rows);
  const active = (projection?.activeRows ?? []).map((r) => events[r.eventSeq]);
  const context = session.t(active.filter((e) => e && typeof e === "object" && e.type !== "session"));
  console.log(JSON.stringify({
    file: relative(base, file),
    leafId: scan.leafId ?? null,
    hasLeafControl: scan.hasLeafControl,
    hasInvalidLeafControl: scan.hasInvalidLeafControl,
    activeIds: active.map((e) => e?.id ?? null),
    contextEligible: (projection?.activeRows ?? []).map((r) => r.contextEligible),
    contextMessages: context.messages.length,
  }));
}
