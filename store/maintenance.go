package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/jsonscan"
)

// OpenClawSettings is what a retention plan reads from openclaw.json:
// session.maintenance, cron.sessionRetention, and the configured models
// (for the Model column of the cleanup table).
type OpenClawSettings struct {
	Path        string
	Exists      bool
	Maintenance model.MaintenanceSettings
	// DefaultModel and AgentModels are agents.defaults.model.primary and
	// agents.list[].model.primary, as "provider/model".
	DefaultModel string
	AgentModels  map[string]string
}

// LoadOpenClawSettings reads the maintenance settings of openclaw.json. A
// missing file gives OpenClaw's defaults. A file that cannot be read or
// parsed, or a setting of the wrong type, is an error that names the file
// and the setting: OpenClaw itself refuses to start on such a config, so a
// plan from guessed settings would mislead.
func LoadOpenClawSettings(fsys FS, path string) (*OpenClawSettings, error) {
	out := &OpenClawSettings{Path: path, AgentModels: map[string]string{}}
	if path == "" {
		return out, nil
	}
	data, err := readFileLimit(fsys, path, maxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the OpenClaw config %s: %v", path, err)
	}
	out.Exists = true
	if err := parseOpenClawSettings(out, data); err != nil {
		return nil, err
	}
	return out, nil
}

// parseOpenClawSettings reads openclaw.json's bytes into out.
func parseOpenClawSettings(out *OpenClawSettings, data []byte) error {
	path := out.Path
	var doc struct {
		Session struct {
			Maintenance map[string]json.RawMessage `json:"maintenance"`
		} `json:"session"`
		Cron struct {
			Enabled          *bool           `json:"enabled"`
			SessionRetention json.RawMessage `json:"sessionRetention"`
		} `json:"cron"`
		Agents struct {
			Defaults struct {
				Model json.RawMessage `json:"model"`
			} `json:"defaults"`
			List []struct {
				ID    string          `json:"id"`
				Model json.RawMessage `json:"model"`
			} `json:"list"`
		} `json:"agents"`
	}
	if err := json.Unmarshal(StripJSON5(data), &doc); err != nil {
		return fmt.Errorf("the OpenClaw config %s does not parse (%v): fix it, or point OPENCLAW_CONFIG_PATH elsewhere", path, err)
	}
	m := &out.Maintenance
	fields := []struct {
		name  string
		dst   *model.Setting
		kinds string // s: string, n: number, f: false, i: positive integer, e: enum warn|enforce
	}{
		{"mode", &m.Mode, "e"}, {"pruneAfter", &m.PruneAfter, "sn"}, {"maxEntries", &m.MaxEntries, "i"},
		{"rotateBytes", &m.RotateBytes, "sn"}, {"resetArchiveRetention", &m.ResetArchiveRetention, "snf"},
		{"maxDiskBytes", &m.MaxDiskBytes, "sn"}, {"highWaterBytes", &m.HighWaterBytes, "sn"},
	}
	for _, f := range fields {
		raw, ok := doc.Session.Maintenance[f.name]
		if !ok {
			continue
		}
		v, err := settingValue(raw, f.kinds)
		if err != nil {
			return fmt.Errorf("%s: session.maintenance.%s %s", path, f.name, err)
		}
		*f.dst = model.Setting{Value: v, Source: path}
	}
	if raw, ok := doc.Session.Maintenance["pruneDays"]; ok && m.PruneAfter.Value == "" {
		v, err := settingValue(raw, "i")
		if err != nil {
			return fmt.Errorf("%s: session.maintenance.pruneDays %s", path, err)
		}
		m.PruneAfter = model.Setting{Value: v + "d", Source: path + " (pruneDays)"}
	}
	if raw := doc.Cron.SessionRetention; len(raw) > 0 {
		v, err := settingValue(raw, "sf")
		if err != nil {
			return fmt.Errorf("%s: cron.sessionRetention %s", path, err)
		}
		m.CronRetention = model.Setting{Value: v, Source: path}
	}
	if doc.Cron.Enabled != nil && !*doc.Cron.Enabled {
		// The reaper runs on the cron timer; with cron off it never runs.
		m.CronRetention = model.Setting{Value: "false", Source: path + " (cron.enabled is false)"}
	}
	out.DefaultModel = primaryModel(doc.Agents.Defaults.Model)
	for _, a := range doc.Agents.List {
		if pm := primaryModel(a.Model); pm != "" {
			out.AgentModels[strings.ToLower(strings.TrimSpace(a.ID))] = pm
		}
	}
	return nil
}

// settingValue turns a JSON value into a setting's text, accepting the
// kinds OpenClaw's config schema accepts for it.
func settingValue(raw json.RawMessage, kinds string) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '"':
		if !strings.ContainsAny(kinds, "se") {
			return "", fmt.Errorf("is %s, not a number", raw)
		}
		s := jsonscan.Unquote(raw)
		if strings.TrimSpace(s) == "" {
			return "", errors.New("is empty")
		}
		if strings.Contains(kinds, "e") && s != "warn" && s != "enforce" {
			return "", fmt.Errorf("%q must be warn or enforce", s)
		}
		return s, nil
	case string(raw) == "false" && strings.Contains(kinds, "f"):
		return "false", nil
	case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') && strings.ContainsAny(kinds, "ni"):
		f, err := jsonscan.Float(raw)
		if err != nil {
			return "", fmt.Errorf("%s is not a number", raw)
		}
		if strings.Contains(kinds, "i") && (f <= 0 || f != float64(int64(f))) {
			return "", fmt.Errorf("%s must be a positive whole number", raw)
		}
		return string(jscompat.AppendJSNumber(nil, f)), nil
	}
	return "", fmt.Errorf("has the wrong type (%s)", raw)
}

// primaryModel reads a model setting: "provider/model" or {primary: …}.
func primaryModel(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Primary string `json:"primary"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.Primary
	}
	return ""
}

// SessionStoreFile is sessions.json as a plan read it: its bytes, so that
// applying the plan can tell whether it changed since.
type SessionStoreFile struct {
	Path    string
	Exists  bool
	Data    []byte
	Size    int64
	ModTime time.Time
	Mode    fs.FileMode
	Inode   uint64
	SHA256  string
}

// ReadSessionStoreFile reads sessions.json with its identity.
func ReadSessionStoreFile(fsys FS, path string) (*SessionStoreFile, error) {
	sf := &SessionStoreFile{Path: path}
	fi, err := fsys.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return sf, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot stat %s: %v", path, err)
	}
	data, err := readFileLimit(fsys, path, maxSessionStoreFile)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	id := fileid.Of(fi)
	sf.Exists, sf.Data, sf.Size, sf.ModTime, sf.Inode, sf.Mode = true, data, id.Size, id.ModTime, id.Inode, fi.Mode().Perm()
	sf.SHA256 = SHA256Hex(data)
	return sf, nil
}

// SHA256Hex is the hex SHA-256 of data.
func SHA256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// MaintenanceInput gathers what model.PlanMaintenance needs for one agent:
// the rows of sessions.json (read once, kept in st for applying), the
// regular files of the sessions folder, and where each row's transcript
// lies. A sessions.json that does not parse is an error: maintenance on it
// cannot be planned, and OpenClaw would start over from an empty store.
func MaintenanceInput(fsys FS, a Agent, st *SessionStoreFile) (model.MaintenanceInput, error) {
	in := model.MaintenanceInput{Agent: a.ID, SessionsDir: a.SessionsDir, StorePath: a.StorePath}
	files, err := listDir(context.Background(), fsys, a.SessionsDir, false)
	if err != nil {
		return in, err
	}
	in.Files = files
	if !st.Exists {
		return in, nil
	}
	rows, _, err := parseSessionStore(st.Data)
	if err != nil {
		return in, fmt.Errorf("%s does not parse (%v): maintenance cannot be planned on it", st.Path, err)
	}
	inDir := make(map[string]bool, len(files))
	for _, f := range files {
		inDir[f.Name] = true
	}
	exists := func(p string) bool {
		if filepath.Dir(p) == a.SessionsDir {
			return inDir[filepath.Base(p)]
		}
		fi, err := fsys.Stat(p)
		return err == nil && fi.Mode().IsRegular()
	}
	in.Rows = make([]model.MaintenanceRow, len(rows))
	for i := range rows {
		r := &rows[i]
		e := &r.Entry
		mr := model.MaintenanceRow{
			Key: r.Key, SessionID: e.SessionID, UpdatedAt: rowTime(e.Raw), Entry: e,
			HasSessionFile: strings.TrimSpace(e.SessionFile) != "",
			ChunkBytes:     int64(2+len(jscompat.AppendJSString(nil, r.Key))+2) + StringifiedSize(e.Raw, 1),
		}
		if e.SessionID != "" {
			if p, ok := resolveSessionFile(a.SessionsDir, e.SessionID, e.SessionFile); ok && insideDir(a.SessionsDir, p) {
				mr.Transcript = p
			}
			mr.Candidates = archiveCandidates(a.SessionsDir, e.SessionID, e.SessionFile)
			if p, ok := resolveSessionFile(a.SessionsDir, e.SessionID, e.SessionFile); ok {
				mr.Missing = !exists(p)
			}
		}
		in.Rows[i] = mr
	}
	return in, nil
}

// rowTime reads updatedAt the three ways maintenance needs it.
func rowTime(raw []byte) model.RowTime {
	var t model.RowTime
	jsonscan.Object(raw, 0, func(key, v []byte) bool {
		if !jsonscan.KeyIs(key, "updatedAt") {
			return true
		}
		t = model.RowTime{}
		if string(v) == "null" {
			return true
		}
		var n model.JSNumber
		_ = n.UnmarshalJSON(v)
		t.Set, t.Value = true, n.Value()
		t.IsNumber = len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9')
		return true
	})
	return t
}

// safeSessionID is OpenClaw's SAFE_SESSION_ID_RE, which names files.
var safeSessionID = jscompat.LazyRegexp(`^(?i)[a-z0-9][a-z0-9._-]{0,127}$`)

// resolveSessionFile is OpenClaw's resolveSessionFilePath without symlink
// resolution: a relative sessionFile inside the folder, an absolute one as
// it is (OpenClaw keeps paths under another agents/<id>/sessions folder),
// else <sessionId>.jsonl. ok is false when no path results.
func resolveSessionFile(dir, sessionID, sessionFile string) (string, bool) {
	if sf := strings.TrimSpace(sessionFile); sf != "" {
		if filepath.IsAbs(sf) {
			p := filepath.Clean(sf)
			if insideDir(dir, p) || sessionsFolderShape().MatchString(filepath.ToSlash(p)) {
				return p, true
			}
		} else if p := filepath.Join(dir, sf); insideDir(dir, p) {
			return p, true
		}
	}
	id := strings.TrimSpace(sessionID)
	if !safeSessionID().MatchString(id) {
		return "", false
	}
	return filepath.Join(dir, id+".jsonl"), true
}

// sessionsFolderShape matches …/agents/<id>/sessions/<file>.
var sessionsFolderShape = jscompat.LazyRegexp(`/agents/[^/]+/sessions/[^/]+$`)

// archiveCandidates is resolveSessionTranscriptCandidates restricted to the
// folder: the sessionFile unless it names another session's generated id
// (then it comes last), and <sessionId>.jsonl.
func archiveCandidates(dir, sessionID, sessionFile string) []string {
	var out []string
	add := func(p string, ok bool) {
		if ok && insideDir(dir, p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	stale := false
	if sf := strings.TrimSpace(sessionFile); sf != "" {
		if gen := generatedSessionID(sf); gen != "" && gen != sessionID {
			stale = true
		}
	}
	hasFile := strings.TrimSpace(sessionFile) != ""
	if hasFile && !stale {
		add(resolveSessionFile(dir, sessionID, sessionFile))
	}
	if id := strings.TrimSpace(sessionID); safeSessionID().MatchString(id) {
		add(filepath.Join(dir, id+".jsonl"), true)
	}
	if hasFile && stale {
		add(resolveSessionFile(dir, sessionID, sessionFile))
	}
	return out
}

var (
	generatedIDRE = jscompat.LazyRegexp(`^(?i)[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	forkNameRE    = jscompat.LazyRegexp(`^(\d{4}-\d{2}-\d{2}T[\w-]+(?:Z|[+-]\d{2}(?:-\d{2})?)?)_(.+)$`)
)

// generatedSessionID is extractGeneratedTranscriptSessionId: the UUID a
// transcript name carries (plain, -topic-, or a fork), else "".
func generatedSessionID(sessionFile string) string {
	base := filepath.Base(strings.TrimSpace(sessionFile))
	if !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	stem := strings.TrimSuffix(base, ".jsonl")
	candidate := stem
	if i := strings.Index(stem, "-topic-"); i > 0 {
		candidate = stem[:i]
	} else if m := forkNameRE().FindStringSubmatch(stem); m != nil {
		candidate = m[2]
	}
	if generatedIDRE().MatchString(candidate) {
		return candidate
	}
	return ""
}

func insideDir(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
