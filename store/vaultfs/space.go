// Package vaultfs is the user's memory as files to browse and edit: the
// ClawVault vault and each agent's workspace memory (MEMORY.md, USER.md,
// DREAMS.md, memory/). It lists them, reads a file with its version (size,
// mtime, SHA-256), saves an edit atomically only when the file is still the
// version the edit started from (else a *ConflictError carrying what is on
// disk now), keeps the previous version in a backup folder, promotes a line
// into a section of MEMORY.md, and finds the session an observation came
// from in the raw ledger. Every path is confined to those folders after
// resolving symlinks.
package vaultfs

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"

	"clawvault-tui/store"
)

// RootKind says what a root holds.
type RootKind uint8

const (
	// VaultRoot is the ClawVault vault: every file outside its dot folders.
	VaultRoot RootKind = iota
	// WorkspaceRoot is an agent's workspace, of which only the memory
	// files count (MemoryNames and memory/).
	WorkspaceRoot
)

// Root is a folder of memory.
type Root struct {
	// ID is "vault" or "workspace/<agent>", as the search index names them.
	ID    string
	Kind  RootKind
	Agent string
	// Dir is the folder as located.
	Dir string
}

// real is Dir with its symlinks resolved, "" when it does not exist. It is
// resolved on every use rather than once, so that a Space can be made
// without touching disk and a link changed meanwhile is followed.
func (r *Root) real() string {
	real, err := filepath.EvalSymlinks(r.Dir)
	if err != nil {
		return ""
	}
	return real
}

// Label is how the root is shown: "vault" or "main's workspace".
func (r *Root) Label() string {
	if r.Kind == VaultRoot {
		return "vault"
	}
	return r.Agent + "'s workspace"
}

// MemoryNames are the files of a workspace's top level that are memory;
// with memory/ they are what the editor may change there. AGENTS.md,
// SOUL.md and the other boot files are the agent's instructions, not its
// memory, and are left alone.
var MemoryNames = []string{"MEMORY.md", "memory.md", "USER.md", "DREAMS.md"}

// Options configure a Space.
type Options struct {
	// BackupDir is where previous versions are kept (default: the backups
	// folder of store.DataDir).
	BackupDir string
	// Keep is how many backups of one file are kept (default 20).
	Keep int
	// Now is the clock that names backups (default time.Now).
	Now func() time.Time
	// Writer writes files (default store.OSWriter); tests inject failures.
	Writer store.WriteFS
}

// Space is the vault and the agents' workspace memory of one located
// workspace.
type Space struct {
	Roots []*Root
	opt   Options
}

// New returns the space of a located workspace; it reads nothing. Roots
// that do not exist are kept (one may be made later), but nothing inside
// them is confined until they do.
func New(ws *store.Workspace, opt Options) *Space {
	if opt.BackupDir == "" {
		opt.BackupDir = DefaultBackupDir(store.OSEnv())
	}
	if opt.Keep <= 0 {
		opt.Keep = 20
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Writer == nil {
		opt.Writer = store.OSWriter
	}
	s := &Space{opt: opt}
	if ws.Vault != "" {
		s.Roots = append(s.Roots, newRoot("vault", VaultRoot, "", ws.Vault))
	}
	for _, a := range ws.Agents {
		if a.Workspace != "" {
			s.Roots = append(s.Roots, newRoot("workspace/"+a.ID, WorkspaceRoot, a.ID, a.Workspace))
		}
	}
	return s
}

func newRoot(id string, kind RootKind, agent, dir string) *Root {
	return &Root{ID: id, Kind: kind, Agent: agent, Dir: filepath.Clean(dir)}
}

// DefaultBackupDir is the backups folder of store.DataDir.
func DefaultBackupDir(env store.Env) string { return filepath.Join(store.DataDir(env), "backups") }

// WithWriter is the same space writing through w (the audit of a write
// made over SSH).
func (s *Space) WithWriter(w store.WriteFS) *Space {
	c := *s
	c.opt.Writer = w
	return &c
}

// BackupDir is where the space keeps previous versions.
func (s *Space) BackupDir() string { return s.opt.BackupDir }

// Workspace returns the workspace root of an agent.
func (s *Space) Workspace(agent string) (*Root, bool) {
	for _, r := range s.Roots {
		if r.Kind == WorkspaceRoot && r.Agent == agent {
			return r, true
		}
	}
	return nil, false
}

// Place is where a confined path is: its root, its path relative to the
// root (slash-separated) and the path with symlinks resolved.
type Place struct {
	Root *Root
	Rel  string
	Real string
}

// Confine checks that p is a memory file: inside the vault (not in one of
// its dot folders, such as .clawvault with ClawVault's cursors) or one of
// a workspace's memory files, once symlinks are resolved. The deepest root
// wins (a vault kept inside a workspace's memory/ is the vault).
func (s *Space) Confine(p string) (Place, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return Place{}, err
	}
	// A dangling link resolves to where it points, so a link to a file
	// not yet made outside the roots is refused like any other.
	real, err := store.RealPath(abs)
	if err != nil {
		return Place{}, err
	}
	reals := make([]string, len(s.Roots))
	for i, r := range s.Roots {
		reals[i] = r.real()
	}
	best := -1
	for i := range s.Roots {
		if reals[i] != "" && store.Within(reals[i], real) && (best < 0 || len(reals[i]) > len(reals[best])) {
			best = i
		}
	}
	if best < 0 {
		return Place{}, outside(p, real)
	}
	rel, _ := filepath.Rel(reals[best], real)
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	pl := Place{Root: s.Roots[best], Rel: rel, Real: real}
	if !isMemory(pl.Root.Kind, rel) {
		return Place{}, outside(p, real)
	}
	return pl, nil
}

// isMemory says whether rel (slash-separated, in a root of kind) is a
// memory file or folder.
func isMemory(kind RootKind, rel string) bool {
	if kind == VaultRoot {
		for _, seg := range strings.Split(rel, "/") {
			if strings.HasPrefix(seg, ".") {
				return false
			}
		}
		return true
	}
	if rel == "memory" || strings.HasPrefix(rel, "memory/") {
		return true
	}
	for _, n := range MemoryNames {
		if rel == n {
			return true
		}
	}
	return false
}

// outside is the refusal of a path that is not a memory file.
func outside(p, real string) error {
	return &store.OutsideError{Op: store.OpEdit, Path: p, Real: real,
		Place: "the vault or an agent's workspace memory, the only files clawvault-tui edits"}
}

// EditError says why a memory file cannot be changed here.
type EditError struct {
	Path   string
	Reason string
}

func (e *EditError) Error() string { return fmt.Sprintf("%s: %s", e.Path, e.Reason) }

// Editable confines p and checks that it is a Markdown file, the only
// kind the editor changes: the raw ledger (JSONL) is ClawVault's record of
// what was said, and the other files are its own state.
func (s *Space) Editable(p string) (Place, error) {
	pl, err := s.Confine(p)
	if err != nil {
		return pl, err
	}
	if path.Ext(pl.Rel) != ".md" {
		return Place{}, &EditError{Path: p, Reason: "only Markdown (.md) files are edited here; the raw ledger and ClawVault's own files are left as ClawVault wrote them"}
	}
	return pl, nil
}
