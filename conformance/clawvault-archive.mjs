// Prints, one per line, the dates `clawvault archive --older-than N --dry-run`
// would archive (the CLI prints only their count), by calling ClawVault
// 3.5.2's own archiveObservations from its dist folder.
// Usage: node clawvault-archive.mjs VAULT DAYS
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [vault, days] = process.argv.slice(2);
const dist = path.join(path.dirname(new URL(import.meta.url).pathname), "node_modules/clawvault/dist");
const chunk = fs.readdirSync(dist).find((f) => f.startsWith("chunk-") &&
  fs.readFileSync(path.join(dist, f), "utf8").includes("function archiveObservations("));
const { archiveObservations } = await import(pathToFileURL(path.join(dist, chunk)).href);
const result = archiveObservations(vault, { olderThanDays: Number(days), dryRun: true });
console.log(result.archivedDates.join("\n"));
