// Writes transcripts with pi's own SessionManager (the code OpenClaw vendors),
// so our reader is checked against files pi really writes: branches, branch
// summaries, second roots, compactions, labels, names, custom entries, forks.
// Usage: node pi-write.mjs OUTDIR
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { mkdirSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";

const out = process.argv[2];
mkdirSync(out, { recursive: true });

let clock = Date.parse("2026-04-12T10:00:00.000Z");
const realNow = Date.now;
Date.now = () => (clock += 1000); // monotonic, deterministic timestamps
const RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...a) { super(...(a.length ? a : [Date.now()])); }
  static now() { return Date.now(); }
};
Object.assign(globalThis.Date, { parse: RealDate.parse, UTC: RealDate.UTC });
globalThis.Date.now = () => (clock += 1000);

const usage = { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (text) => ({ role: "user", content: [{ type: "text", text }], timestamp: clock });
const assistant = (text) => ({ role: "assistant", content: [{ type: "text", text }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-6", usage, stopReason: "stop", timestamp: clock });

function session(name) {
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  return { sm: SessionManager.create("/work/project", dir), dir };
}

// 1. Linear, with two compactions, labels (set, then cleared), a name, a
//    model and a thinking change, custom entries.
{
  const { sm } = session("linear");
  sm.appendModelChange("anthropic", "claude-sonnet-4-6");
  sm.appendThinkingLevelChange("low");
  const u1 = sm.appendMessage(user("What did we ship yesterday?"));
  sm.appendMessage(assistant("Billing v2 and the login fix."));
  const u2 = sm.appendMessage(user("Draft the release note."));
  sm.appendMessage(assistant("Draft: Billing v2 adds invoices."));
  sm.appendCompaction("## Goal\nRelease notes", u2, 172336, { readFiles: [], modifiedFiles: [] });
  sm.appendMessage(user("Post it to #releases."));
  const a3 = sm.appendMessage(assistant("Posted."));
  sm.appendLabelChange(a3, "posted");
  sm.appendLabelChange(u1, "start");
  sm.appendLabelChange(u1, undefined);
  sm.appendCustomEntry("openclaw.cache-ttl", { timestamp: clock, provider: "anthropic", modelId: "claude-sonnet-4-6" });
  sm.appendCustomMessageEntry("note", "A custom message in context", true);
  const u4 = sm.appendMessage(user("And the changelog?"));
  sm.appendMessage(assistant("Done."));
  sm.appendCompaction("## Goal\nChangelog", u4, 9000);
  sm.appendMessage(user("Thanks."));
  sm.appendSessionInfo("Release day");
}

// 2. Branches: /tree back to an assistant reply, a branch summary, a second
//    root (resetLeaf), and a re-edited user message (a sibling).
{
  const { sm } = session("branches");
  const u1 = sm.appendMessage(user("Outline a post about error handling."));
  const a1 = sm.appendMessage(assistant("1. Why 2. Patterns 3. Pitfalls"));
  const u2 = sm.appendMessage(user("Use Go examples."));
  const a2 = sm.appendMessage(assistant("Wrap with %w."));
  sm.appendLabelChange(a2, "go-draft");
  sm.branchWithSummary(a1, "## Goal\nTried Go examples");
  sm.appendMessage(user("Use Rust examples instead."));
  sm.appendMessage(assistant("Return Result<T, E>."));
  sm.branch(a1);
  sm.appendMessage(user("Use Python examples."));
  sm.appendMessage(assistant("Raise and except."));
  sm.resetLeaf();
  sm.appendMessage(user("Start over: outline a post about testing."));
  sm.appendMessage(assistant("1. Unit 2. Integration"));
  sm.branch(u2);
  sm.appendMessage(assistant("A second answer to the Go question."));
  sm.appendSessionInfo("Error-handling post");
}

// 3. A branch summary from the root ("root" fromId) and an empty one.
{
  const { sm } = session("root-summary");
  sm.appendMessage(user("First try."));
  sm.appendMessage(assistant("First answer."));
  sm.branchWithSummary(null, "Abandoned the first try");
  sm.appendMessage(user("Second try."));
  const a = sm.appendMessage(assistant("Second answer."));
  sm.branchWithSummary(a, "");
  sm.appendMessage(user("Third."));
  sm.appendMessage(assistant("Third answer."));
}

// 4. A fork: createBranchedSession writes root→leaf into a new file with
//    parentSession set, labels carried over.
{
  const { sm } = session("fork");
  sm.appendMessage(user("Plan the migration."));
  const a = sm.appendMessage(assistant("Step 1: back up."));
  sm.appendLabelChange(a, "plan");
  sm.appendMessage(user("Go on."));
  sm.appendMessage(assistant("Step 2: migrate."));
  sm.createBranchedSession(a);
  sm.appendMessage(user("Forked: what about rollback?"));
  sm.appendMessage(assistant("Keep the snapshot for a week."));
}

// Give the files stable names: <case>/<n>.jsonl in creation order.
for (const name of readdirSync(out)) {
  const dir = join(out, name);
  readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().forEach((f, i) => {
    renameSync(join(dir, f), join(dir, `${i + 1}.jsonl`));
  });
}
Date.now = realNow;
