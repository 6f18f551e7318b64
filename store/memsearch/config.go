// Package memsearch replays OpenClaw's memory_search for an agent: it
// reads the agent's settings from openclaw.json, the index from its
// SQLite store (read-only, one read transaction per search), embeds the
// query through the agent's provider (store/embedding), and ranks with
// model/recall; then explains, file by file, why a memory is or is not
// among the results. A Session keeps what is worth keeping between
// searches: the index's vectors (until the index changes) and the
// embedded queries.
package memsearch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/regfile"
)

// maxConfigBytes bounds the settings files read whole (openclaw.json,
// auth-profiles.json): far above a real one, short of what a planted
// sparse file could make us allocate.
const maxConfigBytes = 16 << 20

// LoadConfig reads openclaw.json as OpenClaw does for memory search
// (JSON5 comments and trailing commas, ${VAR} substituted from the
// environment) and resolves agentID's memory search settings. A missing
// file is OpenClaw's defaults. warnings name variables that are not set.
func LoadConfig(path, agentID string, getenv func(string) string) (c recall.Config, raw map[string]any, warnings []string, err error) {
	data, err := regfile.ReadFileLimit(path, maxConfigBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		raw = map[string]any{}
	case err != nil:
		return c, nil, nil, fmt.Errorf("cannot read %s: %v", path, err)
	default:
		raw, err = recall.DecodeJSON(store.StripJSON5(data))
		if err != nil {
			return c, nil, nil, fmt.Errorf("%s does not parse as JSON5 (%v); fix it and try again", path, err)
		}
	}
	missing := map[string]bool{}
	substituteEnv(raw, getenv, missing)
	for name := range missing {
		warnings = append(warnings, fmt.Sprintf("openclaw.json references ${%s}, which is not set here (OpenClaw would refuse to start without it)", name))
	}
	c, enabled := recall.ResolveConfig(raw, agentID, model.NormalizeAgentID)
	if !enabled {
		return c, raw, warnings, fmt.Errorf("memory search is disabled for agent %s (memory.search.enabled is false): memory_search is not offered to it", agentID)
	}
	return c, raw, warnings, nil
}

var envNameRE = jscompat.LazyRegexp(`^[A-Z_][A-Z0-9_]*$`)

// substituteEnv replaces ${NAME} in every string of v in place ($${NAME}
// stays literally ${NAME}); names not set are left and reported.
func substituteEnv(v any, getenv func(string) string, missing map[string]bool) any {
	switch x := v.(type) {
	case string:
		return substituteString(x, getenv, missing)
	case []any:
		for i := range x {
			x[i] = substituteEnv(x[i], getenv, missing)
		}
	case map[string]any:
		for k, child := range x {
			if k != recall.OrderKey {
				x[k] = substituteEnv(child, getenv, missing)
			}
		}
	}
	return v
}

func substituteString(s string, getenv func(string) string, missing map[string]bool) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		escaped := strings.HasPrefix(s[i:], "$${")
		start := i + 2
		if escaped {
			start = i + 3
		}
		if !escaped && !strings.HasPrefix(s[i:], "${") {
			b.WriteByte('$')
			continue
		}
		end := strings.IndexByte(s[start:], '}')
		if end < 0 || !envNameRE().MatchString(s[start:start+end]) {
			b.WriteByte('$')
			continue
		}
		name := s[start : start+end]
		switch v := getenv(name); {
		case escaped:
			b.WriteString("${" + name + "}")
		case v == "":
			missing[name] = true
			b.WriteString("${" + name + "}")
		default:
			b.WriteString(v)
		}
		i = start + end
	}
	return b.String()
}

// readAuthProfiles reads the agent's auth-profiles.json, if it has one
// (where OpenClaw's provider auth keeps API keys it was given).
func readAuthProfiles(agentDir string) map[string]any {
	if agentDir == "" {
		return nil
	}
	data, err := regfile.ReadFileLimit(agentDir+string(os.PathSeparator)+"agent"+string(os.PathSeparator)+"auth-profiles.json", maxConfigBytes)
	if err != nil {
		return nil
	}
	o, err := recall.DecodeJSON(data)
	if err != nil {
		return nil
	}
	return o
}

// DefaultAgent is the agent OpenClaw's memory commands use without
// --agent: the agents entry marked default, else the first, else main.
func DefaultAgent(configPath string) string {
	data, err := regfile.ReadFileLimit(configPath, maxConfigBytes)
	if err != nil {
		return "main"
	}
	raw, err := recall.DecodeJSON(store.StripJSON5(data))
	if err != nil {
		return "main"
	}
	return recall.DefaultAgentID(raw, model.NormalizeAgentID)
}
