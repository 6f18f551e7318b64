package ui

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store"
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
	DryRun, Sweep, Retention, Space, IndexBuild, Cancel, Confirm, Deny key.Binding
	// vault and search: curating memory
	ExternalEdit, Promote, Source, FilterType, FilterImportance, FilterSource, Expand, Collapse key.Binding
	// search as the agent recalls (memory_search replayed)
	RecallMode, RecallFiles, Related key.Binding
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
		"dry_run":         &k.DryRun, "sweep": &k.Sweep, "retention": &k.Retention, "space": &k.Space, "index_build": &k.IndexBuild,
		"cancel": &k.Cancel, "confirm": &k.Confirm, "deny": &k.Deny,
		"external_edit": &k.ExternalEdit, "promote": &k.Promote, "source": &k.Source, "filter_type": &k.FilterType,
		"filter_importance": &k.FilterImportance, "filter_source": &k.FilterSource, "expand": &k.Expand, "collapse": &k.Collapse,
		"recall_mode": &k.RecallMode, "recall_files": &k.RecallFiles, "related": &k.Related,
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
		Space:      bind("where the stores' bytes go", "B"),
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

		RecallMode:  bind("as the agent recalls, or by keyword", "ctrl+r"),
		RecallFiles: bind("every file, and why (not) recalled", "f"),
		Related:     bind("related memories", "r"),

		Save:   bind("save", "ctrl+s"),
		Undo:   bind("undo", "ctrl+z"),
		Redo:   bind("redo", "ctrl+y"),
		Reload: bind("reload the disk's version", "r"),
		Diff:   bind("diff with the disk", "d"),
		Merge:  bind("merge with the disk", "m"),
	}
}

// Apply remaps actions from the config file's [keys] table. A binding
// that cannot work (an unknown action, no keys, a key no terminal sends)
// is a problem, one sentence that names the file, the line and the
// binding; its action keeps its default keys, and the others are
// remapped all the same.
func (k *KeyMap) Apply(cfg store.Config) []string {
	actions := k.actions()
	names := slices.SortedFunc(maps.Keys(cfg.Keys), func(a, b string) int { // as the file has them
		return cmp.Or(cmp.Compare(cfg.KeyLines[a], cfg.KeyLines[b]), strings.Compare(a, b))
	})
	var problems []string
	for _, name := range names {
		at := keyPlace(cfg, name)
		b, ok := actions[name]
		if !ok {
			known := slices.Sorted(maps.Keys(actions))
			problems = append(problems, fmt.Sprintf("%s[keys] %s is not an action (actions: %s)", at, inert(name), strings.Join(known, ", ")))
			continue
		}
		keys := cfg.Keys[name]
		if len(keys) == 0 {
			problems = append(problems, fmt.Sprintf("%s[keys] %s has no keys; it keeps %s", at, name, strings.Join(b.Keys(), ", ")))
			continue
		}
		if bad, why := firstBadKey(keys); why != "" {
			problems = append(problems, fmt.Sprintf("%s[keys] %s: %q %s; %s keeps %s", at, name, inert(bad), why, name, strings.Join(b.Keys(), ", ")))
			continue
		}
		*b = bind(b.Help().Desc, keys...)
	}
	return problems
}

// KeyWarnings are the problems of the config file's [keys] table (Apply's
// sentences), for the commands to print: the TUI shows them itself.
func KeyWarnings(cfg store.Config) []string { return DefaultKeyMap().Apply(cfg) }

// keyPlace is where an action's binding is written: "file, line N: ".
func keyPlace(cfg store.Config, action string) string {
	switch line := cfg.KeyLines[action]; {
	case cfg.Path == "":
		return ""
	case line > 0:
		return fmt.Sprintf("%s, line %d: ", inert(cfg.Path), line)
	}
	return inert(cfg.Path) + ": "
}

// firstBadKey finds a key no key press can match, and says why. A key
// press matches a binding by its name as Bubble Tea spells it: modifiers
// in the order ctrl, alt, shift, meta, hyper, super, then a key's name
// ("enter", "pgdown", "f5", "space") or the character typed.
func firstBadKey(keys []string) (bad, why string) {
	for _, k := range keys {
		if why := keyProblem(k); why != "" {
			return k, why
		}
	}
	return "", ""
}

// keyModifiers are the modifiers of a key name, in the order Bubble Tea
// writes them.
var keyModifiers = [...]string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

func keyProblem(k string) string {
	if k == "" {
		return "is empty"
	}
	base, mods := k, []string(nil)
	if i := strings.LastIndex(k[:len(k)-1], "+"); i >= 0 { // "+" alone, or "ctrl++", is the plus key
		base, mods = k[i+1:], strings.Split(k[:i], "+")
	}
	next := 0
	for _, m := range mods {
		i := slices.Index(keyModifiers[:], m)
		switch {
		case i < 0:
			return fmt.Sprintf("has %q where a modifier goes (%s)", m, strings.Join(keyModifiers[:], ", "))
		case i < next:
			return "names its modifiers out of order (ctrl, alt, shift, meta, hyper, super), so no key press matches it"
		}
		next = i + 1
	}
	if keyNames()[base] {
		return ""
	}
	r, size := utf8.DecodeRuneInString(base)
	switch {
	case size != len(base) || r == utf8.RuneError:
		return "is not a key name (such as enter, esc, pgdown, f5, space) nor one character"
	case !unicode.IsPrint(r) || r == ' ':
		return "is not a printable character (space is \"space\")"
	case len(mods) > 0 && unicode.IsUpper(r):
		return "has a capital letter after a modifier (write shift+ and the small letter)"
	}
	return ""
}

// keyNames are the names Bubble Tea gives keys that type no character,
// read from it on first use.
var keyNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{"space": true}
	for _, code := range []rune{tea.KeyEnter, tea.KeyTab, tea.KeyBackspace, tea.KeyEscape} {
		names[tea.Key{Code: code}.Keystroke()] = true
	}
	for code := tea.KeyExtended + 1; code < tea.KeyExtended+1024; code++ {
		name := tea.Key{Code: code}.Keystroke()
		if name != "" && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789") == "" {
			names[name] = true
		}
	}
	return names
})

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
	names := slices.Sorted(maps.Keys(actions))
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
