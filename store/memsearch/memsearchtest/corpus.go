// Package memsearchtest writes the memory corpus that make conformance
// indexes and searches with the real OpenClaw, and that the tests replay
// against the stores it kept: a workspace with MEMORY.md, USER.md, daily
// notes of many ages, undated notes, near-duplicates, CJK and Spanish
// text, importance annotations, files OpenClaw does not index; an
// openclaw.json that
// points memory search at a local embedding endpoint; and the queries.
package memsearchtest

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Now is the clock the corpus is indexed and searched at.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// Model is the embedding model name the corpus is indexed with.
const Model = "det-embed-64"

// BaseURL is the endpoint openclaw.json names. make conformance serves
// the embedding endpoint there; tests dial their own server for it.
const BaseURL = "http://127.0.0.1:47211/v1"

// APIKey is the corpus's (fake) key; the tests check it is never printed.
const APIKey = "sk-conformance-7f3a9c"

// Query is one search of the corpus, with the CLI flags it runs with.
type Query struct {
	Name       string
	Text       string
	MaxResults int     // 0: the configured
	MinScore   float64 // <0: the configured
}

// Queries are the searches make conformance records.
var Queries = []Query{
	{"coffee-roast", "dark roast coffee", 0, -1},
	{"coffee-question", "what coffee does the user like", 0, -1},
	{"router-vlan", "router VLAN migration", 0, -1},
	{"exact-vlan", "vlan", 0, -1},
	{"exact-memory", "MEMORY.md", 0, -1},
	{"exact-stem-date", "2026-11-20", 0, -1},
	{"postgres", "postgres upgrade", 0, -1},
	{"credit-notes", "credit notes billing", 0, -1},
	{"alice", "Alice", 0, -1},
	{"conversational", "that thing we discussed about the router yesterday", 0, -1},
	{"deploy-tuesday", "deploy on tuesday", 0, -1},
	{"timezone", "timezone", 0, -1},
	{"cjk-router", "ルーター 設定", 0, -1},
	{"cjk-tokyo", "東京", 0, -1},
	{"spanish", "la reunión de presupuesto", 0, -1},
	{"holiday", "holiday plans", 0, -1},
	{"keyboard", "keyboard layout", 0, -1},
	{"bob", "what is Bob responsible for", 0, -1},
	{"allergy", "allergies peanuts", 0, -1},
	{"offsite", "team offsite", 0, -1},
	{"ethiopia", "ethiopia", 0, -1},
	{"postgres-17", "postgresql 17 migration plan", 0, -1},
	{"cafe", "café", 0, -1},
	{"exact-dir", "memory/projects/router.md", 0, -1},
	{"stopword", "the", 0, -1},
	{"board", "board meeting decisions", 0, -1},
	{"nothing", "xyzzy plugh", 0, -1},
	{"coffee-wide", "coffee", 12, 0.05},
	{"router-low", "router", 3, 0.1},
	{"standup", "standup notes", 0, -1},
	// Words matched one at a time (the whole query matches nothing): the
	// lexical boost does not saturate, and words in paths count.
	{"mixed-words", "alice postgres router billing", 0, -1},
	{"alice-postgres", "what does alice think about postgres", 0, -1},
	{"billing-router", "billing router", 0, -1},
	{"vlan-lisbon", "vlan trunk management lisbon", 0, -1},
	{"path-words", "people alice", 0, -1},
	{"projects-credit", "projects billing credit", 0, -1},
	{"exact-name", "router.md", 0, -1},
	{"exact-upper", "USER.MD", 0, -1},
}

// file is one file of the workspace: its age in days sets its mtime.
// notes/team.md and DREAMS.md are not memory files OpenClaw indexes.
type file struct {
	path    string
	ageDays int
	text    string
}

var files = []file{
	{"MEMORY.md", 2, `# Memory

## Preferences
- The user prefers dark roast coffee in the morning, black, no sugar.
- Tea in the afternoon: green tea, never after 6pm.
- Keyboard layout: US international with dead keys; uses a split keyboard.
- Editor: Helix, with a light theme during the day.

## People
- Alice runs the infrastructure team and owns the VLAN configuration.
- Bob is responsible for finance, invoices and the credit notes process.
- Carol leads design; she prefers Figma over Sketch.

## Projects
- Router migration: move the lab network to VLAN 42, cutover on a Tuesday.
- Postgres upgrade from 15 to 17 planned for December, Alice reviews the plan.
- Billing: credit notes must reference the original invoice number.

## Decisions
<!-- importance: 9 -->
- Deployments happen on Tuesdays after the standup, never on Fridays.
<!-- importance: 3 -->
- The team offsite is in Lisbon in March.
`},
	{"USER.md", 40, `# User
Name: Sam Weber. Timezone: Europe/Berlin. Languages: German, English, some Spanish.
Allergies: peanuts and tree nuts. Drinks coffee every morning.
`},
	{"memory/2026-11-20.md", 1, `# 2026-11-20
## Standup notes
- Alice confirmed the router VLAN migration for next Tuesday.
- Deploy of the billing service moved to Tuesday after the standup.
## Follow-ups
- Ask Bob about the credit notes backlog.
`},
	{"memory/2026-11-14.md", 7, `# 2026-11-14
Discussed the Postgres 17 migration plan with Alice: test restore first, then a logical replica.
The user asked to keep the plan in memory/projects/postgres.md.
`},
	{"memory/2026-11-10.md", 11, `# 2026-11-10
東京のオフィスでルーターの設定を変更しました。VLAN 42 に移行する予定です。
会議は来週の火曜日です。
`},
	{"memory/2026-11-05.md", 16, `# 2026-11-05
La reunión de presupuesto fue con Bob: el presupuesto del equipo para 2027 sube un diez por ciento.
Notas: revisar las notas de crédito pendientes.
`},
	{"memory/2026-11-01-meeting.md", 20, `# Board meeting 2026-11-01
Decisions: approve the Lisbon offsite budget; hire a second SRE; keep Tuesday deploys.
`},
	{"memory/2026-10-22.md", 30, `# 2026-10-22
Bought new coffee beans: a dark roast from Ethiopia. The user likes dark roast coffee in the morning.
`},
	{"memory/2026-09-01.md", 81, `# 2026-09-01
The user tried a light roast café from Kenya and did not like it; prefers dark roast.
Holiday plans: two weeks in Portugal in late September.
`},
	{"memory/2026-06-15.md", 159, `# 2026-06-15
Postgres 15 vacuum issues on the billing database; Alice tuned autovacuum.
Router firmware updated on the lab router.
`},
	{"memory/2025-12-24.md", 332, `# 2025-12-24
Holiday plans: Christmas with family in Hamburg; no deploys until January.
`},
	{"memory/projects/router.md", 5, `# Router project
The lab router moves to VLAN 42. Alice owns the VLAN configuration; the cutover is on a Tuesday.
Rollback: keep the old VLAN 10 trunk for one week.
`},
	{"memory/projects/billing.md", 12, `# Billing project
Credit notes reference the original invoice; Bob approves every credit note above 500 EUR.
`},
	{"memory/people/alice.md", 60, `# Alice
Infrastructure lead. Owns networking (VLANs, routers) and databases (Postgres).
Prefers written plans reviewed a day ahead.
`},
	{"memory/vlan.md", 25, `# VLAN notes
VLAN 42: lab. VLAN 10: legacy trunk. VLAN 99: management, no user traffic.
`},
	{"notes/team.md", 10, `# Team notes
The team offsite in Lisbon: March, three days; Carol plans the design workshop.
`},
	{"DREAMS.md", 3, `# Dreams
A dream about coffee and routers.
`},
}

// WriteWorkspace writes the corpus's files under workspace, each with
// its mtime set its age before Now.
func WriteWorkspace(workspace string) error {
	for _, f := range files {
		p := filepath.Join(workspace, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			return err
		}
		t := Now.Add(-time.Duration(f.ageDays) * 24 * time.Hour)
		if err := os.Chtimes(p, t, t); err != nil {
			return err
		}
	}
	return nil
}

// Config is openclaw.json for a state dir whose main agent's workspace is
// workspace, with memory search on the local endpoint at baseURL.
func Config(workspace, baseURL string) string {
	return fmt.Sprintf(`{
  "agents": {"defaults": {"workspace": %q}},
  "memory": {
    "search": {
      "provider": "openai-compatible",
      "model": %q,
      "remote": {"baseUrl": %q, "apiKey": %q}
    }
  }
}
`, workspace, Model, baseURL, APIKey)
}

// WriteState writes a state dir: openclaw.json and the main agent's
// workspace (state/workspace).
func WriteState(state, baseURL string) error {
	ws := filepath.Join(state, "workspace")
	if err := WriteWorkspace(ws); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(state, "agents", "main", "agent"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(state, "openclaw.json"), []byte(Config(ws, baseURL)), 0o644)
}

// UnpackStore writes the store make conformance kept in dir
// (openclaw-agent.sqlite.zst) to path.
func UnpackStore(dir, path string) error {
	packed, err := os.ReadFile(filepath.Join(dir, "openclaw-agent.sqlite.zst"))
	if err != nil {
		return err
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		return err
	}
	defer dec.Close()
	raw, err := dec.DecodeAll(packed, nil)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, raw, 0o600)
}
