// Makes an OpenClaw state dir (file era) of the JSONL cases in CASES for
// OpenClaw's importer: agents/main/sessions/<id>.jsonl, where the id is
// 7e1c0000-0000-4000-8000-0000000000NN for case NN-<name>.jsonl, and a
// sessions.json naming each under agent:main:direct:import-NN.
// Usage: node import-cases.mjs STATE CASES
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [state, cases] = process.argv.slice(2);
const sessions = join(state, "agents", "main", "sessions");
mkdirSync(sessions, { recursive: true });
const store = {};
let updatedAt = Date.parse("2026-11-20T08:00:00.000Z");
for (const name of readdirSync(cases).filter((f) => /^\d\d-.*\.jsonl$/.test(f)).sort()) {
  const n = name.slice(0, 2);
  const id = `7e1c0000-0000-4000-8000-0000000000${n}`;
  copyFileSync(join(cases, name), join(sessions, `${id}.jsonl`));
  store[`agent:main:direct:import-${n}`] = { sessionId: id, updatedAt: (updatedAt += 60000), chatType: "direct" };
}
writeFileSync(join(sessions, "sessions.json"), JSON.stringify(store, null, 2) + "\n");
writeFileSync(join(state, "openclaw.json"), JSON.stringify({ agents: { list: [{ id: "main" }] } }, null, 2) + "\n");
