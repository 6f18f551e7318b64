// Runs OpenClaw 2026.9.6's own small functions of memory_search on a list
// of inputs and prints their answers as JSON, for model/recall's table
// tests: extractKeywords (both tokenizers), buildFtsQuery, the exact-path
// matcher, bm25RankToScore, the MMR tokenizer and Jaccard, truncateUtf16Safe,
// and Node's localeCompare (ICU), which breaks every tie.
// Usage: node recall-cases.mjs OPENCLAW_PACKAGE_DIR > js-cases.json
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dist = path.join(process.argv[2], "dist");
const find = (prefix, marker) => {
  const f = fs.readdirSync(dist).find((n) => n.startsWith(prefix) && n.endsWith(".mjs") && fs.readFileSync(path.join(dist, n), "utf8").includes(marker));
  if (!f) throw new Error(`no ${prefix}* with ${marker}`);
  return import(pathToFileURL(path.join(dist, f)));
};
const qe = await find("query-expansion-", "function extractKeywords");
const ms = await find("manager-search-", "function buildFtsQuery");
const tk = await find("tokenize-", "function jaccardSimilarity");
const u16 = await find("utf16-slice-", "function truncateUtf16Safe");

const queries = [
  "dark roast coffee", "what coffee does the user like", "that thing we discussed about the router yesterday",
  "Router VLAN-42 migration!!", "ルーター 設定", "東京のオフィス", "之前讨论的那个方案", "회의에서 예산을", "우리는 서울에",
  "la reunión de presupuesto", "o que eu disse sobre o orçamento", "ما هو الاجتماع", "I am a", "MEMORY.md",
  "memory/2026-11-20.md", "café crème", "cafe\u0301", "x y z 12 345 ab_c", "Ünïcödé ΣΊΣΥΦΟΣ", "   padded   ", "\"quoted\" words",
  "emoji 🎉 party", "a", "the", "under_score snake_case", "2026-11-20", "12345", "İstanbul", "ß straße",
];
const tokenizers = ["unicode61", "trigram"];
const out = { extractKeywords: [], buildFtsQuery: [], exactPath: [], rank: [], mmrTokens: [], truncate: [], localeCompare: [] };
for (const q of queries) {
  for (const t of tokenizers) out.extractKeywords.push({ q, tokenizer: t, keywords: qe.t(q, { ftsTokenizer: t }) });
  out.buildFtsQuery.push({ q, fts: ms.h(q) });
  out.mmrTokens.push({ q, tokens: [...tk.r(q)].sort() });
}
const paths = ["MEMORY.md", "memory/2026-11-20.md", "memory/projects/router.md", "USER.md", "memory/vlan.md", "memory/VLAN.md", "./memory/café.md", "memory\\win.md", "notes/team.md", "memory/.hidden"];
const pathQueries = ["MEMORY.md", "memory.md", "2026-11-20", "2026-11-20.md", "memory/2026-11-20.md", "./memory/2026-11-20.md", "router", "router.md", "projects/router.md", "memory/projects/router.md", "vlan", "VLAN", "café", "cafe\u0301", ".", "", " memory\\win.md ", ".hidden", "team"];
for (const q of pathQueries) {
  const m = ms.t(q);
  for (const p of paths) out.exactPath.push({ q, path: p, specificity: m(p) });
}
for (const r of [-12.5, -2.6954229081658907, -1, -1e-6, 0, 0.5, 3, Infinity, -Infinity, NaN]) out.rank.push({ rank: String(r), score: ms.m(r) });
for (const [s, n] of [["abc", 2], ["a😀b", 2], ["a😀b", 3], ["😀😀", 1], ["short", 700], ["x".repeat(10), 0]]) out.truncate.push({ s, n, out: u16.r(s, n) });
const words = ["MEMORY.md", "memory/2026-11-20.md", "memory/2026-11-20-meeting.md", "memory/projects/router.md", "memory_2", "memory-2", "memory.2", "Memory.md",
  "memory/vlan.md", "USER.md", "user.md", "a", "A", "b", "B", "_a", "-a", "a-b", "a_b", "ab", "a b", "a/b", "a.b", "é", "e", "f", "z", "ä", "東京", "ルーター", "10", "9", "a10", "a9", "id-Z", "id-a"];
for (const a of words) for (const b of words) out.localeCompare.push([a, b, Math.sign(a.localeCompare(b))]);
out.jaccard = [[["a", "b"], ["b", "c"]], [[], []], [["a"], []], [["x", "y", "z"], ["x", "y", "z"]]].map(([a, b]) => ({ a, b, j: tk.t(new Set(a), new Set(b)) }));
process.stdout.write("{\n" + Object.entries(out).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n") + "\n}\n");
