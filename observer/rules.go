package observer

import (
	"math"
	"strings"
	"time"

	"clawvault-tui/model"
)

// The rules compressor is ClawVault 3.5.2's deterministic compression
// (src/observer/compressor.ts: sanitizeIncomingMessage, fallbackCompression
// and what they call), the path ClawVault takes without a model: one
// observation per message, typed by pattern, scored by importance bands,
// dated and timed from the text, with noise and tool output filtered out and
// repeats of a day folded together. The regular expressions are ClawVault's,
// as written.

var (
	rolePrefixRE         = model.MustJSRegexp(`^([a-z][a-z0-9_-]{1,31})\s*:\s*(.+)$`, "i")
	sourceTagRE          = model.MustJSRegexp(`^\[[^\]]+\]\s+`, "")
	base64DataURIRE      = model.MustJSRegexp(`\bdata:[^;\s]+;base64,[A-Za-z0-9+/=]{24,}\b`, "gi")
	longBase64TokenRE    = model.MustJSRegexp(`\b[A-Za-z0-9+/]{80,}={0,2}\b`, "g")
	noisePrefixRE        = model.MustJSRegexp(`^(?:metadata|system metadata|session metadata|tool[_-]?result|toolresult)\s*:`, "i")
	structuredNoiseRE    = model.MustJSRegexp(`\b(?:tool[_-]?result|tool[_-]?use|toolcallid|tooluseid|function[_-]?(?:call|result)|stdout|stderr|exitcode|recordedat|trace(?:_|-)?id|parent(?:_|-)?id|session(?:_|-)?id|metadata|base64|mime(?:type)?)\b`, "i")
	afterToolResultRE    = model.MustJSRegexp(`^tool[_-]?result\s*:\s*(\{.*|\[.*)`, "i")
	criticalRE           = model.MustJSRegexp(`(?:\b(?:decision|decided|chose|chosen|selected|picked|opted|switched to)\s*:?|\bdecid(?:e|ed|ing|ion)\b|\berror\b|\bfail(?:ed|ure|ing)?\b|\bblock(?:ed|er)?\b|\bbreaking(?:\s+change)?s?\b|\bcritical\b|\b\w+\s+chosen\s+(?:for|over|as)\b|\bpublish(?:ed)?\b.*@?\d+\.\d+|\bmerge[d]?\s+(?:PR|pull\s+request)\b|\bshipped\b|\breleased?\b.*v?\d+\.\d+|\bsigned\b.*\b(?:contract|agreement|deal)\b|\bpricing\b.*\$|\bdemo\b.*\b(?:completed?|done|finished)\b|\bmeeting\b.*\b(?:completed?|done|finished)\b|\bstrategy\b.*\b(?:pivot|change|shift)\b)`, "i")
	deadlineWithDateRE   = model.MustJSRegexp(`(?:(?:\bdeadline\b|\bdue(?:\s+date)?\b|\bcutoff\b).*(?:\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2})|(?:\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}).*(?:\bdeadline\b|\bdue(?:\s+date)?\b|\bcutoff\b))`, "i")
	notableRE            = model.MustJSRegexp(`\b(prefer(?:ence|s)?|likes?|dislikes?|context|pattern|architecture|approach|trade[- ]?off|milestone|stakeholder|teammate|collaborat(?:e|ed|ion)|discussion|notable|deadline|due|timeline|deploy(?:ed|ment)?|built|configured|launched|proposal|pitch|onboard(?:ed|ing)?|migrat(?:e|ed|ion)|domain|DNS|infra(?:structure)?)\b`, "i")
	todoSignalRE         = model.MustJSRegexp(`(?:\btodo:\s*|\bwe need to\b|\bdon't forget(?: to)?\b|\bremember to\b|\bmake sure to\b)`, "i")
	commitmentTaskSignal = model.MustJSRegexp(`\b(?:i'?ll|i will|let me|(?:i'?m\s+)?going to|plan to|should)\b`, "i")
	unresolvedSignalRE   = model.MustJSRegexp(`\b(?:need to figure out|tbd|to be determined)\b`, "i")
	deadlineSignalRE     = model.MustJSRegexp(`\b(?:by\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)|before\s+the\s+\w+|deadline is)\b`, "i")
	lowSignalOpeningRE   = model.MustJSRegexp(`\b(?:starts?\s+now|starting\s+(?:routine\s+)?(?:maintenance|meeting|session)|meeting\s+recap)\b`, "i")
	ackOnlyRE            = model.MustJSRegexp(`^(?:user:|assistant:)?\s*(?:ok(?:ay)?|sounds good|got it|understood|ack(?:nowledged)?)(?:[.!]|$)`, "i")
	routineMaintenanceRE = model.MustJSRegexp(`\b(?:maintenance|health checks?|backups?|logs?|incidents?|alerts?|follow-up|workers?|cache prune)\b`, "i")
	noIncidentRE         = model.MustJSRegexp(`\b(?:without incidents?|no incidents?|no alerts?|stayed green|no follow-up)\b`, "i")
	commitmentContextRE  = model.MustJSRegexp(`(?:#\w[\w-]*|\bv\d+\.\d+(?:\.\d+)?\b|\bafter ci\b|\bchangelog\b|\bredlines?\b|\bproposal\b|\bcontract\b|\bagreement\b)`, "i")
	markdownLinkRE       = model.MustJSRegexp(`\[([^\]]+)\]\([^)]+\)`, "g")
	isoDateRE            = model.MustJSRegexp(`\b(\d{4}-\d{2}-\d{2})\b`, "")
	clockTimeRE          = model.MustJSRegexp(`\b([01]\d|2[0-3]):([0-5]\d)\b`, "")
	finalizeRE           = model.MustJSRegexp(`\bwe need to finalize\b`, "i")
	leadInRE             = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)(?:great|ok(?:ay)?|thanks|thank you)[,!. ]+(?:and\s+)?(.+)$`, "i")
	leadInTaggedRE       = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:\[[^\]]+\]\s+)?(?:user|assistant):\s*)(?:great|ok(?:ay)?|thanks|thank you)[,!. ]+(?:and\s+)?(.+)$`, "i")
	pricingRE            = model.MustJSRegexp(`\bwe agreed on pricing at\b`, "i")
	pricingRewriteRE     = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)we agreed on pricing at\s+`, "i")
	searchTermsRE        = model.MustJSRegexp(`\bkeep search terms?\b`, "i")
	searchTermsRewriteRE = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)we should keep search terms like\s+`, "i")
	untouchedEndRE       = model.MustJSRegexp(`\s+untouched\.?$`, "i")
	doubleSpaceRE        = model.MustJSRegexp(`\s{2,}`, "g")
	talkedWithRE         = model.MustJSRegexp(`\btalked with\b`, "i")
	approvedShippingRE   = model.MustJSRegexp(`\bapproved shipping\b`, "i")
	talkedRewriteRE      = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)i talked with\s+([^,]+)\s+and\s+she approved\s+`, "i")
	iWillRE              = model.MustJSRegexp(`\bi will\b`, "i")
	iWillRewriteRE       = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)i will\s+`, "i")
	legalReviewRE        = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)\[COMMITMENT\]\s+coordinate legal review and share redlines in\s+`, "i")
	publishRewriteRE     = model.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)\[COMMITMENT\]\s+publish\s+`, "i")
	northwindDealRE      = model.MustJSRegexp(`\#northwind-deal\b`, "i")
	confidenceBoostRE    = model.MustJSRegexp(`\b(?:decided|chose|committed|deadline|released|merged)\b`, "i")
	healthChecksRE       = model.MustJSRegexp(`\bhealth checks?\b`, "i")
	backupSignalRE       = model.MustJSRegexp(`\b(?:rotated|logs?|backups?)\b`, "i")
	restartSignalRE      = model.MustJSRegexp(`\b(?:restarted|workers?|alerts?)\b`, "i")
	windowSignalRE       = model.MustJSRegexp(`\bmaintenance window\b`, "i")
	startingSignalRE     = model.MustJSRegexp(`\bstarting\b`, "i")
	directoriesSignalRE  = model.MustJSRegexp(`\bdirectories\b`, "i")
	dependencySignalRE   = model.MustJSRegexp(`\bdependency\b`, "i")
	reportedSignalRE     = model.MustJSRegexp(`\breported\b`, "i")
	thanksSignalRE       = model.MustJSRegexp(`\bthanks\b`, "i")
	roundSignalRE        = model.MustJSRegexp(`\bround\b`, "i")
	roleSeparatorRE      = model.MustJSRegexp(`[\s_-]+`, "g")
)

// SanitizeMessage is sanitizeIncomingMessage: white space collapsed; a
// message from a system, developer, metadata or tool role (also behind a
// "[tag] ") dropped; base64 blobs stripped; JSON-shaped tool noise dropped.
// "" means the message is not worth observing.
func SanitizeMessage(message string) string {
	normalized := model.CollapseJSSpace(message)
	if normalized == "" {
		return ""
	}
	sourceTag := ""
	payload := normalized
	if m := sourceTagRE.FindStringSubmatchIndex(normalized); m != nil {
		sourceTag = normalized[:m[1]]
		payload = strings.TrimLeftFunc(normalized[m[1]:], model.IsJSSpace)
	}
	if m := rolePrefixRE.FindStringSubmatch(payload); m != nil && isConversationRole(m[1]) {
		role := model.JSToLower(model.JSTrim(m[1]))
		if dropRole(role) {
			return ""
		}
		content := stripNoisyData(m[2])
		if content == "" || isStructuredNoise(content) {
			return ""
		}
		return sourceTag + role + ": " + content
	}
	cleaned := stripNoisyData(payload)
	if cleaned == "" || isStructuredNoise(cleaned) {
		return ""
	}
	return sourceTag + cleaned
}

func isConversationRole(role string) bool {
	n := roleSeparatorRE.ReplaceAll(model.JSToLower(model.JSTrim(role)), "")
	switch n {
	case "":
		return false
	case "user", "assistant", "system", "developer", "metadata":
		return true
	}
	return strings.HasPrefix(n, "tool")
}

func dropRole(role string) bool {
	n := roleSeparatorRE.ReplaceAll(role, "")
	switch n {
	case "":
		return false
	case "system", "developer", "metadata":
		return true
	}
	return strings.HasPrefix(n, "tool")
}

// stripNoisyData removes base64 data URIs and long base64 tokens. The
// regular expressions run only when their necessary condition holds: a
// "data:" or a run of 80 base64 characters.
func stripNoisyData(v string) string {
	if containsFold(v, "data:") {
		v = base64DataURIRE.ReplaceAll(v, " ")
	}
	if hasBase64Run(v, 80) {
		v = longBase64TokenRE.ReplaceAll(v, " ")
	}
	return model.CollapseJSSpace(v)
}

func hasBase64Run(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// containsFold reports whether s contains the ASCII word sub, ignoring
// ASCII case (JavaScript's /i does not fold ſ or K into ASCII either).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			// EqualFold folds Unicode too, but sub is ASCII and s[i:…]
			// has the same byte length, so only ASCII can match.
			return true
		}
	}
	return false
}

func isStructuredNoise(v string) bool {
	t := model.JSTrim(v)
	if t == "" {
		return true
	}
	if noisePrefixRE.MatchString(t) {
		return true
	}
	long := model.UTF16Len(t) >= 40
	if long && afterToolResultRE.MatchString(t) && structuredNoiseRE.MatchString(t) {
		return true
	}
	if long && (t[0] == '{' || t[0] == '[') && structuredNoiseRE.MatchString(t) {
		return true
	}
	return false
}

// candidate is toFallbackCandidate's result, and what the rules make of it.
type candidate struct {
	date, time string
	typ        string
	content    string
	// signals feed the routine-maintenance summary.
	structural, maintenance, noIncident bool
	flags                               maintenanceFlags
	// dropped by shouldDropLowSignalCandidate; else calibrated is the
	// observation and key its per-day dedup key.
	dropped    bool
	calibrated model.Observation
	key        string
}

type maintenanceFlags uint16

const (
	flagHealth maintenanceFlags = 1 << iota
	flagBackup
	flagRestart
	flagWindow
	flagStarting
	flagDirectory
	flagDependency
	flagReported
	flagThanks
	flagRound
)

// rules holds the rules compressor's settings for one session.
type rules struct {
	now   time.Time
	fixes Fixes
}

// toCandidate is toFallbackCandidate plus everything the later steps
// compute from the candidate alone, so that a repeated message (heartbeat
// polls, "HEARTBEAT_OK") costs one map lookup.
func (r rules) toCandidate(message string) *candidate {
	normalized := model.JSTrim(markdownLinkRE.ReplaceAll(model.CollapseJSSpace(message), "$1"))
	normalized = model.SliceUTF16(normalized, 280)
	if normalized == "" {
		return nil
	}
	c := &candidate{date: r.formatDate(), time: r.formatTime()}
	if m := isoDateRE.FindStringSubmatch(message); m != nil {
		c.date = m[1]
	}
	if m := clockTimeRE.FindStringSubmatch(message); m != nil {
		c.time = m[1] + ":" + m[2]
	}
	line := r.stripLeadIn(c.time + " " + normalized)
	c.content = line
	c.typ = model.InferObservationType(line)

	critical := isCritical(line)
	switch c.typ {
	case "decision", "todo", "task", "commitment", "milestone":
		c.structural = true
	}
	c.structural = c.structural || critical
	c.maintenance = routineMaintenanceRE.MatchString(line)
	c.noIncident = noIncidentRE.MatchString(line)
	for _, s := range []struct {
		re   *model.JSRegexp
		flag maintenanceFlags
	}{{healthChecksRE, flagHealth}, {backupSignalRE, flagBackup}, {restartSignalRE, flagRestart}, {windowSignalRE, flagWindow},
		{startingSignalRE, flagStarting}, {directoriesSignalRE, flagDirectory}, {dependencySignalRE, flagDependency},
		{reportedSignalRE, flagReported}, {thanksSignalRE, flagThanks}, {roundSignalRE, flagRound}} {
		if s.re.MatchString(line) {
			c.flags |= s.flag
		}
	}

	if r.dropLowSignal(line) {
		c.dropped = true
		return c
	}
	c.calibrated = r.calibrate(c)
	c.key = c.calibrated.Date + "|" + c.calibrated.Type + "|" + model.NormalizeObservationContent(c.calibrated.Content)
	return c
}

func (r rules) formatDate() string { return r.now.UTC().Format("2006-01-02") }
func (r rules) formatTime() string { return r.now.UTC().Format("15:04") }

// stripLeadIn is stripConversationLeadIn: "ok, and X" becomes "X".
func (r rules) stripLeadIn(content string) string {
	re := leadInRE
	if r.fixes.AcksBehindTag {
		re = leadInTaggedRE
	}
	m := re.FindStringSubmatch(content)
	if m == nil {
		return content
	}
	rest := model.JSTrim(m[2])
	if rest == "" {
		return content
	}
	return m[1] + rest
}

// dropLowSignal is shouldDropLowSignalCandidate.
func (r rules) dropLowSignal(content string) bool {
	without := model.JSTrim(leadingTimeRE.ReplaceFirst(content, ""))
	if without == "" {
		return true
	}
	ack := without
	if r.fixes.AcksBehindTag {
		ack = sourceTagRE.ReplaceFirst(ack, "")
	}
	if ackOnlyRE.MatchString(ack) {
		return true
	}
	if lowSignalOpeningRE.MatchString(without) && !isCritical(without) {
		return true
	}
	return finalizeRE.MatchString(without) && !deadlineSignalRE.MatchString(without)
}

var leadingTimeRE = model.MustJSRegexp(`^\d{2}:\d{2}\s+`, "")

// calibrate is calibrateFallbackCandidate, benchmark-specific rewrites and
// all (see Fixes.NoInventedWords for the two this does not apply by default).
func (r rules) calibrate(c *candidate) model.Observation {
	content, typ := c.content, c.typ
	if pricingRE.MatchString(content) {
		typ = "decision"
		content = pricingRewriteRE.ReplaceFirst(content, "$1Pricing agreement reached at ")
	}
	if searchTermsRE.MatchString(content) {
		typ = "fact"
		content = searchTermsRewriteRE.ReplaceFirst(content, "$1Preserve searchable terms ")
		content = untouchedEndRE.ReplaceFirst(content, "")
		content = model.JSTrim(doubleSpaceRE.ReplaceAll(content, " "))
		if !r.fixes.NoInventedWords {
			content += ". Great observer benchmark harness. finalize persistence untouched."
		}
	}
	if talkedWithRE.MatchString(content) && approvedShippingRE.MatchString(content) {
		typ = "relationship"
		content = talkedRewriteRE.ReplaceFirst(content, "$1$2 approved ")
	}
	if typ == "task" && iWillRE.MatchString(content) && commitmentContextRE.MatchString(content) {
		typ = "commitment"
		content = iWillRewriteRE.ReplaceFirst(content, "$1[COMMITMENT] ")
		content = legalReviewRE.ReplaceFirst(content, "$1[COMMITMENT] legal review redlines will be shared in ")
		content = publishRewriteRE.ReplaceFirst(content, "$1[COMMITMENT] committed to publish ")
	}
	if northwindDealRE.MatchString(content) && !r.fixes.NoInventedWords {
		content += " coordinate Client Health now."
	}
	importance := inferImportance(content, typ)
	return model.Observation{
		Date:       c.date,
		Type:       typ,
		Importance: importance,
		Confidence: inferConfidence(content, typ, importance),
		Content:    content,
	}
}

func isCritical(text string) bool {
	return criticalRE.MatchString(text) || deadlineWithDateRE.MatchString(text)
}

// inferTaskType is the compressor's inferTaskType.
func inferTaskType(text string) string {
	switch {
	case unresolvedSignalRE.MatchString(text):
		return "commitment-unresolved"
	case todoSignalRE.MatchString(text):
		return "todo"
	case commitmentTaskSignal.MatchString(text) || deadlineSignalRE.MatchString(text):
		return "task"
	}
	return ""
}

// inferImportance is the compressor's importance bands: 0.9 critical,
// 0.72 unresolved, 0.65 tasks, 0.6 notable, 0.55 structural types, 0.45
// soft types, else 0.2.
func inferImportance(text, typ string) float64 {
	task := inferTaskType(text)
	switch {
	case isCritical(text):
		return 0.9
	case task == "commitment-unresolved":
		return 0.72
	case task == "task" || task == "todo":
		return 0.65
	case notableRE.MatchString(text):
		return 0.6
	}
	switch typ {
	case "decision", "commitment", "milestone":
		return 0.55
	case "preference", "lesson", "relationship", "project":
		return 0.45
	}
	return 0.2
}

func inferConfidence(text, typ string, importance float64) float64 {
	confidence := 0.72
	if importance >= 0.8 {
		confidence += 0.12
	}
	switch typ {
	case "decision", "commitment", "milestone":
		confidence += 0.06
	}
	if inferTaskType(text) != "" {
		confidence += 0.06
	}
	if confidenceBoostRE.MatchString(text) {
		confidence += 0.05
	}
	return model.Clamp01(confidence)
}

// rulesSession compresses one session's messages as fallbackCompression
// does, streaming: it keeps what the routine-maintenance summary needs
// (counts, signals, the first candidate) and the deduplicated observations,
// never the messages.
type rulesSession struct {
	rules
	memo map[string]*candidate

	count, maintenanceCount int
	structural, noIncident  bool
	flags                   maintenanceFlags
	anchor                  *candidate

	seen map[string]bool
	out  []model.Observation
}

func newRulesSession(now time.Time, fixes Fixes) *rulesSession {
	return &rulesSession{rules: rules{now: now, fixes: fixes}, memo: map[string]*candidate{}, seen: map[string]bool{}}
}

// add takes one sanitized message.
func (s *rulesSession) add(message string) {
	c, ok := s.memo[message]
	if !ok {
		c = s.toCandidate(message)
		s.memo[message] = c
	}
	if c == nil {
		return
	}
	s.count++
	if s.anchor == nil {
		s.anchor = c
	}
	s.structural = s.structural || c.structural
	if c.maintenance {
		s.maintenanceCount++
	}
	s.noIncident = s.noIncident || c.noIncident
	s.flags |= c.flags
	if c.dropped || s.seen[c.key] {
		return
	}
	s.seen[c.key] = true
	s.out = append(s.out, c.calibrated)
}

// finish returns the observations, as fallbackCompression renders them.
func (s *rulesSession) finish() []model.Observation {
	if summary, ok := s.maintenanceSummary(); ok {
		return roundTrip([]model.Observation{summary})
	}
	if len(s.out) == 0 {
		return roundTrip([]model.Observation{{
			Date: s.formatDate(), Type: "fact", Confidence: 0.7, Importance: 0.2,
			Content: s.formatTime() + " Processed session updates.",
		}})
	}
	return roundTrip(s.out)
}

// maintenanceSummary is buildRoutineMaintenanceSummary: a session that is
// only routine maintenance, without incidents, becomes one line.
func (s *rulesSession) maintenanceSummary() (model.Observation, bool) {
	if s.count < 3 || s.structural {
		return model.Observation{}, false
	}
	if float64(s.maintenanceCount) < max(2, math.Ceil(float64(s.count)*0.6)) || !s.noIncident {
		return model.Observation{}, false
	}
	has := func(f maintenanceFlags) bool { return s.flags&f != 0 }
	base := "Routine maintenance completed without incidents or follow-up actions"
	if has(flagWindow) {
		base = "Routine maintenance window completed without incidents or follow-up actions"
	}
	var details []string
	if has(flagHealth) {
		details = append(details, "health checks stayed green")
	}
	if has(flagBackup) {
		details = append(details, "rotated weekly logs and confirmed backups")
	}
	if has(flagRestart) {
		details = append(details, "workers restarted with no alerts")
	}
	summary := base
	if len(details) > 0 {
		summary = base + "; " + strings.Join(details, ", ")
	}
	parts := []string{summary}
	if has(flagStarting) || has(flagWindow) {
		parts = append(parts, "Starting maintenance window.")
	}
	if has(flagDirectory) {
		parts = append(parts, "Cleaned temp directories.")
	}
	if has(flagDependency) {
		parts = append(parts, "Completed dependency cache prune.")
	}
	if has(flagReported) {
		parts = append(parts, "No incidents were reported.")
	}
	if has(flagThanks) || has(flagRound) {
		parts = append(parts, "Thanks, maintenance round. Closed with no alerts.")
	}
	return model.Observation{
		Date: s.anchor.date, Type: "fact", Confidence: 0.82, Importance: 0.28,
		Content: s.anchor.time + " " + strings.Join(parts, " "),
	}, true
}

// roundTrip renders observations and reads them back, as ClawVault's merge
// does with a compressor's output: scores become their two-decimal text,
// and a line the syntax does not admit is lost.
func roundTrip(obs []model.Observation) []model.Observation {
	return model.ParseObservationMarkdown(model.RenderObservations(obs))
}
