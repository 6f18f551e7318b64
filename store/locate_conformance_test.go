package store

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestConformanceOpenClawWorkspaces: every agent's workspace is where
// OpenClaw 2026.9.6's resolveAgentWorkspaceDir puts it, on the cases of
// conformance/openclaw-workspaces.mjs (its answers are kept in
// cli/testdata/conformance/openclaw-workspaces.jsonl; `make conformance`
// asks them again).
func TestConformanceOpenClawWorkspaces(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join(sqliteConformanceDir(), "openclaw-workspaces.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var c struct {
			Name      string            `json:"name"`
			Env       map[string]string `json:"env"`
			Config    json.RawMessage   `json:"config"`
			Agent     string            `json:"agent"`
			Workspace string            `json:"workspace"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cfg, err := parseOpenClawConfig(c.Config)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		env := Env{Getenv: func(k string) string { return c.Env[k] }, Home: c.Env["HOME"], Cwd: "/cwd"}
		wsEnv := workspaceEnv{stateDir: c.Env["OPENCLAW_STATE_DIR"], home: openClawHome(env), cwd: env.Cwd, workspaceDir: c.Env["OPENCLAW_WORKSPACE_DIR"]}
		if got := cfg.workspace(c.Agent, wsEnv); got != c.Workspace {
			t.Errorf("%s, agent %s: %s, OpenClaw says %s\n%s", c.Name, c.Agent, got, c.Workspace, c.Config)
		}
	}
	if n < 30 {
		t.Errorf("only %d cases", n)
	}
}

// Values of the wrong type are ignored one by one, as OpenClaw ignores
// them, rather than costing the whole file.
func TestOpenClawConfigOddValues(t *testing.T) {
	t.Parallel()
	env := workspaceEnv{stateDir: "/S", home: "/H", cwd: "/cwd"}
	for _, c := range []struct{ name, config, agent, want string }{
		{"a string marker", `{"agents": {"list": [{"id": "main", "default": "yes"}, {"id": "work", "default": true}]}}`, "work", "/S/workspace"},
		{"a numeric workspace", `{"agents": {"defaults": {"workspace": 5}, "list": [{"id": "work", "workspace": 7}]}}`, "work", "/S/workspace"},
		{"entries not an object", `{"agents": {"entries": [1, 2], "list": [{"id": "main", "default": true}]}}`, "main", "/S/workspace-main"},
		{"list not an array", `{"agents": {"list": {"id": "main"}}}`, "main", "/S/workspace-main"},
		{"null entries", `{"agents": {"list": [null, 3, {"id": "ops", "workspace": "rel"}]}}`, "ops", "/cwd/rel"},
		{"an upper-case id", `{"agents": {"list": [{"id": " Work ", "workspace": "~/w"}, {"id": "main", "default": true}]}}`, "work", "/H/w"},
	} {
		cfg, err := parseOpenClawConfig([]byte(c.config))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := cfg.workspace(c.agent, env); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func FuzzOpenClawConfig(f *testing.F) {
	f.Add([]byte(`{"agents": {"defaults": {"workspace": "~/w"}, "entries": {"main": {"default": true}, "work": {"workspace": "/x"}}}}`))
	f.Add([]byte(`{"agents": {"list": [{"id": "main"}, {"id": "work", "default": false}]}, /* c */ }`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := parseOpenClawConfig(data)
		if err != nil {
			return
		}
		env := workspaceEnv{stateDir: "/S", home: "/H", cwd: "/cwd"}
		for _, id := range []string{"main", "work"} {
			if ws := cfg.workspace(id, env); !filepath.IsAbs(ws) {
				t.Errorf("workspace of %s is not absolute: %q", id, ws)
			}
		}
	})
}
