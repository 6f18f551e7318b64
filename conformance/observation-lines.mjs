// Prints what ClawVault 3.5.2's parseObservationLine (src/lib/observation-
// format.ts) makes of each input line, after the trim parseObservationMarkdown
// applies. Input: one JSON string per line (so any character survives).
// Output: one JSON object per line, {"line", "observation"} with null for a
// line in neither syntax.
// Usage: node observation-lines.mjs < inputs.jsonl
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// The function lives in a content-hashed chunk of dist/: find it by its
// export, in the node_modules next to this script (where run.sh installs).
const dist = join(import.meta.dirname, "node_modules", "clawvault", "dist");
const chunk = readdirSync(dist).find((f) => f.endsWith(".js") &&
  /function parseObservationLine\(/.test(readFileSync(join(dist, f), "utf8")));
const { parseObservationLine } = await import(pathToFileURL(join(dist, chunk)).href);

for (const raw of readFileSync(0, "utf8").split("\n")) {
  if (!raw) continue;
  const line = JSON.parse(raw);
  const r = parseObservationLine(line.trim(), "2026-01-01");
  const observation = r && { type: r.type, confidence: r.confidence, importance: r.importance,
    content: r.content, format: r.format, priority: r.priority ?? "" };
  process.stdout.write(JSON.stringify({ line, observation }) + "\n");
}
