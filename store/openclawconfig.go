package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"clawvault-tui/store/regfile"
)

// openClawConfig is the part of openclaw.json the locating rules read.
// Values whose type OpenClaw checks at use are decoded loosely (a
// "default": "yes" or a numeric workspace is ignored, as OpenClaw ignores
// it), so one odd value does not cost the whole file.
type openClawConfig struct {
	Agents struct {
		Defaults struct {
			Workspace any `json:"workspace"`
		} `json:"defaults"`
		// Ownership "explicit" means no agent is the default one.
		Ownership json.RawMessage `json:"ownership"`
		// The roster: agents.entries (keyed by id, OpenClaw 2026.9), else
		// agents.list. Present but not an object or array, it lists none.
		List    json.RawMessage `json:"list"`
		Entries json.RawMessage `json:"entries"`
	} `json:"agents"`
	Session struct {
		Store string `json:"store"`
	} `json:"session"`
}

// rosterEntry is one agent of the roster, as the workspace rules see it.
type rosterEntry struct {
	id        string
	workspace string // "" when absent or not a string
	// marker is the "default" value as written ("" when absent).
	marker string
}

// readOpenClawConfig reads openclaw.json, which OpenClaw parses as JSON5:
// comments and trailing commas are stripped before decoding. A missing file
// is fine; one that does not parse is reported and ignored.
func readOpenClawConfig(path string) (*openClawConfig, error) {
	data, err := regfile.ReadFileLimit(path, maxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &openClawConfig{}, nil
	}
	if err != nil {
		return &openClawConfig{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	cfg, err := parseOpenClawConfig(data)
	if err != nil {
		return cfg, fmt.Errorf("%s does not parse (%v); using OpenClaw's default paths", path, err)
	}
	return cfg, nil
}

func parseOpenClawConfig(data []byte) (*openClawConfig, error) {
	cfg := &openClawConfig{}
	if err := json.Unmarshal(StripJSON5(data), cfg); err != nil {
		return &openClawConfig{}, err
	}
	return cfg, nil
}

// roster lists the configured agents in the file's order, and whether the
// file has a roster at all (agents.entries or agents.list, even empty).
func (c *openClawConfig) roster() (entries []rosterEntry, present, isList bool) {
	if c.Agents.Entries != nil {
		keys, vals := objectMembers(c.Agents.Entries)
		for i, k := range keys {
			if e, ok := rosterEntryOf(vals[i]); ok {
				e.id = k
				entries = append(entries, e)
			}
		}
		return entries, true, false
	}
	if c.Agents.List == nil {
		return nil, false, false
	}
	var list []json.RawMessage
	if json.Unmarshal(c.Agents.List, &list) == nil {
		for _, raw := range list {
			if e, ok := rosterEntryOf(raw); ok {
				entries = append(entries, e)
			}
		}
	}
	return entries, true, true
}

// rosterEntryOf reads one agent's object; anything else is no entry.
func rosterEntryOf(raw json.RawMessage) (rosterEntry, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return rosterEntry{}, false
	}
	var e rosterEntry
	json.Unmarshal(fields["id"], &e.id)
	json.Unmarshal(fields["workspace"], &e.workspace)
	if m, ok := fields["default"]; ok {
		e.marker = string(bytes.TrimSpace(m))
	}
	return e, true
}

// objectMembers are the keys and values of a JSON object in the order
// written (encoding/json's maps forget it); nothing when raw is not one.
func objectMembers(raw json.RawMessage) (keys []string, vals []json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		var v json.RawMessage
		if err != nil || !ok || dec.Decode(&v) != nil {
			return nil, nil
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals
}

// defaultAgent is the agent OpenClaw 2026.9 gives the default workspace
// (its legacy data owner), or "" for none: the one agent marked
// "default": true (unless agents.ownership is "explicit"), else the only
// agent, else "main" when the file has no roster. A list of several agents
// with no marker is a config 2026.9 refuses until `openclaw doctor` pins
// the first agent's workspace to the default one: the first agent then.
func (c *openClawConfig) defaultAgent() string {
	entries, present, isList := c.roster()
	explicit := string(bytes.TrimSpace(c.Agents.Ownership)) == `"explicit"`
	var marked []string
	unmarked := true
	for _, e := range entries {
		if e.marker == "true" {
			marked = append(marked, e.id)
		}
		unmarked = unmarked && (e.marker == "" || e.marker == "false")
	}
	switch {
	case len(marked) == 1 && !explicit:
		return agentKey(marked[0])
	case len(entries) == 1:
		return agentKey(entries[0].id)
	case !present:
		return "main"
	case isList && c.Agents.Ownership == nil && len(entries) > 1 && unmarked:
		return agentKey(entries[0].id)
	}
	return ""
}

// agentKey is an agent id as OpenClaw compares them: trimmed, lower case.
func agentKey(id string) string { return strings.ToLower(strings.TrimSpace(id)) }

// workspaceEnv is what OpenClaw's workspace rules read besides the file.
type workspaceEnv struct {
	stateDir string
	home     string // OpenClaw's home: $OPENCLAW_HOME, else $HOME
	cwd      string
	// workspaceDir is $OPENCLAW_WORKSPACE_DIR: the default agent's
	// workspace when the file names none.
	workspaceDir string
}

// workspace is where an agent's MEMORY.md and memory/ live, as OpenClaw
// 2026.9's resolveAgentWorkspaceDir puts them: the agent's own workspace;
// else, for the default agent, agents.defaults.workspace, else
// $OPENCLAW_WORKSPACE_DIR, else <state>/workspace; else, for another
// agent, <agents.defaults.workspace>/<id>, else <state>/workspace-<id>.
// conformance/openclaw-workspaces.mjs asks OpenClaw the same questions.
func (c *openClawConfig) workspace(agentID string, env workspaceEnv) string {
	id := agentKey(agentID)
	entries, _, _ := c.roster()
	for _, e := range entries {
		if agentKey(e.id) == id {
			if own := strings.TrimSpace(e.workspace); own != "" {
				return env.userPath(own)
			}
			break
		}
	}
	fallback, _ := c.Agents.Defaults.Workspace.(string)
	fallback = strings.TrimSpace(fallback)
	switch {
	case id == c.defaultAgent() && fallback != "":
		return env.userPath(fallback)
	case id == c.defaultAgent() && env.workspaceDir != "":
		return absFrom(env.cwd, env.workspaceDir)
	case id == c.defaultAgent():
		return filepath.Join(env.stateDir, "workspace")
	case fallback != "":
		return filepath.Join(env.userPath(fallback), id)
	}
	return filepath.Join(env.stateDir, "workspace-"+id)
}

// userPath is a path from the config as OpenClaw resolves it: a leading
// ~ is the home, and a relative path is taken from the working folder.
func (env workspaceEnv) userPath(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		p = env.home + p[1:]
	}
	return absFrom(env.cwd, p)
}

// openClawHome is the home OpenClaw expands ~ with: $OPENCLAW_HOME (its
// own ~ being $HOME), else $HOME.
func openClawHome(env Env) string {
	h := strings.TrimSpace(env.Getenv("OPENCLAW_HOME"))
	if h == "" || h == "undefined" || h == "null" {
		return env.Home
	}
	return absFrom(env.Cwd, expandHome(h, env.Home))
}

func (c *openClawConfig) storePath(agentID, stateDir string) string {
	if c.Session.Store == "" {
		return ""
	}
	p := strings.ReplaceAll(c.Session.Store, "{agentId}", agentID)
	return absFrom(stateDir, expandHome(p, filepath.Dir(stateDir)))
}
