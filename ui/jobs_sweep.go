package ui

import (
	"fmt"

	"clawvault-tui/model"
	"clawvault-tui/observer"
)

// SweepResult shows a sweep's report on the Jobs screen, as `observe`
// prints it; the lines about a session link to it.
type SweepResult struct {
	Report *observer.SweepReport
	lines  []observer.ReportLine
}

// NewSweepResult wraps a sweep report for the Jobs screen.
func NewSweepResult(r *observer.SweepReport) *SweepResult {
	return &SweepResult{Report: r, lines: r.TextLines()}
}

func (r *SweepResult) Summary() string {
	rep := r.Report
	if late := rep.LateCancelSummary(); late != "" {
		return late // the report's first line has the figures
	}
	s := fmt.Sprintf("observed %s: %s from %s", model.Plural(len(rep.Observed), "session", "sessions"),
		model.Plural(rep.Observations, "observation", "observations"), model.Bytes(rep.BytesRead))
	// The sessions of a commit a cancel abandoned wait for the next
	// sweep, as the skipped ones do.
	if failed := len(rep.Failed) - rep.Abandoned; failed > 0 {
		s += fmt.Sprintf(", %d failed", failed)
	}
	if left := len(rep.Skipped) + rep.Abandoned; left > 0 {
		s += fmt.Sprintf(", %d left for the next sweep", left)
	}
	return s
}

// Finished: a cancel came too late to stop the sweep (it was
// committing), so every session it observed was recorded.
func (r *SweepResult) Finished() bool {
	return r != nil && r.Report != nil && r.Report.CancelledWhileCommitting()
}

func (r *SweepResult) Lines(int) []string {
	out := make([]string, len(r.lines))
	for i, l := range r.lines {
		out[i] = l.Text
	}
	return out
}

func (r *SweepResult) Link(line int) (string, bool) {
	if line < 0 || line >= len(r.lines) || r.lines[line].SessionKey == "" {
		return "", false
	}
	return r.lines[line].SessionKey, true
}
