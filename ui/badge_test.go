package ui

import (
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/themes"
)

// The badge comes from the diagnosis codes alone: every code alone gives
// the badge of its severity, so no row shows ✓ beside a code that needs a
// look (missing-file, scan-only were the ones that did).
func TestBadgeForEveryCode(t *testing.T) {
	t.Parallel()
	want := map[model.DiagnosisCode]string{
		model.CodeMissingFile:          "▲",
		model.CodeSQLiteStore:          "!",
		model.CodeCursorFileCorrupt:    "!",
		model.CodeCursorInvalid:        "▲",
		model.CodeNotDiscovered:        "!",
		model.CodeResetArchive:         "!",
		model.CodeScanOnly:             "▲",
		model.CodeCheckpointCopy:       "▲",
		model.CodeNoCursor:             "○",
		model.CodeCursorPastEOF:        "▲",
		model.CodeStale:                "▲",
		model.CodeCandidate:            "●",
		model.CodeOverdue:              "!",
		model.CodeBelowThreshold:       "✓",
		model.CodePartialTail:          "◌",
		model.CodeNoMessages:           "▲",
		model.CodeFlushSkipped:         "▲",
		model.CodeCursorFileUnreadable: "!",
		model.CodeOutsideStateDir:      "▲",
		model.CodeSQLiteGeneration:     "◌",
		model.CodeMemoryIndexStale:     "▲",
		model.CodeImportVerified:       "✓",
		model.CodeImportIncomplete:     "!",
		model.CodeImportDiffers:        "▲",
		model.CodeNotImported:          "!",
		model.CodeCursorNotCarried:     "▲",
		model.CodeSQLiteSession:        "✓",
		model.CodeFlushFailed:          "▲",
		model.CodeMemoryReindexOrphans: "▲",
	}
	th := themes.Plain()
	for _, code := range model.DiagnosisCodes {
		w, ok := want[code]
		if !ok {
			t.Errorf("%s: no badge expected in this table; add it", code)
			continue
		}
		if got, _ := rowBadge(th, model.SessionRow{Diagnosis: []model.Diagnosis{{Code: code}}}); got != w {
			t.Errorf("%s (severity %d): badge %s, want %s", code, code.Severity(), got, w)
		}
	}
	// Together, the worst wins; among severity 1, what comes next.
	for _, tt := range []struct {
		codes []model.DiagnosisCode
		want  string
	}{
		{nil, "✓"},
		{[]model.DiagnosisCode{model.CodeNoCursor, model.CodeCandidate}, "●"},
		{[]model.DiagnosisCode{model.CodeNoCursor, model.CodeCandidate, model.CodeOverdue}, "!"},
		{[]model.DiagnosisCode{model.CodeStale, model.CodeCandidate}, "▲"},
		{[]model.DiagnosisCode{model.CodeNoCursor, model.CodeBelowThreshold, model.CodePartialTail}, "○"},
		{[]model.DiagnosisCode{model.CodeBelowThreshold, model.CodeFlushSkipped}, "▲"},
	} {
		var r model.SessionRow
		for _, c := range tt.codes {
			r.Diagnosis = append(r.Diagnosis, model.Diagnosis{Code: c})
		}
		if got, _ := rowBadge(th, r); got != tt.want {
			t.Errorf("%v: badge %s, want %s", tt.codes, got, tt.want)
		}
	}
}

// On the demo, a row needs attention in the header's count exactly when
// its badge says so.
func TestBadgesAgreeWithTheHeader(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	for _, r := range a.snap.Rows {
		b := badgeFor(r.Diagnosis)
		if (severity(r) >= 2) != (b >= badgeLook) {
			t.Errorf("%s: severity %d, badge %d", displayKey(r), severity(r), b)
		}
	}
}
