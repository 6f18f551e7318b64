package model

import "testing"

func TestRowProblemsSentence(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		problems map[string]string
		want     string
	}{
		{"one", map[string]string{"agent:main:main": "updatedAt is not a number"},
			"1 row has a field of the wrong type, skipped (the rest of the row is read): agent:main:main: updatedAt is not a number"},
		{"sorted by key", map[string]string{"b": "label is not a string", "a": "updatedAt is not a number"},
			"2 rows have a field of the wrong type, skipped (the rest of each row is read): a: updatedAt is not a number; b: label is not a string"},
		{"the first three, then a count", map[string]string{"k1": "x", "k2": "y", "k3": "z", "k4": "w", "k5": "v"},
			"5 rows have a field of the wrong type, skipped (the rest of each row is read): k1: x; k2: y; k3: z; and 2 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RowProblemsSentence(tc.problems); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
