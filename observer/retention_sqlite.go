package observer

import (
	"context"
	"path/filepath"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/transcript"
)

// planSQLite plans the SQLite era's part (model.SQLitePlan) for every agent
// that has a store: its verified leftover JSONL and the reindex temp
// databases OpenClaw would remove. Nil when no agent has a store.
func planSQLite(ctx context.Context, opt RetentionOptions) *model.SQLitePlan {
	var p *model.SQLitePlan
	maxLine := opt.MaxLineBytes
	if maxLine <= 0 {
		maxLine = transcript.DefaultMaxLineBytes
	}
	for _, a := range opt.Workspace.Agents {
		if a.SQLitePath == "" || ctx.Err() != nil {
			continue
		}
		if p == nil {
			p = &model.SQLitePlan{}
		}
		opt.Progress.Report(Progress{Stage: "sqlite", Unit: "agents", Item: a.ID})
		files, problems := store.SQLiteRetentionFiles(ctx, opt.FS, a, opt.Workspace.Vault, opt.CacheDir, maxLine, opt.Now)
		p.Files = append(p.Files, files...)
		p.Problems = append(p.Problems, problems...)
	}
	return p
}

// sqliteMoves are the manifest's moves of the plan's SQLite-era files, to
// <dir>/<agent>/sqlite/<name>, each planned again now (under the vault's
// lock): a file that is no longer verified, or a temp database a reindex
// holds again (or that is not a day old any more), stays where it is; the
// rest of the apply goes on. want gets each file's identity.
func sqliteMoves(ctx context.Context, plan *model.RetentionPlan, opt ApplyOptions, dir string, want map[string]fileid.ID) []model.ManifestMove {
	if plan.SQLite == nil || len(plan.SQLite.Files) == 0 || opt.Workspace == nil {
		return nil
	}
	fresh := map[string]model.SQLiteFile{}
	for _, a := range opt.Workspace.Agents {
		files, _ := store.SQLiteRetentionFiles(ctx, store.OS, a, opt.Workspace.Vault, opt.CacheDir, transcript.DefaultMaxLineBytes, opt.Now)
		for _, f := range files {
			fresh[f.Path] = f
		}
	}
	var out []model.ManifestMove
	for _, f := range plan.SQLite.Files {
		now, ok := fresh[f.Path]
		if !ok || now.Size != f.Size || !now.ModTime.Equal(f.ModTime) || now.Inode != f.Inode {
			continue
		}
		out = append(out, model.ManifestMove{Plan: "sqlite", Step: f.Step, Agent: f.Agent, Key: f.Key, From: f.Path,
			To: filepath.Join(dir, f.Agent, "sqlite", filepath.Base(f.Path)), Size: f.Size, ModTime: f.ModTime.UTC().Format(time.RFC3339Nano), Inode: f.Inode})
		want[f.Path] = fileid.ID{Size: f.Size, ModTime: f.ModTime, Inode: f.Inode}
	}
	return out
}
