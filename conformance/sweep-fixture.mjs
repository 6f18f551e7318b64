// Builds the sessions folder of the sweep conformance check: the transcripts
// of the sessions listed in sweep-sessions.txt, copied byte for byte, and a
// sessions.json with their rows. conformance_test.go builds the same folder.
// Usage: node sweep-fixture.mjs DEMO_SESSIONS_DIR OUT_DIR LIST_FILE
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [from, to, listFile] = process.argv.slice(2);
const rows = JSON.parse(readFileSync(join(from, "sessions.json"), "utf8"));
const keys = readFileSync(listFile, "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
mkdirSync(to, { recursive: true });
const out = {};
for (const key of keys) {
  const row = rows[key];
  if (!row) throw new Error(`the demo has no session ${key}`);
  out[key] = row;
  copyFileSync(join(from, `${row.sessionId}.jsonl`), join(to, `${row.sessionId}.jsonl`));
}
writeFileSync(join(to, "sessions.json"), JSON.stringify(out, null, 2));
