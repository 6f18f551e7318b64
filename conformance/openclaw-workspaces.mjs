// Where OpenClaw 2026.9 puts an agent's workspace (MEMORY.md, memory/),
// asked of its own resolveAgentWorkspaceDir on small openclaw.json cases.
// A roster of several agents with no default marker is a config 2026.9
// refuses until `openclaw doctor` migrates it (the first agent keeps the
// default workspace): such a case is resolved after that migration. Prints
// one JSON line per case and agent: {name, env, config, agent, workspace};
// the Go test (store/locate_conformance_test.go) runs our resolver on the
// same lines and expects the same workspace.
//
// Usage: node openclaw-workspaces.mjs OPENCLAW_PACKAGE_DIR >openclaw-workspaces.jsonl
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dist = path.join(process.argv[2], "dist");
// exported finds the module of dist whose name starts with prefix that
// exports name (the bundle's file names carry a hash).
async function exported(prefix, name) {
  for (const f of fs.readdirSync(dist).filter((f) => f.startsWith(prefix) && f.endsWith(".mjs")).sort()) {
    const m = await import(pathToFileURL(path.join(dist, f)).href);
    if (typeof m[name] === "function") return m[name];
  }
  throw new Error(`no ${name} in ${dist}/${prefix}*.mjs`);
}
const resolve = await exported("agent-scope-config-", "resolveAgentWorkspaceDir");
const doctor = await exported("legacy.roster-", "migratePersistedImplicitMainRoster");

// refused: a list of several agents, none marked default, ownership unset.
const refused = (c) =>
  Array.isArray(c.agents?.list) && c.agents.list.length > 1 && c.agents.ownership === undefined &&
  !c.agents.list.some((a) => a.default === true);

const state = { OPENCLAW_STATE_DIR: "/S", HOME: "/H" };
const agents = ["main", "work", "ops"];
const cases = [
  // The demo before it was made relocatable: defaults.workspace set, a
  // default agent, one with its own workspace, one with neither.
  ["defaults and own", state, { agents: { defaults: { workspace: "/S/workspace" }, list: [{ id: "main", default: true }, { id: "work", workspace: "/S/workspace-work" }, { id: "ops" }] } }],
  // The demo now: no workspace keys, every workspace inside the state dir.
  ["no workspace keys", state, { agents: { list: [{ id: "main", default: true }, { id: "work" }, { id: "ops" }] } }],
  ["no config", state, {}],
  ["no list, defaults", state, { agents: { defaults: { workspace: "/w" } } }],
  ["list without a default (after doctor)", state, { agents: { list: [{ id: "main" }, { id: "work" }] } }],
  ["list without a default, defaults (after doctor)", state, { agents: { defaults: { workspace: "/w" }, list: [{ id: "work" }, { id: "main" }] } }],
  ["first has its own (after doctor)", state, { agents: { list: [{ id: "work", workspace: "/x" }, { id: "main" }] } }],
  ["sole agent", state, { agents: { list: [{ id: "work" }] } }],
  ["another default", state, { agents: { defaults: { workspace: "/w" }, list: [{ id: "main" }, { id: "work", default: true }] } }],
  ["two defaults", state, { agents: { list: [{ id: "main", default: true }, { id: "work", default: true }] } }],
  ["explicit ownership", state, { agents: { ownership: "explicit", list: [{ id: "main", default: true }, { id: "work" }] } }],
  ["entries", state, { agents: { defaults: { workspace: "/w" }, entries: { main: { default: true }, work: { workspace: "/x" } } } }],
  ["home and spaces", state, { agents: { defaults: { workspace: " ~/w " }, list: [{ id: "main", default: true }, { id: "work", workspace: "~" }, { id: "ops", workspace: "  " }] } }],
  ["OPENCLAW_HOME", { ...state, OPENCLAW_HOME: "/O" }, { agents: { list: [{ id: "main", default: true, workspace: "~/m" }] } }],
  ["OPENCLAW_WORKSPACE_DIR", { ...state, OPENCLAW_WORKSPACE_DIR: "/D" }, { agents: { list: [{ id: "main", default: true }, { id: "work" }] } }],
];
for (const [name, env, config] of cases) {
  for (const agent of agents) {
    let cfg = structuredClone(config);
    if (refused(cfg)) cfg = doctor(cfg, { env }).config;
    const workspace = resolve(cfg, agent, env);
    console.log(JSON.stringify({ name, env, config, agent, workspace }));
  }
}
