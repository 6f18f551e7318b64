package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkKeyPress is the TUI budget of DESIGN.md §7: Update and View for
// one key press with 10,000 sessions listed stay under 16 ms.
func BenchmarkKeyPress(b *testing.B) {
	a := newTestApp(b, 10000)
	keys := []tea.KeyPressMsg{{Code: tea.KeyDown}, {Code: tea.KeyPgDown}, {Code: tea.KeyUp}}
	i := 0
	for b.Loop() {
		a.Update(keys[i%len(keys)])
		_ = a.View()
		i++
	}
}
