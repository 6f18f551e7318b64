// Prints, for each transcript, what pi's SessionManager makes of it: entry
// count, leaf, active path, roots, branch points (as positions in
// getEntries(), so v1 files whose ids pi invents still compare), the ids,
// and how many messages buildSessionContext gives. One JSON object per line.
// pi rewrites v1/v2 and header-less files on open, so it reads a copy.
// Usage: node pi-tree.mjs BASEDIR PREFIX < file-list   (one path per line;
// paths are printed as PREFIX + the path relative to BASEDIR)
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const [base, prefix] = process.argv.slice(2);
const files = readFileSync(0, "utf8").split("\n").filter(Boolean);
const scratch = mkdtempSync(join(tmpdir(), "pi-tree-"));
for (const file of files) {
  const copy = join(scratch, "t.jsonl");
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy, scratch);
  const entries = sm.getEntries();
  const pos = new Map(entries.map((e, i) => [e, i]));
  const branchPoints = [];
  const stack = [...sm.getTree()];
  const roots = stack.map((n) => pos.get(n.entry));
  while (stack.length) {
    const n = stack.pop();
    if (n.children.length > 1) branchPoints.push(pos.get(n.entry));
    stack.push(...n.children);
  }
  branchPoints.sort((a, b) => a - b);
  const leaf = sm.getLeafEntry();
  console.log(JSON.stringify({
    file: prefix + relative(base, file),
    entries: entries.length,
    leaf: leaf ? pos.get(leaf) : null,
    activePath: sm.getBranch().map((e) => pos.get(e)),
    roots,
    branchPoints,
    contextMessages: sm.buildSessionContext().messages.length,
    ids: entries.map((e) => e.id),
  }));
}
rmSync(scratch, { recursive: true, force: true });
