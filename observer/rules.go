package observer

import (
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"clawvault-tui/jscompat"
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
	sourceTagRE       = jscompat.MustJSRegexp(`^\[[^\]]+\]\s+`, "")
	base64DataURIRE   = jscompat.MustJSRegexp(`\bdata:[^;\s]+;base64,[A-Za-z0-9+/=]{24,}\b`, "gi")
	longBase64TokenRE = jscompat.MustJSRegexp(`\b[A-Za-z0-9+/]{80,}={0,2}\b`, "g")
	noisePrefixRE     = jscompat.MustJSRegexp(`^(?:metadata|system metadata|session metadata|tool[_-]?result|toolresult)\s*:`, "i")
	structuredNoiseRE = jscompat.MustJSRegexp(`\b(?:tool[_-]?result|tool[_-]?use|toolcallid|tooluseid|function[_-]?(?:call|result)|stdout|stderr|exitcode|recordedat|trace(?:_|-)?id|parent(?:_|-)?id|session(?:_|-)?id|metadata|base64|mime(?:type)?)\b`, "i").Needs("tool", "stdout", "stderr", "exitcode", "recordedat", "trace", "parent", "session", "metadata", "base64", "mime", "function")
	afterToolResultRE = jscompat.MustJSRegexp(`^tool[_-]?result\s*:\s*(\{.*|\[.*)`, "i")
	// criticalParts are criticalRE's alternatives, each with its own
	// words: test() is true when any alternative matches, and most texts
	// hold the words of none.
	criticalParts = []*jscompat.JSRegexp{
		jscompat.MustJSRegexp(`\b(?:decision|decided|chose|chosen|selected|picked|opted|switched to)\s*:?`, "i").Needs("decis", "decid", "chose", "selected", "picked", "opted", "switched to"),
		jscompat.MustJSRegexp(`\bdecid(?:e|ed|ing|ion)\b`, "i").Needs("decid"),
		jscompat.MustJSRegexp(`\berror\b`, "i").Needs("error"),
		jscompat.MustJSRegexp(`\bfail(?:ed|ure|ing)?\b`, "i").Needs("fail"),
		jscompat.MustJSRegexp(`\bblock(?:ed|er)?\b`, "i").Needs("block"),
		jscompat.MustJSRegexp(`\bbreaking(?:\s+change)?s?\b`, "i").Needs("breaking"),
		jscompat.MustJSRegexp(`\bcritical\b`, "i").Needs("critical"),
		jscompat.MustJSRegexp(`\b\w+\s+chosen\s+(?:for|over|as)\b`, "i").Needs("chosen"),
		jscompat.MustJSRegexp(`\bpublish(?:ed)?\b.*@?\d+\.\d+`, "i").Needs("publish"),
		jscompat.MustJSRegexp(`\bmerge[d]?\s+(?:PR|pull\s+request)\b`, "i").Needs("merge"),
		jscompat.MustJSRegexp(`\bshipped\b`, "i").Needs("shipped"),
		jscompat.MustJSRegexp(`\breleased?\b.*v?\d+\.\d+`, "i").Needs("release"),
		jscompat.MustJSRegexp(`\bsigned\b.*\b(?:contract|agreement|deal)\b`, "i").Needs("signed"),
		jscompat.MustJSRegexp(`\bpricing\b.*\$`, "i").Needs("pricing"),
		jscompat.MustJSRegexp(`\bdemo\b.*\b(?:completed?|done|finished)\b`, "i").Needs("demo"),
		jscompat.MustJSRegexp(`\bmeeting\b.*\b(?:completed?|done|finished)\b`, "i").Needs("meeting"),
		jscompat.MustJSRegexp(`\bstrategy\b.*\b(?:pivot|change|shift)\b`, "i").Needs("strategy"),
	}
	deadlineWithDateRE   = jscompat.MustJSRegexp(`(?:(?:\bdeadline\b|\bdue(?:\s+date)?\b|\bcutoff\b).*(?:\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2})|(?:\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}).*(?:\bdeadline\b|\bdue(?:\s+date)?\b|\bcutoff\b))`, "i").Needs("deadline", "due", "cutoff")
	notableRE            = jscompat.MustJSRegexp(`\b(prefer(?:ence|s)?|likes?|dislikes?|context|pattern|architecture|approach|trade[- ]?off|milestone|stakeholder|teammate|collaborat(?:e|ed|ion)|discussion|notable|deadline|due|timeline|deploy(?:ed|ment)?|built|configured|launched|proposal|pitch|onboard(?:ed|ing)?|migrat(?:e|ed|ion)|domain|DNS|infra(?:structure)?)\b`, "i").Needs("prefer", "like", "context", "pattern", "architecture", "approach", "trade", "milestone", "stakeholder", "teammate", "collaborat", "discussion", "notable", "deadline", "due", "timeline", "deploy", "built", "configured", "launched", "proposal", "pitch", "onboard", "migrat", "domain", "dns", "infra")
	todoSignalRE         = jscompat.MustJSRegexp(`(?:\btodo:\s*|\bwe need to\b|\bdon't forget(?: to)?\b|\bremember to\b|\bmake sure to\b)`, "i").Needs("todo:", "we need to", "don't forget", "remember to", "make sure to")
	commitmentTaskSignal = jscompat.MustJSRegexp(`\b(?:i'?ll|i will|let me|(?:i'?m\s+)?going to|plan to|should)\b`, "i").Needs("ill", "i'll", "i will", "let me", "going to", "plan to", "should")
	unresolvedSignalRE   = jscompat.MustJSRegexp(`\b(?:need to figure out|tbd|to be determined)\b`, "i").Needs("need to figure out", "tbd", "to be determined")
	deadlineSignalRE     = jscompat.MustJSRegexp(`\b(?:by\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)|before\s+the\s+\w+|deadline is)\b`, "i").Needs(model.WeekdayWords()...)
	lowSignalOpeningRE   = jscompat.MustJSRegexp(`\b(?:starts?\s+now|starting\s+(?:routine\s+)?(?:maintenance|meeting|session)|meeting\s+recap)\b`, "i").Needs("start", "meeting")
	ackOnlyRE            = jscompat.MustJSRegexp(`^(?:user:|assistant:)?\s*(?:ok(?:ay)?|sounds good|got it|understood|ack(?:nowledged)?)(?:[.!]|$)`, "i")
	routineMaintenanceRE = jscompat.MustJSRegexp(`\b(?:maintenance|health checks?|backups?|logs?|incidents?|alerts?|follow-up|workers?|cache prune)\b`, "i").Needs("maintenance", "health check", "backup", "log", "incident", "alert", "follow-up", "worker", "cache prune")
	noIncidentRE         = jscompat.MustJSRegexp(`\b(?:without incidents?|no incidents?|no alerts?|stayed green|no follow-up)\b`, "i").Needs("incident", "no alert", "stayed green", "no follow-up")
	commitmentContextRE  = jscompat.MustJSRegexp(`(?:#\w[\w-]*|\bv\d+\.\d+(?:\.\d+)?\b|\bafter ci\b|\bchangelog\b|\bredlines?\b|\bproposal\b|\bcontract\b|\bagreement\b)`, "i").Needs("#", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "after ci", "changelog", "redline", "proposal", "contract", "agreement")
	markdownLinkRE       = jscompat.MustJSRegexp(`\[([^\]]+)\]\([^)]+\)`, "g").Needs("](")
	finalizeRE           = jscompat.MustJSRegexp(`\bwe need to finalize\b`, "i").Needs("we need to finalize")
	leadInRE             = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)(?:great|ok(?:ay)?|thanks|thank you)[,!. ]+(?:and\s+)?(.+)$`, "i").Needs("great", "ok", "thank")
	leadInTaggedRE       = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:\[[^\]]+\]\s+)?(?:user|assistant):\s*)(?:great|ok(?:ay)?|thanks|thank you)[,!. ]+(?:and\s+)?(.+)$`, "i").Needs("great", "ok", "thank")
	pricingRE            = jscompat.MustJSRegexp(`\bwe agreed on pricing at\b`, "i").Needs("we agreed on pricing at")
	pricingRewriteRE     = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)we agreed on pricing at\s+`, "i")
	searchTermsRE        = jscompat.MustJSRegexp(`\bkeep search terms?\b`, "i").Needs("keep search term")
	searchTermsRewriteRE = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)we should keep search terms like\s+`, "i")
	untouchedEndRE       = jscompat.MustJSRegexp(`\s+untouched\.?$`, "i")
	doubleSpaceRE        = jscompat.MustJSRegexp(`\s{2,}`, "g")
	talkedWithRE         = jscompat.MustJSRegexp(`\btalked with\b`, "i").Needs("talked with")
	approvedShippingRE   = jscompat.MustJSRegexp(`\bapproved shipping\b`, "i").Needs("approved shipping")
	talkedRewriteRE      = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)i talked with\s+([^,]+)\s+and\s+she approved\s+`, "i")
	iWillRE              = jscompat.MustJSRegexp(`\bi will\b`, "i").Needs("i will")
	iWillRewriteRE       = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)i will\s+`, "i")
	legalReviewRE        = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)\[COMMITMENT\]\s+coordinate legal review and share redlines in\s+`, "i")
	publishRewriteRE     = jscompat.MustJSRegexp(`^(\d{2}:\d{2}\s+(?:user|assistant):\s*)\[COMMITMENT\]\s+publish\s+`, "i")
	northwindDealRE      = jscompat.MustJSRegexp(`\#northwind-deal\b`, "i").Needs("#northwind-deal")
	confidenceBoostRE    = jscompat.MustJSRegexp(`\b(?:decided|chose|committed|deadline|released|merged)\b`, "i").Needs("decided", "chose", "committed", "deadline", "released", "merged")
	healthChecksRE       = jscompat.MustJSRegexp(`\bhealth checks?\b`, "i").Needs("health check")
	backupSignalRE       = jscompat.MustJSRegexp(`\b(?:rotated|logs?|backups?)\b`, "i").Needs("rotated", "log", "backup")
	restartSignalRE      = jscompat.MustJSRegexp(`\b(?:restarted|workers?|alerts?)\b`, "i").Needs("restarted", "worker", "alert")
	windowSignalRE       = jscompat.MustJSRegexp(`\bmaintenance window\b`, "i").Needs("maintenance window")
	startingSignalRE     = jscompat.MustJSRegexp(`\bstarting\b`, "i").Needs("starting")
	directoriesSignalRE  = jscompat.MustJSRegexp(`\bdirectories\b`, "i").Needs("directories")
	dependencySignalRE   = jscompat.MustJSRegexp(`\bdependency\b`, "i").Needs("dependency")
	reportedSignalRE     = jscompat.MustJSRegexp(`\breported\b`, "i").Needs("reported")
	thanksSignalRE       = jscompat.MustJSRegexp(`\bthanks\b`, "i").Needs("thanks")
	roundSignalRE        = jscompat.MustJSRegexp(`\bround\b`, "i").Needs("round")
	roleSeparatorRE      = jscompat.MustJSRegexp(`[\s_-]+`, "g")
)

// SanitizeMessage is sanitizeIncomingMessage: white space collapsed; a
// message from a system, developer, metadata or tool role (also behind a
// "[tag] ") dropped; base64 blobs stripped; JSON-shaped tool noise dropped.
// "" means the message is not worth observing.
func SanitizeMessage(message string) string {
	normalized := jscompat.CollapseJSSpace(message)
	if normalized == "" {
		return ""
	}
	sourceTag := ""
	payload := normalized
	if n := sourceTagLen(normalized); n > 0 {
		sourceTag = normalized[:n]
		payload = strings.TrimLeftFunc(normalized[n:], jscompat.IsJSSpace)
	}
	if role, rest, ok := splitRolePrefix(payload); ok && isConversationRole(role) {
		role = jscompat.JSToLower(jscompat.JSTrim(role))
		if dropRole(role) {
			return ""
		}
		content := stripNoisyData(rest)
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

// sourceTagLen is the length of /^\[[^\]]+\]\s+/ at the start of s, or 0.
// (Written out: the observer runs it on every message, and Go's regexp is
// slow on long ones.)
func sourceTagLen(s string) int {
	if len(s) < 4 || s[0] != '[' {
		return 0
	}
	end := strings.IndexByte(s, ']')
	if end < 2 {
		return 0
	}
	n := end + 1
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !jscompat.IsJSSpace(r) {
			break
		}
		n += size
	}
	if n == end+1 {
		return 0
	}
	return n
}

// splitRolePrefix is /^([a-z][a-z0-9_-]{1,31})\s*:\s*(.+)$/i written out,
// with JavaScript's backtracking: the role is a run of 2–32 such characters
// (a longer run matches nothing), the rest must be non-empty and hold no
// line terminator.
func splitRolePrefix(s string) (role, rest string, ok bool) {
	isRoleChar := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return "", "", false
	}
	n := 1
	for n < len(s) && isRoleChar(s[n]) {
		n++
	}
	if n < 2 || n > 32 {
		return "", "", false
	}
	j := skipJSSpace(s, n)
	if j >= len(s) || s[j] != ':' {
		return "", "", false
	}
	k := skipJSSpace(s, j+1)
	rest = s[k:]
	if rest == "" {
		if k == j+1 {
			return "", "", false
		}
		// \s* gives back its last character to (.+).
		_, size := utf8.DecodeLastRuneInString(s[:k])
		rest = s[k-size : k]
	}
	if strings.ContainsAny(rest, "\n\r\u2028\u2029") {
		return "", "", false
	}
	return s[:n], rest, true
}

func skipJSSpace(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !jscompat.IsJSSpace(r) {
			return i
		}
		i += size
	}
	return i
}

func isConversationRole(role string) bool {
	n := roleSeparatorRE.ReplaceAll(jscompat.JSToLower(jscompat.JSTrim(role)), "")
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
	return jscompat.CollapseJSSpace(v)
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
	t := jscompat.JSTrim(v)
	if t == "" {
		return true
	}
	if noisePrefixRE.MatchString(t) {
		return true
	}
	long := jscompat.UTF16Len(t) >= 40
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
	normalized := jscompat.JSTrim(markdownLinkRE.ReplaceAll(jscompat.CollapseJSSpace(message), "$1"))
	normalized = jscompat.SliceUTF16(normalized, 280)
	if normalized == "" {
		return nil
	}
	c := &candidate{date: r.formatDate(), time: r.formatTime()}
	if d := findISODate(message); d != "" {
		c.date = d
	}
	if hm := findClockTime(message); hm != "" {
		c.time = hm
	}
	line := r.stripLeadIn(c.time + " " + normalized)
	c.content = line
	t := jscompat.NewText(line)
	c.typ = model.InferObservationTypeText(t)

	switch c.typ {
	case "decision", "todo", "task", "commitment", "milestone":
		c.structural = true
	}
	critical := isCritical(t)
	c.structural = c.structural || critical
	c.maintenance = routineMaintenanceRE.MatchText(t)
	c.noIncident = noIncidentRE.MatchText(t)
	for _, s := range []struct {
		re   *jscompat.JSRegexp
		flag maintenanceFlags
	}{{healthChecksRE, flagHealth}, {backupSignalRE, flagBackup}, {restartSignalRE, flagRestart}, {windowSignalRE, flagWindow},
		{startingSignalRE, flagStarting}, {directoriesSignalRE, flagDirectory}, {dependencySignalRE, flagDependency},
		{reportedSignalRE, flagReported}, {thanksSignalRE, flagThanks}, {roundSignalRE, flagRound}} {
		if s.re.MatchText(t) {
			c.flags |= s.flag
		}
	}

	if r.dropLowSignal(line) {
		c.dropped = true
		return c
	}
	c.calibrated = r.calibrate(c, t, critical)
	c.key = c.calibrated.Date + "|" + c.calibrated.Type + "|" + model.NormalizeObservationContent(c.calibrated.Content)
	return c
}

// findISODate is the first match of /\b(\d{4}-\d{2}-\d{2})\b/, written out
// (it runs on every message): ten characters dddd-dd-dd between word
// boundaries (ASCII, as JavaScript's \b).
func findISODate(s string) string {
	for i := strings.IndexByte(s, '-'); i >= 0; {
		if a := i - 4; a >= 0 && i+6 <= len(s) && isDigits(s[a:i]) && isDigits(s[i+1:i+3]) && s[i+3] == '-' &&
			isDigits(s[i+4:i+6]) && (a == 0 || !isWordByte(s[a-1])) && (i+6 == len(s) || !isWordByte(s[i+6])) {
			return s[a : i+6]
		}
		j := strings.IndexByte(s[i+1:], '-')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return ""
}

// findClockTime is the first match of /\b([01]\d|2[0-3]):([0-5]\d)\b/ as
// "HH:MM", written out.
func findClockTime(s string) string {
	for i := strings.IndexByte(s, ':'); i >= 0; {
		if i >= 2 && i+3 <= len(s) {
			h1, h2, m1, m2 := s[i-2], s[i-1], s[i+1], s[i+2]
			hour := (h1 == '0' || h1 == '1') && isDigit(h2) || h1 == '2' && h2 >= '0' && h2 <= '3'
			if hour && m1 >= '0' && m1 <= '5' && isDigit(m2) &&
				(i == 2 || !isWordByte(s[i-3])) && (i+3 == len(s) || !isWordByte(s[i+3])) {
				return s[i-2 : i+3]
			}
		}
		j := strings.IndexByte(s[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
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
	rest := jscompat.JSTrim(m[2])
	if rest == "" {
		return content
	}
	return m[1] + rest
}

// dropLowSignal is shouldDropLowSignalCandidate.
func (r rules) dropLowSignal(content string) bool {
	without := jscompat.JSTrim(leadingTimeRE.ReplaceFirst(content, ""))
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
	if lowSignalOpeningRE.MatchString(without) && !isCritical(jscompat.NewText(without)) {
		return true
	}
	return finalizeRE.MatchString(without) && !deadlineSignalRE.MatchString(without)
}

var leadingTimeRE = jscompat.MustJSRegexp(`^\d{2}:\d{2}\s+`, "")

// calibrate is calibrateFallbackCandidate, benchmark-specific rewrites and
// all (see Fixes.NoInventedWords for the two this does not apply by default).
func (r rules) calibrate(c *candidate, t *jscompat.Text, critical bool) model.Observation {
	content, typ := c.content, c.typ
	if pricingRE.MatchString(content) {
		typ = "decision"
		content = pricingRewriteRE.ReplaceFirst(content, "$1Pricing agreement reached at ")
	}
	if searchTermsRE.MatchString(content) {
		typ = "fact"
		content = searchTermsRewriteRE.ReplaceFirst(content, "$1Preserve searchable terms ")
		content = untouchedEndRE.ReplaceFirst(content, "")
		content = jscompat.JSTrim(doubleSpaceRE.ReplaceAll(content, " "))
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
	if content != c.content {
		t = jscompat.NewText(content)
		critical = isCritical(t)
	}
	task := inferTaskType(t)
	importance := inferImportance(t, typ, critical, task)
	return model.Observation{
		Date:       c.date,
		Type:       typ,
		Importance: importance,
		Confidence: inferConfidence(t, typ, importance, task),
		Content:    content,
	}
}

// isCritical is isCriticalContent: ClawVault's criticalRE (see the tests),
// tested part by part, or a deadline with a date.
func isCritical(t *jscompat.Text) bool {
	for _, re := range criticalParts {
		if re.MatchText(t) {
			return true
		}
	}
	return deadlineWithDateRE.MatchText(t)
}

// inferTaskType is the compressor's inferTaskType.
func inferTaskType(t *jscompat.Text) string {
	switch {
	case unresolvedSignalRE.MatchText(t):
		return "commitment-unresolved"
	case todoSignalRE.MatchText(t):
		return "todo"
	case commitmentTaskSignal.MatchText(t) || deadlineSignalRE.MatchText(t):
		return "task"
	}
	return ""
}

// inferImportance is the compressor's importance bands: 0.9 critical,
// 0.72 unresolved, 0.65 tasks, 0.6 notable, 0.55 structural types, 0.45
// soft types, else 0.2.
// critical and task are isCritical(t) and inferTaskType(t), computed once.
func inferImportance(t *jscompat.Text, typ string, critical bool, task string) float64 {
	switch {
	case critical:
		return 0.9
	case task == "commitment-unresolved":
		return 0.72
	case task == "task" || task == "todo":
		return 0.65
	case notableRE.MatchText(t):
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

func inferConfidence(t *jscompat.Text, typ string, importance float64, task string) float64 {
	confidence := 0.72
	if importance >= 0.8 {
		confidence += 0.12
	}
	switch typ {
	case "decision", "commitment", "milestone":
		confidence += 0.06
	}
	if task != "" {
		confidence += 0.06
	}
	if confidenceBoostRE.MatchText(t) {
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

// memoLimit bounds the memo tables of a session: a session of millions of
// distinct messages is compressed without remembering each one.
const memoLimit = 1 << 17

// add takes one sanitized message.
func (s *rulesSession) add(message string) {
	c, ok := s.memo[message]
	if !ok {
		c = s.toCandidate(message)
		if len(s.memo) < memoLimit {
			s.memo[message] = c
		}
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
