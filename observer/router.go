package observer

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store"
)

// The router is ClawVault 3.5.2's Router (src/observer/router.ts): after
// every session it walks the whole day's observations and files those of
// importance ≥ 0.4 into the vault: tasks as backlog items, the rest as lines
// of dated category files (decisions/, lessons/, people/<name>/, projects/…),
// skipping what a file already holds in any form close enough.

var typeToCategory = map[string]string{
	"decision": "decisions", "preference": "preferences", "fact": "facts", "commitment": "commitments",
	"task": "commitments", "todo": "commitments", "commitment-unresolved": "commitments",
	"milestone": "projects", "lesson": "lessons", "relationship": "people", "project": "projects",
}

var (
	pastTenseTaskRE   = jscompat.MustJSRegexp(`\b(completed|shipped|deployed|fixed|merged|finished|resolved|closed)\b`, "i")
	futureTaskRE      = jscompat.MustJSRegexp(`\b(need to|should|todo|must|plan to)\b`, "i")
	bracketTagRE      = jscompat.MustJSRegexp(`\[[^\]]+\]\s*`, "g")
	taskRoleRE        = jscompat.MustJSRegexp(`^(?:user|assistant)\s*:\s*`, "i")
	todoTitleRE       = jscompat.MustJSRegexp(`^(?:todo:\s*|we need to\s+|don't forget(?: to)?\s+|remember to\s+|make sure to\s+)`, "i")
	taskTitleRE       = jscompat.MustJSRegexp(`^(?:i'?ll\s+|i will\s+|let me\s+|(?:i'?m\s+)?going to\s+|plan to\s+|should\s+)`, "i")
	unresolvedTitleRE = jscompat.MustJSRegexp(`^(?:need to figure out\s+|tbd[:\s-]*|to be determined[:\s-]*)`, "i")
	spacesRE          = jscompat.MustJSRegexp(`\s+`, "g")
	leadingJunkRE     = jscompat.MustJSRegexp(`^[^a-zA-Z0-9]+`, "")
	trailingPunctRE   = jscompat.MustJSRegexp(`[.?!:;,]+$`, "")
	wikiLinkRE        = jscompat.MustJSRegexp(`\[\[[^\]]*\]\]`, "g")
	wikiTargetRE      = jscompat.MustJSRegexp(`\[\[([^\]]+)\]\]`, "g")
	lineDashRE        = jscompat.MustJSRegexp(`^-\s*`, "")
	slugNonWordRE     = jscompat.MustJSRegexp(`[^\w\s-]`, "g")
	dashesRE          = jscompat.MustJSRegexp(`-+`, "g")
	edgeDashesRE      = jscompat.MustJSRegexp(`^-+|-+$`, "g")
	nonSlugRE         = jscompat.MustJSRegexp(`[^a-z0-9-]`, "g")
	namePatternRE     = jscompat.MustJSRegexp(`\b([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})?)\b`, "g")
	oneNameRE         = jscompat.MustJSRegexp(`^[A-Z][a-z]+$`, "")
	twoNamesRE        = jscompat.MustJSRegexp(`^[A-Z][a-z]+ [A-Z][a-z]+$`, "")
	regexLiteralRE    = jscompat.MustJSRegexp(`^\/(.+)\/([a-z]*)$`, "i")
	personPatterns    = []*jscompat.JSRegexp{
		jscompat.MustJSRegexp(`(?:talked to|met with|spoke with|chatted with|discussed with|emailed|called|messaged)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)`, ""),
		jscompat.MustJSRegexp(`([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:said|asked|told|mentioned|from|at)\b`, ""),
		jscompat.MustJSRegexp(`\b(?:client|partner|colleague|contact)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)`, "i"),
	}
)

var wikiSkipWords = toSet(strings.Fields("The This That These Those There Then Than When Where What Which While With Would Will Should Could About After Before Between Because Also Always Already Another Any Each Every From Have Has Had Into Just Keep Like Made Make Many More Most Much Must Need Never Next None Not Now Only Other Over Same Some Such Sure Take Them They Too Under Until Upon Very Want Were Work Yet Decision Error Deadline Friday Monday Tuesday Wednesday Thursday Saturday Sunday January February March April May June July August September October November December Today Tomorrow Yesterday Message Feature Session Update System User Processed Working Built Deployed Discussed Talked Mentioned Requested Asked Said"))

var wikiKnownEntities = toSet(strings.Fields("PostgreSQL MongoDB Railway Vercel React Vue Svelte Express NestJS Prisma Docker Kubernetes Redis GraphQL Stripe ClawVault OpenClaw GitHub Obsidian"))

// routeContext is what ClawVault knows of the session being routed.
type routeContext struct {
	Source, SessionKey, TranscriptID string
}

// workItem is a task or backlog item the router deduplicates against.
type workItem struct {
	kind   string // task | backlog
	slug   string
	title  string
	status string
	// source is the front matter's source; hasSource is false when it is
	// absent or null (ClawVault's ?? "observer" then applies).
	source    jscompat.FrontValue
	hasSource bool
	tags      []string
	created   int64
	hasTime   bool
	// priority orders tasks (critical, high, medium, low).
	priority int
	// norm and words cache the normalized title for the duplicate check.
	norm  *string
	words map[string]bool
}

// routedLine is one line the router added to a file.
type routedLine struct {
	Path string // relative to the vault
	Type string
}

type routeResult struct {
	Lines     []routedLine
	Backlog   []string // created backlog items, relative paths
	Touched   []string // existing items marked as seen again
	DedupHits int
	Skipped   []string // things left alone, and why
}

type router struct {
	vault  string
	files  *vaultFiles
	fsys   store.FS
	fixes  Fixes
	now    func() time.Time
	routes []routeRule
	// projects are the vault's known projects, sorted as listProjects sorts.
	projects []knownProject
	// tasks and backlog are loaded once per sweep; created holds the
	// backlog items this sweep wrote, which join the list at the next route.
	tasks, backlog []workItem
	loaded         bool
	cats           map[string]*catFile
	// decided holds the items already routed or found duplicate: files only
	// grow during a sweep, so the decision stands (see route).
	decided map[string]bool
	// touched are unresolved commitments that matched an open work item: every
	// route marks them seen again, as ClawVault's does.
	touched []*workItem
	notes   []string
	// known is the work item list as the duplicate check walks it; rebuilt
	// only when an item was created or retagged since (knownStale).
	known      *knownItems
	knownStale bool
}

type routeRule struct {
	pattern  string
	target   string
	priority int
	re       *jscompat.JSRegexp
}

type knownProject struct {
	slug, normalizedSlug, normalizedTitle string
	slugRE                                *jscompat.JSRegexp
	sortKey                               int64
}

func newRouter(vault string, files *vaultFiles, fsys store.FS, fixes Fixes, now func() time.Time) *router {
	return &router{vault: vault, files: files, fsys: fsys, fixes: fixes, now: now, cats: map[string]*catFile{}, decided: map[string]bool{}}
}

// load reads what the router consults: custom routes from .clawvault.json,
// known projects, tasks and backlog items. ClawVault re-reads them for every
// session; within one sweep only the sweep itself changes them, and it
// tracks its own changes.
func (r *router) load() error {
	if r.loaded {
		return nil
	}
	r.loaded = true
	r.routes = r.loadRoutes()
	r.projects = r.loadProjects()
	var err error
	if r.tasks, err = r.loadWorkItems("tasks"); err != nil {
		return err
	}
	r.backlog, err = r.loadWorkItems("backlog")
	return err
}

// route files the day's observations, as ClawVault's route does after
// every session. ClawVault walks the whole day each time; an item it has
// routed, or found already present, is a no-op on every later walk, because
// a file only grows. So route takes the items that changed since the last
// walk (in day order), skips those decided before, and re-marks the work
// items touched before: the same files, without the quadratic walk that
// made ClawVault hang on 100+ sessions (#55).
//
// A cancelled ctx stops it between items (with ctx.Err()); what it routed
// so far is in the vault files' pending changes, which the caller drops.
func (r *router) route(cctx context.Context, changed []model.Observation, ctx routeContext) (routeResult, error) {
	var res routeResult
	if err := r.load(); err != nil {
		return res, err
	}
	for _, it := range r.touched {
		if err := r.touch(it, &res); err != nil {
			return res, err
		}
	}
	if r.known == nil || r.knownStale {
		r.known, r.knownStale = newKnownItems(r.knownWorkItems()), false
	}
	known := r.known
	for i, item := range changed {
		if i%256 == 255 {
			if err := cctx.Err(); err != nil {
				return res, err
			}
		}
		if item.Importance < 0.4 {
			continue
		}
		key := item.Date + "|" + item.Type + "|" + item.Content
		if r.decided[key] {
			continue
		}
		r.decided[key] = true
		if item.Type == "task" || item.Type == "todo" || item.Type == "commitment-unresolved" {
			if err := r.routeTask(item, ctx, known, &res); err != nil {
				return res, err
			}
			continue
		}
		category := typeToCategory[item.Type]
		if category == "" {
			continue
		}
		if err := r.appendToCategory(category, item, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// knownWorkItems is loadExistingWorkItems: tasks by priority then newest,
// then backlog items newest first.
func (r *router) knownWorkItems() []workItem {
	tasks := slices.Clone(r.tasks)
	slices.SortStableFunc(tasks, func(a, b workItem) int {
		if a.priority != b.priority {
			return a.priority - b.priority
		}
		return compareCreatedDesc(a, b)
	})
	backlog := slices.Clone(r.backlog)
	slices.SortStableFunc(backlog, compareCreatedDesc)
	return append(tasks, backlog...)
}

func compareCreatedDesc(a, b workItem) int {
	if a.hasTime && b.hasTime {
		return cmp.Compare(b.created, a.created)
	}
	return 0 // NaN compares as equal in V8's sort
}

func (r *router) loadWorkItems(dir string) ([]workItem, error) {
	folder := filepath.Join(r.vault, dir)
	entries, err := r.fsys.ReadDir(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // a missing folder is no items, as in ClawVault
	}
	if err != nil {
		// Unread items would be created again under duplicate names.
		return nil, &store.UnreadableError{What: "the " + dir + " folder", Path: folder, Err: err}
	}
	var items []workItem
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		slug := strings.TrimSuffix(e.Name(), ".md")
		data, exists, err := r.files.read(filepath.Join(folder, e.Name()))
		if err != nil {
			return nil, err
		}
		if !exists {
			continue // removed since the listing
		}
		doc, err := jscompat.ParseMatter(string(data))
		if err != nil {
			continue // ClawVault's readTask/readBacklogItem skip what does not parse
		}
		items = append(items, withNorm(workItemOf(dir, slug, doc)))
	}
	return items, nil
}

func workItemOf(dir, slug string, doc jscompat.MatterDoc) workItem {
	it := workItem{kind: "task", slug: slug, title: extractTitle(doc.Content)}
	if it.title == "" {
		it.title = slug
	}
	if src, ok := doc.Data.Get("source"); ok && src.Kind != jscompat.FrontNull {
		it.source, it.hasSource = src, true
	}
	if tags, ok := doc.Data.Get("tags"); ok {
		it.tags = tags.Strings()
	}
	if created, ok := doc.Data.Get("created"); ok {
		it.created, it.hasTime = created.DateMillis()
	}
	if dir == "backlog" {
		it.kind = "backlog"
		it.status = "open"
		if slices.Contains(it.tags, "done") {
			it.status = "done"
		}
		return it
	}
	if st, ok := doc.Data.Get("status"); ok && st.IsString() {
		it.status = st.Str
	}
	it.priority = 3
	if p, ok := doc.Data.Get("priority"); ok && p.IsString() {
		switch p.Str {
		case "critical":
			it.priority = 0
		case "high":
			it.priority = 1
		case "medium":
			it.priority = 2
		}
	}
	return it
}

// extractTitle is /^#\s+(.+)$/m with JavaScript's line terminators and
// backtracking: the first line starting with "#" and white space (which may
// run over line ends) followed by text.
func extractTitle(content string) string {
	isTerm := func(r rune) bool { return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 }
	runes := []rune(content)
	for p := 0; p < len(runes); p++ {
		if runes[p] != '#' || p > 0 && !isTerm(runes[p-1]) {
			continue
		}
		j := p + 1
		s := j
		for s < len(runes) && jscompat.IsJSSpace(runes[s]) {
			s++
		}
		if s == j {
			continue
		}
		if s < len(runes) {
			e := s
			for e < len(runes) && !isTerm(runes[e]) {
				e++
			}
			return jscompat.JSTrim(string(runes[s:e]))
		}
		for m := s - 1; m > j; m-- {
			if !isTerm(runes[m]) {
				return "" // matched, but only white space
			}
		}
	}
	return ""
}

func (r *router) routeTask(item model.Observation, ctx routeContext, known *knownItems, res *routeResult) error {
	if pastTenseTaskRE.MatchString(item.Content) && !futureTaskRE.MatchString(item.Content) {
		return nil // likely completed, as ClawVault judges it
	}
	title := r.deriveTaskTitle(item.Content, item.Type)
	if title == "" {
		return nil
	}
	if dup := known.findDuplicate(title); dup != nil {
		res.DedupHits++
		if item.Type == "commitment-unresolved" && dup.status != "done" {
			if !slices.ContainsFunc(r.touched, func(w *workItem) bool { return w.kind == dup.kind && w.slug == dup.slug }) {
				it := *dup
				r.touched = append(r.touched, &it)
			}
			return r.touch(dup, res)
		}
		return nil
	}
	tags := []string{"open", "observer"}
	switch item.Type {
	case "task":
		tags = append(tags, "task")
	case "todo":
		tags = append(tags, "todo")
	case "commitment-unresolved":
		tags = append(tags, "commitment")
	}
	slug := slugify(title)
	rel := filepath.Join("backlog", slug+".md")
	path := filepath.Join(r.vault, rel)
	_, exists, err := r.files.read(path)
	if err != nil {
		return err
	}
	if exists {
		res.DedupHits++
		return nil
	}
	created := jscompat.FormatISOTime(r.now())
	fm := jscompat.NewFrontmatter()
	fm.Set("created", jscompat.StringValue(created))
	fm.Set("source", jscompat.StringValue("observer"))
	fm.Set("tags", jscompat.StringsValue(tags))
	body := "# " + title + "\n" + "\n[[observer]]\n" + "\n" + taskContext(item, ctx) + "\n"
	text, err := jscompat.StringifyMatter(body, fm)
	if err != nil {
		res.Skipped = append(res.Skipped, fmt.Sprintf("%s: %v", rel, err))
		return nil
	}
	if _, err := r.files.apply(path, vaultOp{Kind: opCreate, Text: text}); err != nil {
		return err
	}
	it := withNorm(workItem{kind: "backlog", slug: slug, title: title, status: "open", source: jscompat.StringValue("observer"), hasSource: true, tags: tags})
	it.created, it.hasTime = jscompat.ParseISOTime(created)
	known.add(it)
	r.backlog = append(r.backlog, it)
	r.knownStale = true // the next route sorts it in
	res.Backlog = append(res.Backlog, rel)
	return nil
}

// deriveTaskTitle is ClawVault's deriveTaskTitle (see Fixes for the role).
func (r *router) deriveTaskTitle(content, typ string) string {
	title := jscompat.JSTrim(bracketTagRE.ReplaceAll(leadingTimeRE.ReplaceFirst(content, ""), ""))
	if r.fixes.TaskTitlesWithoutRole {
		title = taskRoleRE.ReplaceFirst(title, "")
	}
	switch typ {
	case "todo":
		title = todoTitleRE.ReplaceFirst(title, "")
	case "task":
		title = taskTitleRE.ReplaceFirst(title, "")
	case "commitment-unresolved":
		title = unresolvedTitleRE.ReplaceFirst(title, "")
	}
	title = spacesRE.ReplaceAll(title, " ")
	title = leadingJunkRE.ReplaceFirst(title, "")
	title = jscompat.JSTrim(trailingPunctRE.ReplaceFirst(title, ""))
	return jscompat.SliceUTF16(title, 120)
}

// normalizeTaskTitle is title.toLowerCase().replace(/[^\w\s]/g, " ")
// .replace(/\s+/g, " ").trim().slice(0, 50), written out: every character
// but ASCII letters, digits, _ and white space becomes a space, runs of
// space become one.
func normalizeTaskTitle(title string) string {
	s := jscompat.CollapseRuns(jscompat.JSToLower(title), func(r rune) bool {
		return !(r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'))
	})
	if len(s) > 50 { // ASCII now: bytes are UTF-16 units
		s = s[:50]
	}
	return s
}

// knownItems is the list loadExistingWorkItems gives, with what the
// duplicate check needs indexed: items by normalized title and by word.
type knownItems struct {
	items  []workItem
	byNorm map[string][]int
	byWord map[string][]int
}

func newKnownItems(items []workItem) *knownItems {
	k := &knownItems{byNorm: map[string][]int{}, byWord: map[string][]int{}}
	for _, it := range items {
		k.add(it)
	}
	return k
}

// withNorm fills an item's normalized title, once.
func withNorm(it workItem) workItem {
	if it.norm == nil {
		norm := normalizeTaskTitle(it.title)
		it.norm, it.words = &norm, wordSet(norm)
	}
	return it
}

func (k *knownItems) add(it workItem) {
	it = withNorm(it)
	pos := len(k.items)
	k.items = append(k.items, it)
	if *it.norm == "" {
		return
	}
	k.byNorm[*it.norm] = append(k.byNorm[*it.norm], pos)
	for w := range it.words {
		k.byWord[w] = append(k.byWord[w], pos)
	}
}

// findDuplicate is findDuplicateWorkItem: the first item, in list order,
// whose normalized title equals this one's or shares more than 0.8 of its
// words (Jaccard). Such an item holds one of any similarityProbe(a) of the
// title's a words (see dedup.go): only the items listed under its rarest
// words are compared.
func (k *knownItems) findDuplicate(title string) *workItem {
	n := normalizeTaskTitle(title)
	if n == "" {
		return nil
	}
	best := -1
	if pos := k.byNorm[n]; len(pos) > 0 {
		best = pos[0]
	}
	words := wordSet(n)
	a := len(words)
	rare := make([]string, 0, a)
	for w := range words {
		rare = append(rare, w)
	}
	slices.SortFunc(rare, func(p, q string) int { return cmp.Or(len(k.byWord[p])-len(k.byWord[q]), strings.Compare(p, q)) })
	seen := map[int]bool{}
	for _, w := range rare[:min(len(rare), similarityProbe(a))] {
		for _, pos := range k.byWord[w] {
			if seen[pos] || best >= 0 && pos > best {
				continue
			}
			seen[pos] = true
			other := k.items[pos].words
			inter := 0
			for w := range words {
				if other[w] {
					inter++
				}
			}
			if float64(inter)/float64(a+len(other)-inter) > 0.8 {
				best = pos
			}
		}
	}
	if best < 0 {
		return nil
	}
	return &k.items[best]
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Split(s, " ") {
		if w != "" {
			m[w] = true
		}
	}
	return m
}

// slugify is task-utils' slugify.
func slugify(text string) string {
	s := slugNonWordRE.ReplaceAll(jscompat.JSToLower(text), "")
	s = spacesRE.ReplaceAll(s, "-")
	s = dashesRE.ReplaceAll(s, "-")
	return jscompat.JSTrim(edgeDashesRE.ReplaceAll(s, ""))
}

// taskContext is buildTaskContextContent.
func taskContext(item model.Observation, ctx routeContext) string {
	lines := []string{"Auto-extracted by observer from session transcript."}
	if ctx.SessionKey != "" {
		lines = append(lines, "Session: "+ctx.SessionKey)
	}
	if ctx.TranscriptID != "" {
		lines = append(lines, "Transcript: "+ctx.TranscriptID)
	}
	if ctx.Source != "" {
		lines = append(lines, "Source: "+ctx.Source)
	}
	approx := item.Date
	if hm := findClockTime(item.Content); hm != "" {
		approx = item.Date + " " + hm
	}
	lines = append(lines, "Approximate timestamp: "+approx, "Observation type: "+item.Type, "Original observation: "+item.Content)
	return strings.Join(lines, "\n")
}

// touch is touchExistingWorkItem: an unresolved commitment seen again marks
// its open task updated, or its backlog item tagged "commitment" and seen.
func (r *router) touch(item *workItem, res *routeResult) error {
	dir := "tasks"
	if item.kind == "backlog" {
		dir = "backlog"
	}
	rel := filepath.Join(dir, item.slug+".md")
	path := filepath.Join(r.vault, rel)
	now := jscompat.FormatISOTime(r.now())
	var newTags []string
	if item.kind == "backlog" {
		newTags = mergeTags(item.tags, []string{"commitment"})
	}
	op := vaultOp{Kind: opTouch}
	set := func(key string, v jscompat.FrontValue) {
		op.Set = append(op.Set, frontSet{Key: key, Value: frontValueOf(v)})
	}
	if item.kind == "task" {
		set("updated", jscompat.StringValue(now))
	} else {
		src := jscompat.StringValue("observer")
		if item.hasSource {
			src = item.source
		}
		set("source", src)
		set("tags", jscompat.StringsValue(newTags))
		set("lastSeen", jscompat.StringValue(now))
	}
	opErr, err := r.files.apply(path, op)
	if err != nil {
		return err
	}
	if opErr != nil {
		res.Skipped = append(res.Skipped, fmt.Sprintf("%s left as it is: %v", rel, opErr))
		return nil
	}
	if item.kind == "backlog" {
		if !slices.Equal(item.tags, newTags) {
			r.knownStale = true
		}
		item.tags = newTags
		for i := range r.backlog {
			if r.backlog[i].slug == item.slug {
				r.backlog[i].tags = newTags
			}
		}
	}
	res.Touched = append(res.Touched, rel)
	return nil
}

func mergeTags(groups ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range groups {
		for _, t := range g {
			n := jscompat.JSToLower(jscompat.JSTrim(t))
			if n != "" && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// catFile is a category file the sweep appends to: its content when first
// read, and the lines added since, rendered only when needed.
type catFile struct {
	existing string // trimmed; "" for a missing or blank file
	header   string // "# <label> — <date>\n", for a new file
	entries  []string
	idx      *lineIndex
}

// render is the content after ClawVault's appends: each append trims the
// file and adds "\n<line>\n" (a new file starts with the header and a blank
// line).
func (c *catFile) render() []byte {
	var b strings.Builder
	if c.existing == "" {
		b.WriteString(c.header)
	} else {
		b.WriteString(c.existing)
	}
	for _, e := range c.entries {
		b.WriteString("\n" + e)
	}
	b.WriteByte('\n')
	return []byte(b.String())
}

func (r *router) appendToCategory(category string, item model.Observation, res *routeResult) error {
	dir, label := r.resolveTarget(category, item)
	rel := filepath.Join(dir, item.Date+".md")
	path := filepath.Join(r.vault, rel)
	cf := r.cats[path]
	if cf == nil {
		content, exists, err := r.files.read(path)
		if err != nil {
			return err
		}
		cf = &catFile{header: "# " + label + " \u2014 " + item.Date + "\n"}
		if exists {
			cf.existing = jscompat.JSTrim(string(content))
		}
		cf.idx = indexLines(cf.existing, item.Date)
		r.cats[path] = cf
	}
	normalizedNew := normalizeForDedup(item.Content)
	if cf.idx.isDuplicate(normalizedNew) {
		res.DedupHits++
		return nil
	}
	entry := model.RenderObservationLine(model.Observation{Type: item.Type, Confidence: item.Confidence,
		Importance: item.Importance, Content: addWikiLinks(item.Content)})
	// The operation replays the append on a file changed underneath.
	replay := vaultOp{Kind: opAppend, Header: cf.header, Date: item.Date, Line: entry, Dedup: normalizedNew}
	if cf.existing == "" && len(cf.entries) == 0 {
		cf.idx.add(normalizeLineForDedup(strings.TrimSuffix(cf.header, "\n"), item.Date))
	}
	cf.entries = append(cf.entries, entry)
	cf.idx.add(normalizedNew)
	if err := r.files.applyLazy(path, replay, func() ([]byte, bool) { return cf.render(), true }); err != nil {
		return err
	}
	res.Lines = append(res.Lines, routedLine{Path: rel, Type: item.Type})
	return nil
}

// committed forgets the state built on the files since the last commit:
// it is rebuilt from the files as written.
func (r *router) committed() {
	r.cats = map[string]*catFile{}
}

func normalizeLineForDedup(line, date string) string {
	lineContent := jscompat.JSTrim(lineDashRE.ReplaceFirst(line, ""))
	if o, ok := model.ParseObservationLine(lineContent, date); ok {
		return normalizeForDedup(o.Content)
	}
	return normalizeForDedup(lineContent)
}

func bigrams(s string) map[string]bool {
	words := strings.Split(s, " ")
	m := make(map[string]bool, len(words))
	for i := 0; i < len(words)-1; i++ {
		m[words[i]+" "+words[i+1]] = true
	}
	return m
}

// normalizeForDedup is the router's: wiki-link brackets removed, then the
// observation normalization.
func normalizeForDedup(content string) string {
	if strings.Contains(content, "[[") {
		content = wikiLinkRE.ReplaceAllFunc(content, func(s string, idx []int) string {
			m := s[idx[0]:idx[1]]
			return strings.ReplaceAll(strings.ReplaceAll(m, "[[", ""), "]]", "")
		})
	}
	return model.NormalizeObservationContent(content)
}

// addWikiLinks is the router's auto-linking of capitalized words.
func addWikiLinks(content string) string {
	if strings.Contains(content, "[[") {
		return content
	}
	return namePatternRE.ReplaceAllFunc(content, func(s string, idx []int) string {
		m := s[idx[0]:idx[1]]
		switch {
		case wikiSkipWords[m]:
			return m
		case wikiKnownEntities[m]:
			return "[[" + m + "]]"
		case oneNameRE.MatchString(m) && len(m) >= 3, twoNamesRE.MatchString(m):
			return "[[" + m + "]]"
		}
		return m
	})
}

// resolveTarget is resolveFilePath without the file name: the folder
// (relative to the vault) and the label of a new file's heading.
func (r *router) resolveTarget(category string, item model.Observation) (dir, label string) {
	if sub := r.customEntityPath(item.Content, category); sub != "" {
		return filepath.Join(category, sub), category + "/" + sub
	}
	if category == "projects" {
		if slug := r.matchProject(item.Content); slug != "" {
			return filepath.Join(category, slug), category + "/" + slug
		}
	} else if category == "people" {
		for _, re := range personPatterns {
			if m := re.FindStringSubmatch(item.Content); m != nil && m[1] != "" {
				slug := toSlug(m[1])
				return filepath.Join(category, slug), category + "/" + slug
			}
		}
	}
	return category, category
}

func toSlug(name string) string {
	return nonSlugRE.ReplaceAll(spacesRE.ReplaceAll(jscompat.JSToLower(name), "-"), "")
}

func (r *router) customEntityPath(content, category string) string {
	if category != "people" && category != "projects" || len(r.routes) == 0 {
		return ""
	}
	for _, rule := range r.routes {
		if rule.re != nil {
			if !rule.re.MatchString(content) {
				continue
			}
		} else if !strings.Contains(jscompat.JSToLower(content), jscompat.JSToLower(rule.pattern)) {
			continue
		}
		var parts []string
		for _, p := range strings.Split(rule.target, "/") {
			if p = jscompat.JSTrim(p); p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) < 2 || parts[0] != category {
			return ""
		}
		return strings.Join(parts[1:], "/")
	}
	return ""
}

// loadRoutes reads the custom routes of .clawvault.json (normalizeRoutes):
// a pattern, a target and a positive priority each; highest priority first.
func (r *router) loadRoutes() []routeRule {
	data, err := r.fsys.ReadFile(filepath.Join(r.vault, ".clawvault.json"))
	if err != nil {
		return nil
	}
	var doc struct {
		Routes []json.RawMessage `json:"routes"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var rules []routeRule
	for _, raw := range doc.Routes {
		var rule struct {
			Pattern  any `json:"pattern"`
			Target   any `json:"target"`
			Priority any `json:"priority"`
		}
		if json.Unmarshal(raw, &rule) != nil {
			continue
		}
		pattern, _ := rule.Pattern.(string)
		target, _ := rule.Target.(string)
		pattern, target = jscompat.JSTrim(pattern), jscompat.JSTrim(target)
		prio, ok := rule.Priority.(float64)
		if pattern == "" || target == "" || !ok || prio < 1 || prio != float64(int(prio)) {
			continue
		}
		rr := routeRule{pattern: pattern, target: target, priority: int(prio)}
		if m := regexLiteralRE.FindStringSubmatch(pattern); m != nil {
			re, err := jscompat.CompileJSRegexp(m[1], m[2])
			if err != nil {
				r.notes = append(r.notes, fmt.Sprintf("custom route %s is skipped: %v", pattern, err))
				continue
			}
			rr.re = re
		}
		rules = append(rules, rr)
	}
	slices.SortStableFunc(rules, func(a, b routeRule) int {
		if a.priority != b.priority {
			return b.priority - a.priority
		}
		return cmp.Or(cmp.Compare(strings.ToLower(a.pattern), strings.ToLower(b.pattern)), cmp.Compare(a.pattern, b.pattern))
	})
	return rules
}

// loadProjects is listProjects: projects/<slug>.md documents with
// type: project, most recently updated first.
func (r *router) loadProjects() []knownProject {
	dir := filepath.Join(r.vault, "projects")
	entries, err := r.fsys.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []knownProject
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".md") {
			continue
		}
		slug := strings.TrimSuffix(name, ".md")
		if isDateSlug(slug) {
			continue
		}
		data, err := r.fsys.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		doc, err := jscompat.ParseMatter(string(data))
		if err != nil || doc.Data.GetString("type") != "project" {
			continue
		}
		created := doc.Data.GetString("created")
		if created == "" {
			created = "1970-01-01T00:00:00.000Z"
		}
		updated := doc.Data.GetString("updated")
		if updated == "" {
			updated = created
		}
		key, _ := jscompat.ParseISOTime(updated)
		title := extractTitle(doc.Content)
		if title == "" {
			title = slug
		}
		norm := normalizeProjectReference(slug)
		re, err := jscompat.CompileJSRegexp(`\b`+regexpQuoteJS(norm)+`\b`, "i")
		if err != nil {
			continue
		}
		out = append(out, knownProject{slug: slug, normalizedSlug: norm, normalizedTitle: jscompat.JSToLower(title), slugRE: re, sortKey: key})
	}
	slices.SortStableFunc(out, func(a, b knownProject) int { return cmp.Compare(b.sortKey, a.sortKey) })
	return out
}

// isDateSlug is /^\d{4}-\d{2}-\d{2}$/.
func isDateSlug(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && allDigits(s[:4]+s[5:7]+s[8:])
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

var projectRefJunkRE = jscompat.MustJSRegexp(`[^\w\s-]`, "g")

func normalizeProjectReference(v string) string {
	s := projectRefJunkRE.ReplaceAll(jscompat.JSToLower(v), "")
	s = spacesRE.ReplaceAll(s, "-")
	s = dashesRE.ReplaceAll(s, "-")
	return jscompat.JSTrim(edgeDashesRE.ReplaceAll(s, ""))
}

func regexpQuoteJS(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`.*+?^${}()|[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (r *router) matchProject(content string) string {
	if len(r.projects) == 0 {
		return ""
	}
	lower := jscompat.JSToLower(content)
	var targets []string
	for _, m := range wikiTargetRE.FindAllStringSubmatch(content) {
		t := jscompat.JSTrim(strings.SplitN(strings.SplitN(m[1], "|", 2)[0], "#", 2)[0])
		if t != "" {
			targets = append(targets, normalizeProjectReference(t))
		}
	}
	for _, p := range r.projects {
		if slices.Contains(targets, p.normalizedSlug) {
			return p.slug
		}
		if p.normalizedTitle != "" && strings.Contains(lower, p.normalizedTitle) {
			return p.slug
		}
		if p.slugRE.MatchString(content) {
			return p.slug
		}
	}
	return ""
}
