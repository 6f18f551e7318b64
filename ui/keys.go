package ui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is every binding, by action. Help and the footer are built from
// the same bindings, so they never lie about the keys, and the config
// file's [keys] section remaps them by action name.
type KeyMap struct {
	// global
	Quit, Help, Palette, NextScreen, PrevScreen, Sessions, Transcript, Vault, SearchScreen, Jobs, Copy key.Binding
	// lists
	Up, Down, PageUp, PageDown, Top, Bottom, Open, Back key.Binding
	// sessions
	Filter, Sort, Agent, Rescan key.Binding
	// transcript
	Context, NextCompaction, PrevCompaction, NextBranch, PrevBranch, NextUser, PrevUser key.Binding
	Search, NextMatch, PrevMatch, Edit, DetailDown, DetailUp, ObserverCursor            key.Binding
	// jobs
	DryRun, Sweep, Retention, IndexBuild, Cancel, Confirm, Deny key.Binding
	// vault and search: curating memory
	ExternalEdit, Promote, Source, FilterType, FilterImportance, FilterSource, Expand, Collapse key.Binding
	// the built-in editor, and its choices when the file changed on disk
	Save, Undo, Redo, Reload, Diff, Merge key.Binding
}

// actions names every binding for the config file.
func (k *KeyMap) actions() map[string]*key.Binding {
	return map[string]*key.Binding{
		"quit": &k.Quit, "help": &k.Help, "palette": &k.Palette, "next_screen": &k.NextScreen, "prev_screen": &k.PrevScreen,
		"sessions": &k.Sessions, "transcript": &k.Transcript, "vault": &k.Vault, "search_screen": &k.SearchScreen,
		"jobs": &k.Jobs, "copy": &k.Copy,
		"up": &k.Up, "down": &k.Down, "page_up": &k.PageUp, "page_down": &k.PageDown, "top": &k.Top,
		"bottom": &k.Bottom, "open": &k.Open, "back": &k.Back,
		"filter": &k.Filter, "sort": &k.Sort, "agent": &k.Agent, "rescan": &k.Rescan,
		"context": &k.Context, "next_compaction": &k.NextCompaction, "prev_compaction": &k.PrevCompaction,
		"next_branch": &k.NextBranch, "prev_branch": &k.PrevBranch, "next_user": &k.NextUser,
		"prev_user": &k.PrevUser, "search": &k.Search, "next_match": &k.NextMatch, "prev_match": &k.PrevMatch,
		"edit": &k.Edit, "detail_down": &k.DetailDown, "detail_up": &k.DetailUp,
		"observer_cursor": &k.ObserverCursor,
		"dry_run":         &k.DryRun, "sweep": &k.Sweep, "retention": &k.Retention, "index_build": &k.IndexBuild,
		"cancel": &k.Cancel, "confirm": &k.Confirm, "deny": &k.Deny,
		"external_edit": &k.ExternalEdit, "promote": &k.Promote, "source": &k.Source, "filter_type": &k.FilterType,
		"filter_importance": &k.FilterImportance, "filter_source": &k.FilterSource, "expand": &k.Expand, "collapse": &k.Collapse,
		"save": &k.Save, "undo": &k.Undo, "redo": &k.Redo, "reload": &k.Reload, "diff": &k.Diff, "merge": &k.Merge,
	}
}

func bind(help string, keys ...string) key.Binding {
	shown := keys[0]
	switch shown {
	case "up":
		shown = "↑"
	case "down":
		shown = "↓"
	case "left":
		shown = "←"
	case "right":
		shown = "→"
	}
	if len(keys) > 1 && len(keys[1]) == 1 {
		shown += "/" + keys[1]
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(shown, help))
}

// DefaultKeyMap is the built-in key map.
func DefaultKeyMap() *KeyMap {
	return &KeyMap{
		Quit:         bind("quit", "q", "ctrl+c"),
		Help:         bind("help", "?"),
		Palette:      bind("command palette", ":"),
		NextScreen:   bind("next screen", "tab"),
		PrevScreen:   bind("previous screen", "shift+tab"),
		Sessions:     bind("sessions", "1"),
		Transcript:   bind("transcript", "2"),
		Vault:        bind("vault", "3"),
		SearchScreen: bind("search memory", "4"),
		Jobs:         bind("jobs", "5"),
		Copy:         bind("copy id or path:line", "y"),

		Up:       bind("up", "up", "k"),
		Down:     bind("down", "down", "j"),
		PageUp:   bind("page up", "pgup", "ctrl+u"),
		PageDown: bind("page down", "pgdown", "ctrl+d"),
		Top:      bind("top", "g", "home"),
		Bottom:   bind("bottom", "G", "end"),
		Open:     bind("open", "enter"),
		Back:     bind("close, clear, back", "esc"),

		Filter: bind("filter", "/"),
		Sort:   bind("sort", "s"),
		Agent:  bind("agent", "a"),
		Rescan: bind("rescan", "r"),

		Context:        bind("model context", "c"),
		NextCompaction: bind("next compaction", "]"),
		PrevCompaction: bind("prev compaction", "["),
		NextBranch:     bind("next branch point", "}"),
		PrevBranch:     bind("prev branch point", "{"),
		NextUser:       bind("next user message", "u"),
		PrevUser:       bind("prev user message", "U"),
		Search:         bind("search", "/"),
		NextMatch:      bind("next match", "n"),
		PrevMatch:      bind("prev match", "N"),
		Edit:           bind("edit at the line", "e"),
		DetailDown:     bind("scroll the detail down", "J", "shift+down"),
		DetailUp:       bind("scroll the detail up", "K", "shift+up"),
		ObserverCursor: bind("where the observer's cursor stands", "o"),

		DryRun:     bind("dry-run sweep", "d"),
		Sweep:      bind("sweep", "S"),
		Retention:  bind("retention dry-run", "R"),
		IndexBuild: bind("build search index", "I"),
		Cancel:     bind("cancel job", "x"),
		Confirm:    bind("yes", "y", "enter"),
		Deny:       bind("no", "n", "esc"),

		ExternalEdit:     bind("open in $EDITOR", "E"),
		Promote:          bind("promote to MEMORY.md", "p"),
		Source:           bind("the session it came from", "o"),
		FilterType:       bind("filter by type", "t"),
		FilterImportance: bind("filter by importance", "i"),
		FilterSource:     bind("filter by source", "s"),
		Expand:           bind("open the folder", "right", "l"),
		Collapse:         bind("close it, or go up", "left", "h"),

		Save:   bind("save", "ctrl+s"),
		Undo:   bind("undo", "ctrl+z"),
		Redo:   bind("redo", "ctrl+y"),
		Reload: bind("reload the disk's version", "r"),
		Diff:   bind("diff with the disk", "d"),
		Merge:  bind("merge with the disk", "m"),
	}
}

// Apply remaps actions from the config file's [keys] section. Each
// unknown action and each empty key list is a problem that names it; the
// other actions are remapped all the same.
func (k *KeyMap) Apply(remap map[string][]string) []string {
	actions := k.actions()
	names := make([]string, 0, len(remap))
	for name := range remap {
		names = append(names, name)
	}
	sort.Strings(names)
	var problems []string
	for _, name := range names {
		b, ok := actions[name]
		if !ok {
			known := make([]string, 0, len(actions))
			for a := range actions {
				known = append(known, a)
			}
			slices.Sort(known)
			problems = append(problems, fmt.Sprintf("[keys] %s is not an action (actions: %s)", name, strings.Join(known, ", ")))
			continue
		}
		keys := remap[name]
		if len(keys) == 0 {
			problems = append(problems, fmt.Sprintf("[keys] %s has no keys", name))
			continue
		}
		*b = bind(b.Help().Desc, keys...)
	}
	return problems
}

// globalKeys answer on every screen.
func (k *KeyMap) globalKeys() []key.Binding {
	return []key.Binding{k.Sessions, k.Transcript, k.Vault, k.SearchScreen, k.Jobs, k.NextScreen, k.PrevScreen, k.Back, k.Palette, k.Help, k.Quit}
}

// keyScope is the bindings that answer together: one screen's with the
// global ones, or a dialog's.
type keyScope struct {
	name     string
	bindings []key.Binding
}

// Conflicts names each key bound to two actions of one scope: only one of
// them can ever run there.
func (k *KeyMap) Conflicts(scopes []keyScope) []string {
	// Actions are known by their help text, which is unique (a test says so).
	names := map[string]string{}
	for name, b := range k.actions() {
		names[b.Help().Desc] = name
	}
	var out []string
	seen := map[string]bool{}
	for _, sc := range scopes {
		owner := map[string]string{} // key → action
		for _, b := range sc.bindings {
			action := names[b.Help().Desc]
			for _, kk := range b.Keys() {
				other, taken := owner[kk]
				if !taken {
					owner[kk] = action
					continue
				}
				if other == action {
					continue
				}
				pair := []string{other, action}
				slices.Sort(pair)
				msg := fmt.Sprintf("[keys] %q is bound to both %s and %s on %s", kk, pair[0], pair[1], sc.name)
				if !seen[msg] {
					seen[msg] = true
					out = append(out, msg)
				}
			}
		}
	}
	return out
}

// Bindings lists every action with its keys, for documentation (the
// config command prints them).
func (k *KeyMap) Bindings() [][2]string {
	actions := k.actions()
	names := make([]string, 0, len(actions))
	for name := range actions {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([][2]string, 0, len(names))
	for _, name := range names {
		keys := actions[name].Keys()
		quoted := make([]string, len(keys))
		for i, k := range keys {
			quoted[i] = fmt.Sprintf("%q", k)
		}
		out = append(out, [2]string{name, "[" + strings.Join(quoted, ", ") + "]  # " + actions[name].Help().Desc})
	}
	return out
}
