package observer

import "clawvault-tui/jscompat"

// ClawVault's expressions, as written, where the observer runs written-out
// code instead (Go's regexp is slow on them): the fuzz targets compare each
// with its replacement.
var (
	rolePrefixRE   = jscompat.MustJSRegexp(`^([a-z][a-z0-9_-]{1,31})\s*:\s*(.+)$`, "i") // splitRolePrefix
	isoDateRE      = jscompat.MustJSRegexp(`\b(\d{4}-\d{2}-\d{2})\b`, "")               // findISODate
	clockTimeRE    = jscompat.MustJSRegexp(`\b([01]\d|2[0-3]):([0-5]\d)\b`, "")         // findClockTime
	titleNonWordRE = jscompat.MustJSRegexp(`[^\w\s]`, "g")                              // normalizeTaskTitle
	// criticalRE is isCriticalContent's expression, which isCritical runs
	// part by part (criticalParts), each part with its own words.
	criticalRE = jscompat.MustJSRegexp(`(?:\b(?:decision|decided|chose|chosen|selected|picked|opted|switched to)\s*:?|\bdecid(?:e|ed|ing|ion)\b|\berror\b|\bfail(?:ed|ure|ing)?\b|\bblock(?:ed|er)?\b|\bbreaking(?:\s+change)?s?\b|\bcritical\b|\b\w+\s+chosen\s+(?:for|over|as)\b|\bpublish(?:ed)?\b.*@?\d+\.\d+|\bmerge[d]?\s+(?:PR|pull\s+request)\b|\bshipped\b|\breleased?\b.*v?\d+\.\d+|\bsigned\b.*\b(?:contract|agreement|deal)\b|\bpricing\b.*\$|\bdemo\b.*\b(?:completed?|done|finished)\b|\bmeeting\b.*\b(?:completed?|done|finished)\b|\bstrategy\b.*\b(?:pivot|change|shift)\b)`, "i")
)
