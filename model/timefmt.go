package model

import "time"

// ParseISOTime parses the timestamps OpenClaw and ClawVault write
// (Date.prototype.toISOString: 2026-03-14T22:43:45.027Z) into milliseconds
// since the epoch. It takes the common shape without allocating and falls
// back to RFC 3339 and a bare date, which Date.parse also reads as UTC.
func ParseISOTime(s string) (int64, bool) {
	if ms, ok := parseISOFast(s); ok {
		return ms, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

// parseISOFast handles YYYY-MM-DDTHH:MM:SS[.fff]Z.
func parseISOFast(s string) (int64, bool) {
	n := len(s)
	if n != 20 && n != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[n-1] != 'Z' {
		return 0, false
	}
	num := func(i, w int) (int, bool) {
		v := 0
		for j := i; j < i+w; j++ {
			c := s[j]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	milli := 0
	ok7 := true
	if n == 24 {
		if s[19] != '.' {
			return 0, false
		}
		milli, ok7 = num(20, 3)
	}
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	days := daysFromCivil(year, month, day)
	return ((days*24+int64(hour))*60+int64(minute))*60*1000 + int64(sec)*1000 + int64(milli), true
}

// daysFromCivil counts days since 1970-01-01 (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// FormatISOTime writes t as Date.prototype.toISOString does.
func FormatISOTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
