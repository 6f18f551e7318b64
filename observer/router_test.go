package observer

import (
	"testing"
)

// The indexed duplicate check returns what ClawVault's linear one returns:
// the first item, in list order, that matches.
func FuzzFindDuplicate(f *testing.F) {
	f.Add("send the SOC2 questionnaire to Elena|Send the soc2 questionnaire to Elena by Friday|draft release notes|send the SOC2 questionnaire to elena", "send the SOC2 questionnaire to Elena by friday")
	f.Add("a b c d e|a b c d e f|x", "a b c d e f")
	f.Fuzz(func(t *testing.T, titles, title string) {
		var items []workItem
		for _, tt := range splitBar(titles) {
			items = append(items, workItem{title: tt})
		}
		got := newKnownItems(items).findDuplicate(title)
		want := -1
		if n := normalizeTaskTitle(title); n != "" {
			for i, it := range items {
				e := normalizeTaskTitle(it.title)
				if e != "" && (e == n || jaccardSets(wordSet(n), wordSet(e)) > 0.8) {
					want = i
					break
				}
			}
		}
		switch {
		case want < 0 && got != nil:
			t.Fatalf("found %q, the linear scan finds nothing", got.title)
		case want >= 0 && (got == nil || got.title != items[want].title):
			t.Fatalf("found %v, the linear scan finds %q", got, items[want].title)
		}
	})
}

func splitBar(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
