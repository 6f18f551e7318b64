package search

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// RootKind says what a root holds.
type RootKind uint8

const (
	// VaultRoot is a ClawVault vault: every Markdown file in it.
	VaultRoot RootKind = iota
	// WorkspaceRoot is an agent's workspace: MEMORY.md and memory/**.
	WorkspaceRoot
	// SessionsRoot is an agent's sessions folder: its transcripts.
	SessionsRoot
	// SQLiteRoot is an agent's SQLite-era store: the transcripts of its
	// sessions (see sqlite.go).
	SQLiteRoot
)

// Root is a folder the index reads files from.
type Root struct {
	// ID names the root in document ids and hits: "vault",
	// "workspace/<agent>" or "sessions/<agent>".
	ID    string
	Kind  RootKind
	Agent string
	// Dir is absolute, with symlinks resolved.
	Dir string
	// Store is the openclaw-agent.sqlite of a SQLite root.
	Store string
}

// Options say where the index lives and what it reads.
type Options struct {
	// Dir is the index's own folder (in the user's cache folder, one per
	// vault; see IndexDir).
	Dir   string
	Roots []Root
	// IncludeTemplates and IncludeArchive add the vault's templates/ and
	// ledger/archive/ folders, which are left out by default.
	IncludeTemplates bool
	IncludeArchive   bool
	// BusyTimeout is how long Open waits for another process that has the
	// index open before it gives up with ErrBusy.
	BusyTimeout time.Duration
	// MaxLineBytes caps the transcript lines decoded; a longer line is
	// skipped and reported in Stats.Problems. 0 means
	// transcript.DefaultMaxLineBytes.
	MaxLineBytes int64
	// StatsCacheDir, when set, is where status keeps the per-session sizes
	// of SQLite-era stores (agentdb.StatsCacheFile): a SQLite root is then
	// listed through that cache, which counts only what changed since the
	// last status or listing, rather than by a pass over every event.
	StatsCacheDir string
	// ReadOnlyUntilWrite opens an existing index to search only, and
	// reopens it to write when a sync has something to write: a warm
	// query then writes nothing (see Index.runtimeConfig). Other
	// processes may search it meanwhile; one that wants to write waits
	// for them (BusyTimeout). For a short-lived process (the search
	// command); the TUI holds the index to write.
	ReadOnlyUntilWrite bool
}

// DefaultBusyTimeout is how long a second process waits for the index.
const DefaultBusyTimeout = 2 * time.Second

// OptionsFor says what to index for a located workspace: the vault, every
// agent's workspace memory and, when the config asks, every agent's
// transcripts. The index goes under the cache folder (IndexDir).
func OptionsFor(ws *store.Workspace, cfg store.SearchConfig, env store.Env) (Options, error) {
	opt := Options{IncludeTemplates: cfg.Templates, IncludeArchive: cfg.Archive, BusyTimeout: DefaultBusyTimeout}
	identity := ws.Vault
	if ws.Vault != "" {
		if err := store.CheckVault(ws.Vault); err != nil {
			return opt, err
		}
		dir, err := filepath.EvalSymlinks(ws.Vault)
		if err != nil {
			return opt, err
		}
		opt.Roots = append(opt.Roots, Root{ID: "vault", Kind: VaultRoot, Dir: dir})
	}
	for _, a := range ws.Agents {
		if dir, err := filepath.EvalSymlinks(a.Workspace); a.Workspace != "" && err == nil {
			opt.Roots = append(opt.Roots, Root{ID: "workspace/" + a.ID, Kind: WorkspaceRoot, Agent: a.ID, Dir: dir})
		}
		if dir, err := filepath.EvalSymlinks(a.SessionsDir); cfg.Transcripts && a.SessionsDir != "" && err == nil {
			opt.Roots = append(opt.Roots, Root{ID: "sessions/" + a.ID, Kind: SessionsRoot, Agent: a.ID, Dir: dir})
		}
		if p, err := filepath.EvalSymlinks(a.SQLitePath); cfg.Transcripts && a.SQLitePath != "" && err == nil {
			opt.Roots = append(opt.Roots, Root{ID: "sqlite/" + a.ID, Kind: SQLiteRoot, Agent: a.ID, Dir: sqliteRootDir(p), Store: p})
		}
	}
	if len(opt.Roots) == 0 {
		return opt, errors.New("nothing to search: no vault and no agent workspace found (pass -v DIR or --state-dir DIR)")
	}
	if identity == "" {
		identity = ws.StateDir
	}
	opt.StatsCacheDir = CacheDir(cfg, env)
	opt.Dir = IndexDir(opt.StatsCacheDir, identity)
	resolved, err := store.RealPath(opt.Dir)
	if err != nil {
		return opt, err
	}
	for _, r := range opt.Roots {
		if store.Within(r.Dir, resolved) {
			return opt, fmt.Errorf("the search index folder %s is inside %s: set [search] cache_dir outside the vault and the workspaces", opt.Dir, r.Dir)
		}
	}
	return opt, nil
}

// CacheDir is the folder indexes live in: [search] cache_dir (~ is the
// home folder; a relative path is from the working folder), else
// $XDG_CACHE_HOME/clawvault-tui, else ~/.cache/clawvault-tui.
func CacheDir(cfg store.SearchConfig, env store.Env) string {
	if dir := cfg.CacheDir; dir != "" {
		if rest, ok := strings.CutPrefix(dir, "~/"); ok || dir == "~" {
			dir = filepath.Join(env.Home, rest)
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(env.Cwd, dir)
		}
		return filepath.Clean(dir)
	}
	if dir := env.Getenv("XDG_CACHE_HOME"); dir != "" {
		return filepath.Join(dir, "clawvault-tui")
	}
	return filepath.Join(env.Home, ".cache", "clawvault-tui")
}

// IndexDir is the index folder for one vault (or, without a vault, one
// state dir): search/<name>-<hash of the path>, readable and unique.
func IndexDir(cacheDir, identity string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(identity)))
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' {
			return '_'
		}
		return r
	}, filepath.Base(identity))
	return filepath.Join(cacheDir, "search", name+"-"+hex.EncodeToString(sum[:6]))
}

// fileRef is one file to index.
type fileRef struct {
	root  *Root
	rel   string // slash-separated, relative to root.Dir
	size  int64
	mtime int64
}

func (f fileRef) key() string  { return f.root.ID + ":" + f.rel }
func (f fileRef) path() string { return filepath.Join(f.root.Dir, filepath.FromSlash(f.rel)) }

// included says whether the index reads rel (slash-separated) of a vault:
// Markdown files, not under a dot folder (.clawvault, .obsidian, .git,
// .trash), nor templates/ or ledger/archive/ unless configured — the same
// set ClawVault's in-process search reads, but for templates.
func (o *Options) included(rel string) bool {
	if !strings.HasSuffix(rel, ".md") {
		return false
	}
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return o.includedDir(path.Dir(rel))
}

// includedDir says whether files under the vault folder rel may be read.
func (o *Options) includedDir(rel string) bool {
	under := func(dir string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }
	if strings.HasPrefix(path.Base(rel), ".") && rel != "." {
		return false
	}
	return (o.IncludeTemplates || !under("templates")) && (o.IncludeArchive || !under("ledger/archive"))
}

// listing is what list found: the files, and folders it could not read
// (their files keep their documents rather than vanish from the index).
type listing struct {
	files      []fileRef
	unreadable []string // keys of folders, as key prefixes
	problems   []string
}

// list finds the indexable files of root at or under prefix (a relative,
// slash-separated path; "" for the whole root). With folders, the mtime of
// each vault folder walked is recorded in it (see folders.go).
func (o *Options) list(root *Root, prefix string, folders map[string]int64, now time.Time) (listing, error) {
	switch root.Kind {
	case WorkspaceRoot:
		return o.listWorkspace(root, prefix), nil
	case SQLiteRoot:
		// A change to the store or its log (a watch event) relists it whole.
		return o.listSQLite(root)
	case SessionsRoot:
		return listSessions(root, prefix)
	}
	return o.listVault(root, prefix, folders, now)
}

// listWorkspace lists a workspace's memory files. A memory/ folder that
// cannot be read through keeps what it held.
func (o *Options) listWorkspace(root *Root, prefix string) listing {
	var out listing
	files, err := store.WorkspaceMemory(store.OS, root.Dir)
	if err != nil {
		out.unreadable = append(out.unreadable, root.ID+":memory/")
		out.problems = append(out.problems, err.Error())
	}
	for _, f := range files {
		rel := filepath.ToSlash(f.Rel)
		if under(rel, prefix) && !o.inOtherRoot(root, f.Path) {
			out.files = append(out.files, fileRef{root: root, rel: rel, size: f.Size, mtime: f.ModTime.UnixNano()})
		}
	}
	return out
}

// listSessions lists the transcripts of a sessions folder: regular files
// only (a link is never followed).
func listSessions(root *Root, prefix string) (listing, error) {
	var out listing
	entries, err := os.ReadDir(root.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	for _, e := range entries {
		if !under(e.Name(), prefix) || !e.Type().IsRegular() || !indexableTranscript(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil {
			out.files = append(out.files, fileRef{root: root, rel: e.Name(), size: fi.Size(), mtime: fi.ModTime().UnixNano()})
		}
	}
	return out, nil
}

// listVault lists the vault's Markdown files at or under prefix: a file,
// or a folder walked (links and devices are never followed).
func (o *Options) listVault(root *Root, prefix string, folders map[string]int64, now time.Time) (listing, error) {
	var out listing
	start := filepath.Join(root.Dir, filepath.FromSlash(prefix))
	fi, err := os.Lstat(start)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return out, nil
	case err != nil:
		return out, err
	case fi.Mode().IsRegular():
		if o.included(prefix) {
			out.files = append(out.files, fileRef{root: root, rel: prefix, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
		}
		return out, nil
	case !fi.IsDir():
		return out, nil // a symlink or a device: never followed
	}
	w := vaultWalk{o: o, root: root, start: start, folders: folders, now: now}
	err = filepath.WalkDir(start, w.visit)
	return w.out, err
}

// vaultWalk is listVault's walk of a folder.
type vaultWalk struct {
	o       *Options
	root    *Root
	start   string
	folders map[string]int64
	now     time.Time
	out     listing
}

// visit takes one entry of the walk.
func (w *vaultWalk) visit(p string, d fs.DirEntry, err error) error {
	rel := filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(p, w.root.Dir), string(filepath.Separator)))
	if err != nil {
		if p == w.start {
			return err
		}
		w.out.unreadable = append(w.out.unreadable, w.root.ID+":"+rel+"/")
		w.out.problems = append(w.out.problems, err.Error())
		return fs.SkipDir
	}
	switch {
	case d.IsDir():
		if rel != "" && !w.o.includedDir(rel) {
			return fs.SkipDir
		}
		if w.folders != nil {
			// Taken before WalkDir reads the folder: a change while
			// it is read gives a later mtime.
			fi, err := d.Info()
			if err != nil {
				return err
			}
			recordFolder(w.folders, w.root, rel, fi.ModTime(), w.now)
		}
	case d.Type().IsRegular() && w.o.included(rel):
		if fi, err := d.Info(); err == nil {
			w.out.files = append(w.out.files, fileRef{root: w.root, rel: rel, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
		}
	}
	return nil
}

// inOtherRoot reports whether a workspace file lies inside another root
// (`clawvault setup` puts the vault in <workspace>/memory): the vault
// root indexes it, once.
func (o *Options) inOtherRoot(root *Root, p string) bool {
	for i := range o.Roots {
		r := &o.Roots[i]
		if r != root && r.Kind == VaultRoot && store.Within(r.Dir, p) {
			return true
		}
	}
	return false
}

// indexableTranscript says whether a sessions folder file holds a
// conversation worth searching: live transcripts, topics, forks and the
// archives /new and deletion leave; not checkpoint copies (the same turns
// again), trajectories, lock files or compressed archives.
func indexableTranscript(name string) bool {
	fn := model.ClassifyFileName(name)
	switch fn.Kind {
	case model.FilePrimary, model.FileTopic, model.FileFork, model.FileResetArchive, model.FileDeletedArchive:
		return !fn.Compressed
	}
	return false
}

// under reports whether rel is prefix or inside it.
func under(rel, prefix string) bool {
	return prefix == "" || rel == prefix || strings.HasPrefix(rel, prefix+"/")
}

// ErrOutside is returned for a path in none of the index's roots.
var ErrOutside = errors.New("not in the vault or an agent's workspace")

// locate maps a path to the root that holds it and its relative path.
// Symlinks in the folders are resolved first, so that a path cannot point
// outside the roots through one. The deepest root wins (a vault inside a
// workspace).
func (o *Options) locate(p string) (*Root, string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, "", err
	}
	resolved, err := store.RealPath(abs)
	if err != nil {
		return nil, "", err
	}
	var best *Root
	for i := range o.Roots {
		r := &o.Roots[i]
		if store.Within(r.Dir, resolved) && (best == nil || len(r.Dir) > len(best.Dir)) {
			best = r
		}
	}
	if best == nil {
		return nil, "", fmt.Errorf("%s: %w", p, ErrOutside)
	}
	rel, _ := filepath.Rel(best.Dir, resolved)
	if rel == "." {
		rel = ""
	}
	return best, filepath.ToSlash(rel), nil
}
