package store

import (
	"fmt"
	"strconv"

	"clawvault-tui/model"
)

// RetentionConfig is the [retention] section of the config file: the
// policies of the three retention plans, with per-agent overrides in
// [retention.agents.<id>] (the shape of the `retain` processor's config in
// the session post-processing proposal). Every setting is optional.
//
//	[retention]
//	archive_dir = ""                 # default <state dir>/clawvault-tui-retention
//	[retention.transcripts]
//	max_age_days = 0                 # 0: off
//	max_size_mb = 0                  # 0: off
//	heartbeats = true
//	[retention.ledger]
//	older_than_days = 14
//	[retention.maintenance]          # what-if overrides of openclaw.json
//	max_disk_bytes = "2gb"
//	[retention.agents.sentinel.transcripts]
//	max_age_days = 3
type RetentionConfig struct {
	// ArchiveDir is where --apply moves what it takes out of the sessions
	// folders; "" means <state dir>/clawvault-tui-retention. Each apply
	// writes a dated folder in it, with a manifest.json for --undo.
	ArchiveDir  string                          `toml:"archive_dir"`
	Maintenance MaintenanceConfig               `toml:"maintenance"`
	Transcripts TranscriptRetentionConfig       `toml:"transcripts"`
	Ledger      LedgerRetentionConfig           `toml:"ledger"`
	Agents      map[string]RetentionAgentConfig `toml:"agents"`
}

// MaintenanceConfig overrides OpenClaw's session.maintenance settings (and
// cron.sessionRetention) for a plan, in OpenClaw's syntax: durations such
// as "30d", sizes such as "2gb", "false" to turn a retention off. They
// answer "what if"; without them a plan shows what OpenClaw itself does.
type MaintenanceConfig struct {
	Mode                  string `toml:"mode,omitempty"`
	PruneAfter            string `toml:"prune_after,omitempty"`
	MaxEntries            int    `toml:"max_entries,omitzero"`
	RotateBytes           string `toml:"rotate_bytes,omitempty"`
	ResetArchiveRetention string `toml:"reset_archive_retention,omitempty"`
	MaxDiskBytes          string `toml:"max_disk_bytes,omitempty"`
	HighWaterBytes        string `toml:"high_water_bytes,omitempty"`
	CronSessionRetention  string `toml:"cron_session_retention,omitempty"`
}

// TranscriptRetentionConfig is the retain policy over transcript entries.
// Fields left out inherit (agent → [retention.transcripts] → defaults).
type TranscriptRetentionConfig struct {
	// MaxAgeDays drops entries older than this many days; 0 turns it off.
	MaxAgeDays *int `toml:"max_age_days,omitempty"`
	// MaxSizeMB drops the oldest entries while a transcript is larger; 0 off.
	MaxSizeMB *float64 `toml:"max_size_mb,omitempty"`
	// Heartbeats drops turns answered only HEARTBEAT_OK or NO_REPLY.
	Heartbeats *bool `toml:"heartbeats,omitempty"`
}

// LedgerRetentionConfig is the ClawVault ledger archive policy.
type LedgerRetentionConfig struct {
	// OlderThanDays archives observation day files older than this (the
	// --older-than of `clawvault archive`).
	OlderThanDays *int `toml:"older_than_days,omitempty"`
}

// RetentionAgentConfig overrides the policies for one agent.
type RetentionAgentConfig struct {
	Maintenance MaintenanceConfig         `toml:"maintenance"`
	Transcripts TranscriptRetentionConfig `toml:"transcripts"`
}

// DefaultRetentionConfig is the retention section without a file.
func DefaultRetentionConfig() RetentionConfig {
	zero, off, on, days := 0, 0.0, true, model.DefaultArchiveDays
	return RetentionConfig{
		Transcripts: TranscriptRetentionConfig{MaxAgeDays: &zero, MaxSizeMB: &off, Heartbeats: &on},
		Ledger:      LedgerRetentionConfig{OlderThanDays: &days},
		Agents:      map[string]RetentionAgentConfig{},
	}
}

// Settings turns the overrides into a settings layer named source.
func (m MaintenanceConfig) Settings(source string) model.MaintenanceSettings {
	set := func(v string) model.Setting {
		if v == "" {
			return model.Setting{}
		}
		return model.Setting{Value: v, Source: source}
	}
	s := model.MaintenanceSettings{
		Mode: set(m.Mode), PruneAfter: set(m.PruneAfter), RotateBytes: set(m.RotateBytes),
		ResetArchiveRetention: set(m.ResetArchiveRetention), MaxDiskBytes: set(m.MaxDiskBytes),
		HighWaterBytes: set(m.HighWaterBytes), CronRetention: set(m.CronSessionRetention),
	}
	if m.MaxEntries != 0 {
		s.MaxEntries = set(strconv.Itoa(m.MaxEntries))
	}
	return s
}

// MaintenanceFor is the config's maintenance layer for an agent: the
// [retention.maintenance] overrides under the agent's own.
func (c RetentionConfig) MaintenanceFor(agent string) model.MaintenanceSettings {
	s := c.Maintenance.Settings("config [retention.maintenance]")
	if a, ok := c.Agents[agent]; ok {
		s = s.Overlay(a.Maintenance.Settings(fmt.Sprintf("config [retention.agents.%s.maintenance]", agent)))
	}
	return s
}

// TranscriptPolicyFor resolves an agent's transcript policy: the agent's
// settings over [retention.transcripts] over the defaults, then flags.
func (c RetentionConfig) TranscriptPolicyFor(agent string, flags TranscriptRetentionConfig) (model.TranscriptPolicy, error) {
	layers := []TranscriptRetentionConfig{DefaultRetentionConfig().Transcripts, c.Transcripts}
	if a, ok := c.Agents[agent]; ok {
		layers = append(layers, a.Transcripts)
	}
	layers = append(layers, flags)
	var pol model.TranscriptPolicy
	for _, l := range layers {
		if l.MaxAgeDays != nil {
			if *l.MaxAgeDays < 0 {
				return pol, fmt.Errorf("max_age_days must be 0 (off) or more, not %d", *l.MaxAgeDays)
			}
			pol.MaxAgeDays = *l.MaxAgeDays
		}
		if l.MaxSizeMB != nil {
			if *l.MaxSizeMB < 0 {
				return pol, fmt.Errorf("max_size_mb must be 0 (off) or more, not %g", *l.MaxSizeMB)
			}
			pol.MaxSizeBytes = int64(*l.MaxSizeMB * model.MiB)
		}
		if l.Heartbeats != nil {
			pol.Heartbeats = *l.Heartbeats
		}
	}
	return pol, nil
}

// LedgerDays resolves the archive age: the flag when positive, else the
// config, else ClawVault's 14 days.
func (c RetentionConfig) LedgerDays(flag int) (int, error) {
	days := model.DefaultArchiveDays
	if c.Ledger.OlderThanDays != nil {
		days = *c.Ledger.OlderThanDays
	}
	if flag != 0 {
		days = flag
	}
	if days <= 0 {
		return 0, fmt.Errorf("the ledger archive age must be at least 1 day, not %d", days)
	}
	return days, nil
}
