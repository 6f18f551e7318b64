package model

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// OpenClaw writes its maintenance settings as strings such as "30d" and
// "2gb" (bare numbers take a default unit). These parsers follow
// src/cli/parse-duration.ts and src/cli/parse-bytes.ts of OpenClaw
// 2026.4.12 exactly, so that a value OpenClaw accepts means the same here
// and a value it rejects is rejected here too.

// durationUnits are parse-duration's multipliers, in milliseconds.
var durationUnits = map[string]int64{"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}

// byteUnits are parse-bytes's multipliers: binary, with short forms.
var byteUnits = map[string]int64{
	"b": 1, "kb": 1 << 10, "k": 1 << 10, "mb": 1 << 20, "m": 1 << 20,
	"gb": 1 << 30, "g": 1 << 30, "tb": 1 << 40, "t": 1 << 40,
}

// ParseDurationMs parses "30d", "24h", "1h30m", "90" (in defaultUnit) into
// milliseconds, as OpenClaw's parseDurationMs does: case-insensitive, units
// ms/s/m/h/d, fractions allowed, parts concatenated without spaces.
func ParseDurationMs(raw, defaultUnit string) (int64, error) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if s == "" {
		return 0, errors.New("empty duration")
	}
	// One number with an optional unit: "30d", "90".
	if num, rest, ok := leadingNumber(s); ok && (rest == "" || durationUnits[rest] != 0) {
		return scaled(num, rest, defaultUnit, durationUnits, raw, "duration")
	}
	// A sum of parts: "1h30m", "2d12h".
	var total float64
	for s != "" {
		num, rest, ok := leadingNumber(s)
		if !ok {
			return 0, fmt.Errorf("invalid duration %q", raw)
		}
		unit := ""
		for _, u := range []string{"ms", "s", "m", "h", "d"} { // the regex's alternation order
			if strings.HasPrefix(rest, u) {
				unit = u
				break
			}
		}
		if unit == "" {
			return 0, fmt.Errorf("invalid duration %q", raw)
		}
		total += num * float64(durationUnits[unit])
		s = rest[len(unit):]
	}
	return roundProduct(total, 1, raw, "duration")
}

// ParseByteSize parses "2gb", "1.5mb", "500kb", "1048576" (in defaultUnit)
// into bytes, as OpenClaw's parseByteSize does (binary multiples).
func ParseByteSize(raw, defaultUnit string) (int64, error) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if s == "" {
		return 0, errors.New("empty size")
	}
	num, rest, ok := leadingNumber(s)
	if !ok || !isLowerLetters(rest) {
		return 0, fmt.Errorf("invalid size %q", raw)
	}
	return scaled(num, rest, defaultUnit, byteUnits, raw, "size")
}

// scaled is num times its unit's multiplier (defaultUnit's when no unit is
// written), rounded as Math.round does.
func scaled(num float64, unit, defaultUnit string, units map[string]int64, raw, what string) (int64, error) {
	if unit == "" {
		unit = defaultUnit
	}
	mult := units[unit]
	if mult == 0 {
		return 0, fmt.Errorf("invalid %s unit in %q", what, raw)
	}
	return roundProduct(num, mult, raw, what)
}

// leadingNumber splits s into a leading \d+(\.\d+)? and the rest.
func leadingNumber(s string) (num float64, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, s, false
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, s, false
	}
	return f, s[i:], true
}

func isLowerLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// roundProduct is Math.round(value * mult), refusing what int64 cannot hold.
func roundProduct(value float64, mult int64, raw, what string) (int64, error) {
	v := math.Floor(value*float64(mult) + 0.5)
	if math.IsNaN(v) || v >= math.MaxInt64 {
		return 0, fmt.Errorf("%s %q is too large", what, raw)
	}
	return int64(v), nil
}

// A Setting is one raw retention setting and where it came from.
type Setting struct {
	// Value is as written ("30d", "2gb", "500", "false"); "" means unset.
	Value string `json:"value"`
	// Source names where the value came from: "default", "openclaw.json",
	// the config file, or a flag.
	Source string `json:"source"`
}

// MaintenanceSettings are OpenClaw's session maintenance settings
// (session.maintenance in openclaw.json) and cron.sessionRetention, as raw
// layers that override one another: OpenClaw's defaults, then
// openclaw.json, then clawvault-tui's config file, then flags.
type MaintenanceSettings struct {
	Mode                  Setting `json:"mode"`
	PruneAfter            Setting `json:"pruneAfter"`
	MaxEntries            Setting `json:"maxEntries"`
	RotateBytes           Setting `json:"rotateBytes"`
	ResetArchiveRetention Setting `json:"resetArchiveRetention"`
	MaxDiskBytes          Setting `json:"maxDiskBytes"`
	HighWaterBytes        Setting `json:"highWaterBytes"`
	CronRetention         Setting `json:"cronSessionRetention"`
}

func (s *MaintenanceSettings) fields() []*Setting {
	return []*Setting{&s.Mode, &s.PruneAfter, &s.MaxEntries, &s.RotateBytes, &s.ResetArchiveRetention,
		&s.MaxDiskBytes, &s.HighWaterBytes, &s.CronRetention}
}

// Overlay returns s with every setting that top sets replaced by top's.
func (s MaintenanceSettings) Overlay(top MaintenanceSettings) MaintenanceSettings {
	out := s
	dst, src := out.fields(), top.fields()
	for i := range dst {
		if src[i].Value != "" {
			*dst[i] = *src[i]
		}
	}
	return out
}

// Maintenance defaults of OpenClaw 2026.4.12 (store-maintenance.ts and
// cron/session-reaper.ts).
const (
	DefaultPruneAfterMs    = 30 * 24 * 3600 * 1000
	DefaultMaxEntries      = 500
	DefaultRotateBytes     = 10 * MiB
	DefaultCronRetentionMs = 24 * 3600 * 1000
	// highWaterRatio is the default highWaterBytes, as a share of maxDiskBytes.
	highWaterRatio = 0.8
)

// MaintenancePolicy is what maintenance does, resolved from settings.
type MaintenancePolicy struct {
	Mode         string
	PruneAfterMs int64
	MaxEntries   int
	RotateBytes  int64
	// ResetArchiveRetentionMs applies when ResetArchives is true
	// (resetArchiveRetention: false turns reset-archive cleanup off).
	ResetArchiveRetentionMs int64
	ResetArchives           bool
	// DiskBudget is true when maxDiskBytes is set.
	DiskBudget     bool
	MaxDiskBytes   int64
	HighWaterBytes int64
	// CronRetentionMs applies when CronReaper is true (sessionRetention: false).
	CronRetentionMs int64
	CronReaper      bool
	// Settings are the raw values with their sources, for the report.
	Settings MaintenanceSettings
}

// ResolveMaintenance turns layered settings into a policy. OpenClaw's
// config validation rejects a value it cannot parse (the gateway refuses
// to start), so an invalid value here is an error that names it and its
// source, not a silent default.
func ResolveMaintenance(s MaintenanceSettings) (MaintenancePolicy, error) {
	p := MaintenancePolicy{
		Mode: "warn", PruneAfterMs: DefaultPruneAfterMs, MaxEntries: DefaultMaxEntries, RotateBytes: DefaultRotateBytes,
		CronRetentionMs: DefaultCronRetentionMs, CronReaper: true, ResetArchives: true, Settings: s,
	}
	bad := func(name string, set Setting, want string) error {
		return fmt.Errorf("%s: %s %q is not %s", set.Source, name, set.Value, want)
	}
	var err error
	if v := s.Mode.Value; v != "" {
		if v != "warn" && v != "enforce" {
			return p, bad("mode", s.Mode, "warn or enforce")
		}
		p.Mode = v
	}
	if v := s.PruneAfter.Value; v != "" {
		if p.PruneAfterMs, err = ParseDurationMs(v, "d"); err != nil {
			return p, bad("pruneAfter", s.PruneAfter, "a duration (use ms, s, m, h, d; a bare number is days)")
		}
	}
	if v := s.MaxEntries.Value; v != "" {
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n <= 0 {
			return p, bad("maxEntries", s.MaxEntries, "a positive whole number")
		}
		p.MaxEntries = n
	}
	if v := s.RotateBytes.Value; v != "" {
		if p.RotateBytes, err = ParseByteSize(v, "b"); err != nil {
			return p, bad("rotateBytes", s.RotateBytes, "a size (use b, kb, mb, gb, tb)")
		}
	}
	p.ResetArchiveRetentionMs = p.PruneAfterMs
	switch v := s.ResetArchiveRetention.Value; v {
	case "":
	case "false":
		p.ResetArchives = false
	default:
		if p.ResetArchiveRetentionMs, err = ParseDurationMs(v, "d"); err != nil {
			return p, bad("resetArchiveRetention", s.ResetArchiveRetention, "a duration (use ms, s, m, h, d) or false")
		}
	}
	if v := s.MaxDiskBytes.Value; v != "" {
		if p.MaxDiskBytes, err = ParseByteSize(v, "b"); err != nil {
			return p, bad("maxDiskBytes", s.MaxDiskBytes, "a size (use b, kb, mb, gb, tb)")
		}
		p.DiskBudget = true
	}
	if v := s.HighWaterBytes.Value; v != "" {
		hw, err := ParseByteSize(v, "b")
		if err != nil {
			return p, bad("highWaterBytes", s.HighWaterBytes, "a size (use b, kb, mb, gb, tb)")
		}
		p.HighWaterBytes = min(hw, p.MaxDiskBytes)
	} else if p.DiskBudget {
		p.HighWaterBytes = DefaultHighWaterBytes(p.MaxDiskBytes)
	}
	switch v := s.CronRetention.Value; v {
	case "":
	case "false":
		p.CronReaper = false
	default:
		if p.CronRetentionMs, err = ParseDurationMs(v, "h"); err != nil {
			return p, bad("cron.sessionRetention", s.CronRetention, "a duration (use ms, s, m, h, d; a bare number is hours) or false")
		}
	}
	return p, nil
}

// DefaultHighWaterBytes is 80% of maxDiskBytes, at least 1 byte and at most
// the maximum (0 when the maximum is 0).
func DefaultHighWaterBytes(maxDisk int64) int64 {
	if maxDisk <= 0 {
		return 0
	}
	return max(1, min(maxDisk, int64(math.Floor(float64(maxDisk)*highWaterRatio))))
}

// DefaultMaintenanceSettings are OpenClaw's defaults as a settings layer,
// so that a report can name "default" as the source.
func DefaultMaintenanceSettings() MaintenanceSettings {
	d := func(v string) Setting { return Setting{Value: v, Source: "default"} }
	return MaintenanceSettings{
		Mode: d("warn"), PruneAfter: d("30d"), MaxEntries: d("500"), RotateBytes: d("10mb"),
		CronRetention: d("24h"),
	}
}

// FormatDurationMs writes milliseconds the way the settings are usually
// written: 30d, 24h, 90m, 45s, 1500ms.
func FormatDurationMs(ms int64) string {
	for _, u := range []struct {
		name string
		ms   int64
	}{{"d", 86_400_000}, {"h", 3_600_000}, {"m", 60_000}, {"s", 1000}} {
		if ms != 0 && ms%u.ms == 0 {
			return strconv.FormatInt(ms/u.ms, 10) + u.name
		}
	}
	return strconv.FormatInt(ms, 10) + "ms"
}
