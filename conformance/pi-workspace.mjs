// Makes an OpenClaw state dir (file era) of transcripts pi wrote, for
// OpenClaw's SQLite importer: agents/main/sessions/<header id>.jsonl and a
// sessions.json naming each under a session key of its own. Prints, one JSON
// object per line, which file became which session.
// Usage: node pi-workspace.mjs STATE BASEDIR < file-list
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const [state, base] = process.argv.slice(2);
const sessions = join(state, "agents", "main", "sessions");
mkdirSync(sessions, { recursive: true });
const store = {};
let updatedAt = Date.parse("2026-11-20T08:00:00.000Z");
for (const file of readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0]);
  const source = relative(base, file);
  const key = "agent:main:direct:" + source.replace(/\.jsonl$/, "").replace(/[^a-z0-9]+/gi, "-").toLowerCase();
  copyFileSync(file, join(sessions, header.id + ".jsonl"));
  store[key] = { sessionId: header.id, updatedAt: (updatedAt += 60000), chatType: "direct" };
  console.log(JSON.stringify({ source, key, sessionId: header.id }));
}
writeFileSync(join(sessions, "sessions.json"), JSON.stringify(store, null, 2) + "\n");
writeFileSync(join(state, "openclaw.json"), JSON.stringify({ agents: { list: [{ id: "main" }] } }, null, 2) + "\n");
