package model

import (
	"strings"
	"testing"
)

func TestParseDurationMs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw, unit string
		want      int64
		err       bool
	}{
		{"30d", "d", 30 * 86_400_000, false},
		{"30", "d", 30 * 86_400_000, false},
		{"24", "h", 24 * 3_600_000, false},
		{" 1.5H ", "d", 5_400_000, false},
		{"1h30m", "d", 5_400_000, false},
		{"2d12h", "ms", 216_000_000, false},
		{"1m5s", "ms", 65_000, false},
		{"250ms", "d", 250, false},
		{"0", "d", 0, false},
		{"0.0004s", "d", 0, false}, // Math.round(0.4)
		{"0.0005s", "d", 1, false}, // Math.round(0.5)
		{"", "d", 0, true},
		{"3x", "d", 0, true},
		{"d", "d", 0, true},
		{"-1d", "d", 0, true},
		{"1h 30m", "d", 0, true},
		{"1.d", "d", 0, true},
		{"1h30", "d", 0, true},
		{"99999999999999999999d", "d", 0, true},
	} {
		got, err := ParseDurationMs(tc.raw, tc.unit)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseDurationMs(%q, %q) = %d, %v; want %d, error %v", tc.raw, tc.unit, got, err, tc.want, tc.err)
		}
	}
}

func TestParseByteSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw  string
		want int64
		err  bool
	}{
		{"2gb", 2 << 30, false},
		{"2GB", 2 << 30, false},
		{"1.6gb", 1717986918, false}, // Math.round(1717986918.4)
		{"10mb", 10 << 20, false},
		{"500kb", 500 << 10, false},
		{"512k", 512 << 10, false},
		{"1t", 1 << 40, false},
		{"1048576", 1 << 20, false},
		{"0", 0, false},
		{"80%", 0, true},
		{"2 gb", 0, true},
		{"2pb", 0, true},
		{"gb", 0, true},
		{"", 0, true},
		{"-1mb", 0, true},
	} {
		got, err := ParseByteSize(tc.raw, "b")
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d, error %v", tc.raw, got, err, tc.want, tc.err)
		}
	}
}

func TestResolveMaintenance(t *testing.T) {
	t.Parallel()
	set := func(v string) Setting { return Setting{Value: v, Source: "openclaw.json"} }
	for _, tc := range []struct {
		name  string
		in    MaintenanceSettings
		check func(p MaintenancePolicy) bool
		err   string
	}{
		{"defaults", MaintenanceSettings{}, func(p MaintenancePolicy) bool {
			return p.Mode == "warn" && p.PruneAfterMs == DefaultPruneAfterMs && p.MaxEntries == 500 && !p.DiskBudget &&
				p.ResetArchives && p.ResetArchiveRetentionMs == p.PruneAfterMs && p.CronReaper && p.CronRetentionMs == DefaultCronRetentionMs
		}, ""},
		{"reset retention follows pruneAfter", MaintenanceSettings{PruneAfter: set("7d")}, func(p MaintenancePolicy) bool {
			return p.ResetArchiveRetentionMs == 7*86_400_000
		}, ""},
		{"reset retention off", MaintenanceSettings{ResetArchiveRetention: set("false")}, func(p MaintenancePolicy) bool {
			return !p.ResetArchives
		}, ""},
		{"high water defaults to 80%", MaintenanceSettings{MaxDiskBytes: set("1000")}, func(p MaintenancePolicy) bool {
			return p.DiskBudget && p.MaxDiskBytes == 1000 && p.HighWaterBytes == 800
		}, ""},
		{"high water above the max is the max", MaintenanceSettings{MaxDiskBytes: set("1kb"), HighWaterBytes: set("2kb")}, func(p MaintenancePolicy) bool {
			return p.HighWaterBytes == 1024
		}, ""},
		{"high water without a max is ignored", MaintenanceSettings{HighWaterBytes: set("2kb")}, func(p MaintenancePolicy) bool {
			return !p.DiskBudget
		}, ""},
		{"tiny max keeps 1 byte of high water", MaintenanceSettings{MaxDiskBytes: set("1")}, func(p MaintenancePolicy) bool {
			return p.HighWaterBytes == 1
		}, ""},
		{"cron retention in hours", MaintenanceSettings{CronRetention: set("48")}, func(p MaintenancePolicy) bool {
			return p.CronRetentionMs == 48*3_600_000
		}, ""},
		{"cron reaper off", MaintenanceSettings{CronRetention: set("false")}, func(p MaintenancePolicy) bool { return !p.CronReaper }, ""},
		{"bad mode", MaintenanceSettings{Mode: set("delete")}, nil, `openclaw.json: mode "delete" is not warn or enforce`},
		{"percent high water", MaintenanceSettings{MaxDiskBytes: set("2gb"), HighWaterBytes: set("80%")}, nil, `highWaterBytes "80%" is not a size`},
		{"bad pruneAfter", MaintenanceSettings{PruneAfter: set("a month")}, nil, `pruneAfter "a month" is not a duration`},
		{"zero entries", MaintenanceSettings{MaxEntries: set("0")}, nil, `maxEntries "0" is not a positive whole number`},
	} {
		p, err := ResolveMaintenance(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !tc.check(p) {
			t.Errorf("%s: %+v, %v", tc.name, p, err)
		}
	}
}

func TestSettingsOverlay(t *testing.T) {
	t.Parallel()
	base := DefaultMaintenanceSettings()
	file := MaintenanceSettings{PruneAfter: Setting{"14d", "openclaw.json"}, MaxDiskBytes: Setting{"2gb", "openclaw.json"}}
	flags := MaintenanceSettings{PruneAfter: Setting{"7d", "--prune-after"}}
	got := base.Overlay(file).Overlay(flags)
	if got.PruneAfter != (Setting{"7d", "--prune-after"}) || got.MaxDiskBytes.Source != "openclaw.json" || got.Mode.Source != "default" {
		t.Errorf("overlay = %+v", got)
	}
}

func TestFormatDurationMs(t *testing.T) {
	t.Parallel()
	for ms, want := range map[int64]string{86_400_000 * 30: "30d", 3_600_000 * 36: "36h", 90_000: "90s", 1500: "1500ms", 0: "0ms"} {
		if got := FormatDurationMs(ms); got != want {
			t.Errorf("FormatDurationMs(%d) = %q, want %q", ms, got, want)
		}
	}
}

// FuzzParseSettings: the parsers never panic, never return a negative
// value, and agree with each other on bare numbers.
func FuzzParseSettings(f *testing.F) {
	for _, s := range []string{"30d", "1h30m", "1.6gb", "80%", "", "1.", "9999999999999999999999t", "0.5ms", "2d12h5m1s1ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if ms, err := ParseDurationMs(raw, "d"); err == nil && ms < 0 {
			t.Fatalf("ParseDurationMs(%q) = %d", raw, ms)
		}
		if b, err := ParseByteSize(raw, "b"); err == nil && b < 0 {
			t.Fatalf("ParseByteSize(%q) = %d", raw, b)
		}
		_, _ = ResolveMaintenance(MaintenanceSettings{PruneAfter: Setting{Value: raw}, MaxDiskBytes: Setting{Value: raw}, HighWaterBytes: Setting{Value: raw}})
	})
}
