package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The size and count formatters as they were written with fmt: the
// strconv versions must write the same text.
func bytesWithFmt(n int64) string {
	oneDecimal := func(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0") }
	switch {
	case n < KiB:
		return fmt.Sprintf("%d B", n)
	case n < MiB:
		return oneDecimal(float64(n)/KiB) + " KiB"
	case n < 1<<30:
		return oneDecimal(float64(n)/MiB) + " MiB"
	}
	return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
}

func countWithFmt(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func FuzzSizeFormats(f *testing.F) {
	for _, n := range []int64{0, 1, -1, 999, 1000, 1023, 1024, 1075, 10188, 1048524, 1048576, 1<<30 - 1, 1 << 30, 5 << 40, math.MaxInt64, math.MinInt64, -123456789} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		if got, want := Bytes(n), bytesWithFmt(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
		if got, want := Count(n), countWithFmt(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
		want := countWithFmt(n) + " bytes"
		if n >= KiB {
			want = fmt.Sprintf("%s bytes (%s)", countWithFmt(n), bytesWithFmt(n))
		}
		if got := BytesExact(n); got != want {
			t.Errorf("BytesExact(%d) = %q, want %q", n, got, want)
		}
	})
}

func TestPlural(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 sessions"}, {1, "1 session"}, {2, "2 sessions"}, {1204, "1,204 sessions"}, {-1, "-1 sessions"}} {
		if got := Plural(c.n, "session", "sessions"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Plural(1, "entry", "entries"); got != "1 entry" {
		t.Errorf("Plural(1, entry) = %q", got)
	}
}
