package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// Env is the process environment the locating rules read.
type Env struct {
	Getenv func(string) string
	Home   string
	Cwd    string
}

// OSEnv is the environment of this process.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return Env{Getenv: os.Getenv, Home: home, Cwd: cwd}
}

// LocateOptions are the command-line flags that steer locating.
type LocateOptions struct {
	StateDir    string // --state-dir
	Profile     string // --profile
	Agent       string // --agent
	AllAgents   bool   // --all-agents
	SessionsDir string // --sessions-dir
	Vault       string // -v/--vault
}

// Agent is one OpenClaw agent on disk.
type Agent struct {
	ID          string
	Dir         string // <state>/agents/<id> ("" with --sessions-dir)
	SessionsDir string
	StorePath   string // sessions.json
	Workspace   string // MEMORY.md and memory/ live here
	// SQLitePath is set when the agent has the SQLite-era store.
	SQLitePath string
}

// Workspace is what locating found.
type Workspace struct {
	StateDir       string
	StateDirSource string // flag, profile, OPENCLAW_STATE_DIR, default, legacy
	StateDirExists bool
	ConfigPath     string
	Agents         []Agent
	// ObserverAgent is the agent ClawVault would observe without --agent
	// ($OPENCLAW_AGENT_ID, else main).
	ObserverAgent string
	// SessionsDirFlag is true when --sessions-dir named one bare folder.
	SessionsDirFlag bool

	Vault       string
	VaultSource string // flag, CLAWVAULT_PATH, cwd, workspace
	// Warnings are facts worth telling the user that do not stop anything.
	Warnings []string
}

// Found reports whether there is anything to look at.
func (w *Workspace) Found() bool {
	return len(w.Agents) > 0
}

var agentDirRE = jscompat.LazyRegexp(`^[a-z0-9_-]{1,64}$`)

// ResolveStateDir applies OpenClaw's rules (spec §2): --state-dir,
// --profile X (~/.openclaw-X), $OPENCLAW_STATE_DIR, ~/.openclaw when it
// exists, legacy ~/.clawdbot when it exists, else ~/.openclaw. Home is
// $OPENCLAW_HOME (~ expanded), else $HOME.
func ResolveStateDir(env Env, opt LocateOptions) (dir, source string) {
	home := openClawHome(env)
	switch {
	case opt.StateDir != "":
		return absFrom(env.Cwd, expandHome(opt.StateDir, env.Home)), "--state-dir"
	case opt.Profile != "":
		return filepath.Join(home, ".openclaw-"+opt.Profile), "--profile"
	}
	if d := strings.TrimSpace(env.Getenv("OPENCLAW_STATE_DIR")); d != "" {
		return absFrom(env.Cwd, expandHome(d, env.Home)), "OPENCLAW_STATE_DIR"
	}
	def := filepath.Join(home, ".openclaw")
	if isDir(def) {
		return def, "default"
	}
	if legacy := filepath.Join(home, ".clawdbot"); isDir(legacy) {
		return legacy, "legacy ~/.clawdbot"
	}
	return def, "default"
}

// Locate finds the state dir, the agents and the vault.
func Locate(env Env, opt LocateOptions) (*Workspace, error) {
	ws := &Workspace{ObserverAgent: model.NormalizeAgentID(orDefault(env.Getenv("OPENCLAW_AGENT_ID"), "main"))}
	if opt.Agent != "" {
		ws.ObserverAgent = model.NormalizeAgentID(opt.Agent)
	}
	if opt.SessionsDir != "" {
		dir := absFrom(env.Cwd, expandHome(opt.SessionsDir, env.Home))
		if !isDir(dir) {
			return nil, fmt.Errorf("--sessions-dir %s is not a folder", dir)
		}
		ws.SessionsDirFlag = true
		ws.Agents = []Agent{{ID: ws.ObserverAgent, SessionsDir: dir, StorePath: filepath.Join(dir, "sessions.json")}}
		ws.StateDir, ws.StateDirSource = ResolveStateDir(env, opt)
		ws.StateDirExists = isDir(ws.StateDir)
	} else {
		ws.StateDir, ws.StateDirSource = ResolveStateDir(env, opt)
		ws.StateDirExists = isDir(ws.StateDir)
		if err := ws.findAgents(env, opt); err != nil {
			return nil, err
		}
	}
	ws.findVault(env, opt)
	if ws.VaultSource == "--vault" || ws.VaultSource == "CLAWVAULT_PATH" {
		// A vault named on purpose that cannot be used is a mistake to
		// report, not a workspace where every session looks unobserved.
		if err := checkVault(ws.Vault, ws.VaultSource); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

func (ws *Workspace) findAgents(env Env, opt LocateOptions) error {
	if opt.StateDir != "" && !ws.StateDirExists {
		return fmt.Errorf("the state dir %s (from --state-dir) does not exist", ws.StateDir)
	}
	ws.ConfigPath = orDefault(env.Getenv("OPENCLAW_CONFIG_PATH"), filepath.Join(ws.StateDir, "openclaw.json"))
	cfg, cfgErr := readOpenClawConfig(ws.ConfigPath)
	if cfgErr != nil {
		ws.Warnings = append(ws.Warnings, cfgErr.Error())
	}
	wsEnv := workspaceEnv{stateDir: ws.StateDir, home: openClawHome(env), cwd: env.Cwd,
		workspaceDir: strings.TrimSpace(env.Getenv("OPENCLAW_WORKSPACE_DIR"))}
	agentsDir := filepath.Join(ws.StateDir, "agents")
	entries, err := os.ReadDir(agentsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot list %s: %w", agentsDir, err)
	}
	for _, e := range entries {
		id := e.Name()
		if !e.IsDir() || !agentDirRE().MatchString(id) {
			continue
		}
		a := Agent{ID: id, Dir: filepath.Join(agentsDir, id)}
		a.SessionsDir = filepath.Join(a.Dir, "sessions")
		a.StorePath = filepath.Join(a.SessionsDir, "sessions.json")
		if p := cfg.storePath(id, ws.StateDir); p != "" {
			a.StorePath = p
		}
		if p := filepath.Join(a.Dir, "agent", "openclaw-agent.sqlite"); isFile(p) {
			a.SQLitePath = p
		}
		if !isDir(a.SessionsDir) && a.SQLitePath == "" {
			continue
		}
		a.Workspace = cfg.workspace(id, wsEnv)
		ws.Agents = append(ws.Agents, a)
	}
	if opt.Agent != "" && !opt.AllAgents {
		i := slices.IndexFunc(ws.Agents, func(a Agent) bool { return a.ID == opt.Agent })
		if i < 0 {
			return fmt.Errorf("agent %q has no folder under %s (agents found: %s)", opt.Agent, agentsDir, agentIDs(ws.Agents))
		}
		ws.Agents = ws.Agents[i : i+1]
	}
	return nil
}

func agentIDs(agents []Agent) string {
	if len(agents) == 0 {
		return "none"
	}
	ids := make([]string, len(agents))
	for i, a := range agents {
		ids[i] = a.ID
	}
	return strings.Join(ids, ", ")
}

// findVault applies ClawVault's order (-v, $CLAWVAULT_PATH, walk up from the
// working folder to a folder with .clawvault.json), then tries the folder
// `clawvault setup` uses by default: <workspace>/memory.
func (ws *Workspace) findVault(env Env, opt LocateOptions) {
	if opt.Vault != "" {
		ws.Vault, ws.VaultSource = absFrom(env.Cwd, expandHome(opt.Vault, env.Home)), "--vault"
		return
	}
	if v := strings.TrimSpace(env.Getenv("CLAWVAULT_PATH")); v != "" {
		ws.Vault, ws.VaultSource = absFrom(env.Cwd, expandHome(v, env.Home)), "CLAWVAULT_PATH"
		return
	}
	for dir := env.Cwd; dir != ""; {
		if isFile(filepath.Join(dir, ".clawvault.json")) {
			ws.Vault, ws.VaultSource = dir, "found above the working folder"
			return
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, a := range ws.Agents {
		if p := filepath.Join(a.Workspace, "memory"); a.Workspace != "" && isFile(filepath.Join(p, ".clawvault.json")) {
			ws.Vault, ws.VaultSource = p, "clawvault setup's default in the "+a.ID+" workspace"
			return
		}
	}
}

// CheckVault says why a vault path cannot be used, or nil.
func CheckVault(path string) error { return checkVault(path, "") }

// checkVault is CheckVault naming where the path came from, if known.
func checkVault(path, source string) error {
	if path == "" {
		return errors.New("no ClawVault vault found: pass -v DIR, set CLAWVAULT_PATH, or run from inside the vault")
	}
	from := ""
	if source != "" {
		from = " (from " + source + ")"
	}
	if !isDir(path) {
		return fmt.Errorf("the vault %s%s does not exist", path, from)
	}
	if !isFile(filepath.Join(path, ".clawvault.json")) {
		return fmt.Errorf("%s%s is not a ClawVault vault: it has no .clawvault.json", path, from)
	}
	return nil
}

// StripJSON5 removes // and /* */ comments and trailing commas outside
// strings: enough of JSON5 for the config files OpenClaw users write.
func StripJSON5(data []byte) []byte {
	var out bytes.Buffer
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			out.WriteByte(c)
			if c == '\\' && i+1 < len(data) {
				i++
				out.WriteByte(data[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			out.WriteByte(c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return out.Bytes()
			}
			i += end + 3
		case c == ',':
			j := i + 1
			for j < len(data) && isSpace(data[j]) {
				j++
			}
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				continue
			}
			out.WriteByte(c)
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v != "" {
		return v
	}
	return def
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
