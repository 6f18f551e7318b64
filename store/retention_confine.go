package store

import (
	"fmt"
	"path/filepath"
	"strings"

	"clawvault-tui/model"
)

// A retention apply moves files out of the state dir (and the vault's
// ledger) into an archive folder, and its undo moves them back, as a
// manifest.json says. The state dir and the vault are written by agents,
// so a manifest can be planted, and the files a plan moves are named by
// files agents write: every move, store rewrite and folder of a manifest
// must lie in the places the apply was given (RetentionPlaces), symbolic
// links followed, or nothing of it is done.

// RetentionPlaces are the folders a retention apply or undo may move files
// in and out of, symbolic links resolved: the state dir (and a bare
// --sessions-dir folder), the vault and the archive folder.
type RetentionPlaces struct {
	State   []string // resolved
	Vault   string   // resolved; "" without one
	Archive string   // resolved
	// name is how a refusal names what it refuses ("the plan", "the
	// manifest …").
	name string
}

// ApplyPlaces are the places of an apply: the plan's state dir and vault
// (its workspace's), the bare --sessions-dir folder of ws when there is
// one, and archiveDir. An archive folder given inside the state dir or the
// vault must stay inside it once its links are followed.
func ApplyPlaces(stateDir, vault string, ws *Workspace, archiveDir string) (*RetentionPlaces, error) {
	p := &RetentionPlaces{name: "the plan"}
	var err error
	if p.State, err = stateFolders(stateDir, ws); err != nil {
		return nil, err
	}
	if vault != "" {
		if p.Vault, err = RealPath(vault); err != nil {
			return nil, err
		}
	}
	if p.Archive, err = RealPath(archiveDir); err != nil {
		return nil, err
	}
	for _, place := range []string{stateDir, vault} {
		if place == "" || !Within(filepath.Clean(place), filepath.Clean(archiveDir)) {
			continue // an archive folder given elsewhere is the user's choice
		}
		if real, err := RealPath(place); err != nil || !Within(real, p.Archive) {
			return nil, fmt.Errorf("nothing was applied, as the archive folder %s leads to %s, out of %s, through a symbolic link", archiveDir, p.Archive, place)
		}
	}
	return p, nil
}

// stateFolders are the resolved state dir and a bare --sessions-dir
// folder.
func stateFolders(stateDir string, ws *Workspace) ([]string, error) {
	var out []string
	if stateDir != "" {
		real, err := RealPath(stateDir)
		if err != nil {
			return nil, err
		}
		out = append(out, real)
	}
	if ws != nil && ws.SessionsDirFlag {
		for _, a := range ws.Agents {
			real, err := RealPath(a.SessionsDir)
			if err != nil {
				return nil, err
			}
			out = append(out, real)
		}
	}
	return out, nil
}

// ManifestRefusedError is a manifest whose moves leave its places.
type ManifestRefusedError struct {
	Path   string
	Reason string
}

func (e *ManifestRefusedError) Error() string {
	return fmt.Sprintf("the retention manifest %s is refused and nothing of it was undone, as it %s", e.Path, e.Reason)
}

// UndoPlaces are the places of the undo of a manifest read at path: its
// archive folder must be the folder it is in; its state dir must be the
// workspace's (ws, when known) or the one its folder is in
// (<state dir>/clawvault-tui-retention/<time>, where an apply puts it);
// its vault must be a vault. A manifest elsewhere can only be one someone
// wrote by hand or planted: it is refused.
func UndoPlaces(man *model.RetentionManifest, path string, ws *Workspace) (*RetentionPlaces, error) {
	refuse := func(format string, args ...any) error {
		return &ManifestRefusedError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	p := &RetentionPlaces{name: "the manifest " + path}
	folder, err := RealPath(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if !cleanAbs(man.ArchiveDir) {
		return nil, refuse("names the archive folder %q, which is not a clean absolute path", truncate(man.ArchiveDir))
	}
	if p.Archive, err = RealPath(man.ArchiveDir); err != nil || p.Archive != folder {
		return nil, refuse("names the archive folder %s, which is not the folder it is in", man.ArchiveDir)
	}
	if p.State, err = undoStateFolders(man, folder, ws, refuse); err != nil {
		return nil, err
	}
	if man.Vault != "" {
		if !cleanAbs(man.Vault) || CheckVault(man.Vault) != nil {
			return nil, refuse("names the vault %q, which is not a ClawVault vault", truncate(man.Vault))
		}
		if p.Vault, err = RealPath(man.Vault); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func undoStateFolders(man *model.RetentionManifest, folder string, ws *Workspace, refuse func(string, ...any) error) ([]string, error) {
	if man.StateDir == "" {
		return stateFolders("", ws)
	}
	if !cleanAbs(man.StateDir) {
		return nil, refuse("names the state dir %q, which is not a clean absolute path", truncate(man.StateDir))
	}
	state, err := RealPath(man.StateDir)
	if err != nil {
		return nil, err
	}
	trusted := filepath.Dir(folder) == filepath.Join(state, "clawvault-tui-retention")
	if ws != nil && ws.StateDir != "" {
		if real, err := RealPath(ws.StateDir); err == nil && real == state {
			trusted = true
		}
	}
	if !trusted {
		return nil, refuse("names the state dir %s, which is neither the one it sits in nor this workspace's: undo it with --state-dir %s if that state dir is yours",
			man.StateDir, man.StateDir)
	}
	folders, err := stateFolders("", ws)
	return append([]string{state}, folders...), err
}

func cleanAbs(p string) bool {
	return p != "" && len(p) <= maxJournalPath && !strings.ContainsRune(p, 0) && filepath.IsAbs(p) && filepath.Clean(p) == p
}

// placeOf says where p really is: its folder with every symbolic link
// followed, then its name (a move moves the name itself, a link too).
func placeOf(p string) (string, error) {
	if !cleanAbs(p) {
		return "", fmt.Errorf("%q is not a clean absolute path", truncate(p))
	}
	dir, err := RealPath(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(p)), nil
}

// Check refuses a manifest (or the one an apply is about to write) one of
// whose moves, store rewrites or created folders is not in its place:
// a maintenance move between the state dir and the archive folder, a
// ledger move inside the vault, a store in the state dir kept in the
// archive folder, folders in the archive folder (or above it) or the
// vault.
func (p *RetentionPlaces) Check(man *model.RetentionManifest) error {
	for _, mv := range man.Moves {
		from, to := p.State, []string{p.Archive}
		if mv.Plan == "ledger" {
			from, to = []string{p.Vault}, []string{p.Vault}
		}
		if err := p.in(mv.From, from, "moves a file from"); err != nil {
			return err
		}
		if err := p.in(mv.To, to, "moves a file to"); err != nil {
			return err
		}
	}
	for _, s := range man.Stores {
		if err := p.in(s.Path, p.State, "rewrites"); err != nil {
			return err
		}
		if err := p.in(s.Original, []string{p.Archive}, "keeps a store at"); err != nil {
			return err
		}
	}
	for _, d := range man.CreatedDirs {
		real, err := placeOf(d)
		if err == nil && Within(real, p.Archive) {
			continue // a folder the archive folder was made in
		}
		if err := p.in(d, []string{p.Archive, p.Vault}, "removes the folder"); err != nil {
			return err
		}
	}
	return nil
}

// in refuses path unless it really is inside one of dirs.
func (p *RetentionPlaces) in(path string, dirs []string, what string) error {
	real, err := placeOf(path)
	if err != nil {
		return p.refuse("%s %v", what, err)
	}
	for _, d := range dirs {
		if d != "" && Within(d, real) {
			return nil
		}
	}
	var named []string
	for _, d := range dirs {
		if d != "" {
			named = append(named, d)
		}
	}
	where := strings.Join(named, " or ")
	if where == "" {
		where = "every folder it may use"
	}
	if real != path {
		return p.refuse("%s %s (which leads to %s), outside %s", what, path, real, where)
	}
	return p.refuse("%s %s, outside %s", what, path, where)
}

func (p *RetentionPlaces) refuse(format string, args ...any) error {
	reason := fmt.Sprintf(format, args...)
	if path, ok := strings.CutPrefix(p.name, "the manifest "); ok {
		return &ManifestRefusedError{Path: path, Reason: reason}
	}
	return fmt.Errorf("nothing was applied, as %s %s", p.name, reason)
}
