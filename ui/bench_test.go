package ui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// BenchmarkKeyPress is the TUI budget of docs/ARCHITECTURE.md: Update and View for
// a key press, with 10,000 sessions listed and a 300 MB transcript open
// (BENCH_SCALE=100), stay under 16 ms. Commands the key starts (previews,
// rendering) run off the event loop and are not part of the budget.
func BenchmarkKeyPress(b *testing.B) {
	ws, m := benchWorkspace(b)
	a := New(Options{Workspace: ws, Theme: "dark", Now: func() time.Time { return demotest.BenchClock }})
	a.c.Tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	drive(b, a, a.startScan())
	a.sessions.Select(m.Heartbeat.Key)
	opened := time.Now()
	drive(b, a, func() tea.Msg { return keyMsg("enter") })
	if a.transcript.ix == nil {
		b.Fatalf("the transcript did not open: %v", a.transcript.loadErr)
	}
	openMs := float64(time.Since(opened).Milliseconds())

	keys := map[string][]string{
		"transcript": {"up", "pgdown", "u", "[", "down", "}", "U", "]"},
		"sessions":   {"down", "pgdown", "s", "up", "a"},
	}
	for screenName, seq := range keys {
		b.Run(screenName, func(b *testing.B) {
			if screenName == "sessions" {
				a.switchTo(screenSessions)
			} else {
				a.switchTo(screenTranscript)
			}
			msgs := make([]tea.KeyPressMsg, len(seq))
			for i, k := range seq {
				msgs[i] = keyMsg(k)
			}
			var took []time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				a.Update(msgs[i%len(msgs)])
				_ = a.View()
				took = append(took, time.Since(start))
				i++
			}
			slices.Sort(took)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
			b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
			b.ReportMetric(ms(took[len(took)-1]), "max-ms")
			b.ReportMetric(float64(len(a.sessions.rows)), "sessions")
			b.ReportMetric(float64(len(a.transcript.ix.Entries)), "entries")
			b.ReportMetric(openMs, "open+validate-ms")
		})
	}

}

// benchWorkspace is the demo at BENCH_SCALE, located.
func benchWorkspace(b *testing.B) (*store.Workspace, *demo.Manifest) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	ws, err := store.Locate(store.OSEnv(), store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	return ws, m
}
