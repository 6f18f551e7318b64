// Checkpoints and vacuums the store OpenClaw's importer wrote, keeps it
// zstd-compressed at OUT, with the bytes SQLite's dbstat (Node 24's
// node:sqlite) counts for each of its tables and indexes at DBSTAT, and
// dumps its events to DUMP, one JSON object a line: {sessionId, seq,
// compressed, event}.
// Usage: node import-dump.mjs DB OUT DUMP DBSTAT
import { DatabaseSync } from "node:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { constants, zstdCompressSync, zstdDecompressSync } from "node:zlib";

const [db, out, dump, dbstat] = process.argv.slice(2);
const d = new DatabaseSync(db);
d.exec("PRAGMA wal_checkpoint(TRUNCATE); VACUUM");
const cols = d.prepare("SELECT name FROM pragma_table_info('transcript_events')").all().map((r) => r.name);
const zstd = cols.includes("event_zstd") ? ", event_zstd" : "";
const lines = d.prepare(`SELECT session_id, seq, event_json${zstd} FROM transcript_events ORDER BY session_id, seq`).all()
  .map((r) => JSON.stringify({ sessionId: r.session_id, seq: r.seq, compressed: !!r.event_zstd,
    event: r.event_json ?? zstdDecompressSync(r.event_zstd).toString("utf8") }));
const pages = Object.fromEntries(d.prepare("SELECT name, pgsize FROM dbstat WHERE aggregate = TRUE ORDER BY name").all().map((r) => [r.name, r.pgsize]));
d.close();
writeFileSync(dbstat, JSON.stringify(pages, null, 1) + "\n");
writeFileSync(dump, lines.join("\n") + "\n");
writeFileSync(out, zstdCompressSync(readFileSync(db), { params: { [constants.ZSTD_c_compressionLevel]: 19 } }));
