package jscompat

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

// ParseISOTimeBytes is ParseISOTime's fast path on bytes: only the
// canonical YYYY-MM-DDTHH:MM:SS[.fff]Z shape, without allocating.
func ParseISOTimeBytes(b []byte) (int64, bool) {
	return parseISOFast(b)
}

// parseISOFast handles YYYY-MM-DDTHH:MM:SS[.fff]Z.
func parseISOFast[T string | []byte](s T) (int64, bool) {
	n := len(s)
	if n != 20 && n != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[n-1] != 'Z' {
		return 0, false
	}
	var bad byte
	digit := func(i int) int {
		d := s[i] - '0'
		bad |= d & 0xf0 // any byte outside '0'-'9' sets a high bit (or wraps)
		if d > 9 {
			bad = 0xff
		}
		return int(d)
	}
	year := digit(0)*1000 + digit(1)*100 + digit(2)*10 + digit(3)
	month := digit(5)*10 + digit(6)
	day := digit(8)*10 + digit(9)
	hour := digit(11)*10 + digit(12)
	minute := digit(14)*10 + digit(15)
	sec := digit(17)*10 + digit(18)
	milli := 0
	if n == 24 {
		if s[19] != '.' {
			return 0, false
		}
		milli = digit(20)*100 + digit(21)*10 + digit(22)
	}
	if bad != 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
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
	return t.UTC().Format(ISOTimeLayout)
}

// ISOTimeLayout is FormatISOTime's layout, for appending.
const ISOTimeLayout = "2006-01-02T15:04:05.000Z"

// ISODayCache parses canonical timestamps (YYYY-MM-DDTHH:MM:SS.sssZ) that
// mostly share their date with the one before, as a transcript's do: the
// day count is computed once per date.
type ISODayCache struct {
	date [10]byte
	days int64
	set  bool
}

// Parse reads a 24-byte canonical timestamp; other shapes give false.
func (c *ISODayCache) Parse(b []byte) (int64, bool) {
	if len(b) != 24 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[19] != '.' || b[23] != 'Z' {
		return 0, false
	}
	if !c.set || string(b[:10]) != string(c.date[:]) {
		ms, ok := parseISOFast(b)
		if !ok {
			return 0, false
		}
		copy(c.date[:], b[:10])
		c.days = ms / (24 * 3600 * 1000)
		if ms < 0 && ms%(24*3600*1000) != 0 {
			c.days--
		}
		c.set = true
		return ms, true
	}
	var bad byte
	d := func(i int) int64 {
		v := b[i] - '0'
		if v > 9 {
			bad = 1
		}
		return int64(v)
	}
	hour, minute, sec := d(11)*10+d(12), d(14)*10+d(15), d(17)*10+d(18)
	milli := d(20)*100 + d(21)*10 + d(22)
	if bad != 0 || hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	return ((c.days*24+hour)*60+minute)*60*1000 + sec*1000 + milli, true
}
