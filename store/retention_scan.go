package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/jsonscan"
	"clawvault-tui/store/transcript"
)

// RetentionLines reads a transcript for the retain policy: every line with
// its byte span, and for entries their time, type and role; assistant
// replies are read far enough to tell a silent HEARTBEAT_OK or NO_REPLY
// from real text. The tree fields come from the line index (cached when
// cache is given, so the TUI reuses what it indexed); one sequential pass
// then reads the assistant lines.
func RetentionLines(ctx context.Context, fsys FS, path string, cache *transcript.Cache) ([]model.RetentionLine, int64, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	var ix *transcript.Index
	opt := transcript.Options{DeferValidation: true}
	if cache != nil {
		ix, err = cache.Open(ctx, path, opt)
	} else {
		ix, err = transcript.Build(ctx, path, f, fi.Size(), opt)
	}
	if err != nil {
		return nil, 0, err
	}
	size := ix.Size
	lines := make([]model.RetentionLine, 0, len(ix.Entries)+len(ix.Malformed)+1)
	entries := ix.Entries
	next := 0
	err = transcript.ForEachLine(f, 0, size, transcript.DefaultMaxLineBytes, func(l transcript.Line) bool {
		if len(lines)%4096 == 0 && ctx.Err() != nil {
			return false
		}
		span := l.Len
		if l.Terminated {
			span++
		}
		rl := model.RetentionLine{Offset: l.Offset, Span: span, TimeMs: model.NoTime, Kind: model.LineOther}
		for next < len(entries) && entries[next].Offset < l.Offset {
			next++
		}
		if next < len(entries) && entries[next].Offset == l.Offset && l.Terminated {
			e := entries[next]
			rl.TimeMs, rl.Type, rl.Role = e.TimeMs, e.Type, e.Role
			switch {
			case e.Type == model.TypeSession && l.Offset == 0:
				rl.Kind = model.LineHeader
			case e.Type == model.TypeSession:
				// A duplicate header (pi's flush quirk) stays where it is.
			default:
				rl.Kind = model.LineEntry
			}
			if e.Type == model.TypeMessage && e.Role == model.RoleAssistant {
				rl.Reply = model.ReplyText // a line over the cap is not read: it is kept as speech
				if !l.TooLong {
					rl.Reply = classifyReply(l.Bytes)
				}
			}
		}
		lines = append(lines, rl)
		return true
	})
	if err == nil {
		err = ctx.Err()
	}
	return lines, size, err
}

// Assistant replies as pi writes them when the whole text is one token.
var silentContent = [][]byte{
	[]byte(`"content":[{"type":"text","text":"HEARTBEAT_OK"}]`),
	[]byte(`"content":[{"type":"text","text":"NO_REPLY"}]`),
}

// classifyReply says whether an assistant message line says something, is
// a silent token, or has no text at all (tool calls, thinking, aborted).
// Only a line that holds a token is decoded: any other text block counts as
// speech (even an empty one, which only keeps a turn that might have gone).
func classifyReply(line []byte) model.ReplyKind {
	for _, s := range silentContent {
		if bytes.Contains(line, s) {
			return model.ReplySilent
		}
	}
	if !bytes.Contains(line, []byte(model.HeartbeatToken)) && !bytes.Contains(line, []byte(model.NoReplyToken)) &&
		!bytes.Contains(line, []byte(`\u`)) {
		if bytes.Contains(line, []byte(`"type":"text"`)) || bytes.Contains(line, []byte(`"content":"`)) {
			return model.ReplyText
		}
		if !bytes.Contains(line, []byte(`"text"`)) {
			return model.ReplyNone
		}
	}
	var text strings.Builder
	jsonscan.Object(line, 0, func(key, v []byte) bool {
		if !jsonscan.KeyIs(key, "message") {
			return true
		}
		jsonscan.Object(v, 0, func(key, v []byte) bool {
			if !jsonscan.KeyIs(key, "content") {
				return true
			}
			var blocks []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if len(v) > 0 && v[0] == '"' {
				text.WriteString(jsonscan.Unquote(v))
			} else if json.Unmarshal(v, &blocks) == nil {
				for _, b := range blocks {
					if b.Type == "text" {
						text.WriteString(b.Text)
					}
				}
			}
			return false
		})
		return false
	})
	switch t := text.String(); {
	case strings.TrimSpace(t) == "":
		return model.ReplyNone
	case model.IsSilentReply(t):
		return model.ReplySilent
	}
	return model.ReplyText
}

// ClawVault's ledger walk (src/lib/ledger.ts): year, month and day names
// must match these exactly; other files are not observations.
var (
	yearRE     = jscompat.LazyRegexp(`^\d{4}$`)
	monthRE    = jscompat.LazyRegexp(`^(0[1-9]|1[0-2])$`)
	dayFileRE  = jscompat.LazyRegexp(`^(0[1-9]|[12]\d|3[01])\.md$`)
	dateNameRE = jscompat.LazyRegexp(`^\d{4}-\d{2}-\d{2}$`)
)

// LedgerFiles lists the vault's observation day files in the three places
// ClawVault keeps them: ledger/observations/YYYY/MM/DD.md, the legacy
// observations/YYYY-MM-DD.md, and ledger/archive/observations/. Symlinked
// day files are skipped, as ClawVault's readdir(withFileTypes) skips them.
func LedgerFiles(fsys FS, vault string) ([]model.LedgerFile, error) {
	var out []model.LedgerFile
	for _, tree := range []struct {
		rel string
		loc model.LedgerLocation
	}{{"ledger/observations", model.LedgerMain}, {"ledger/archive/observations", model.LedgerArchive}} {
		files, err := walkDateTree(fsys, vault, tree.rel, tree.loc)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	legacy := filepath.Join(vault, "observations")
	entries, err := fsys.ReadDir(legacy)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot list %s: %w", legacy, err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".md") || !dateNameRE().MatchString(strings.TrimSuffix(name, ".md")) {
			continue
		}
		if lf, ok := ledgerFile(e, "observations/"+name, strings.TrimSuffix(name, ".md"), model.LedgerLegacy); ok {
			out = append(out, lf)
		}
	}
	return out, nil
}

func walkDateTree(fsys FS, vault, rel string, loc model.LedgerLocation) ([]model.LedgerFile, error) {
	var out []model.LedgerFile
	list := func(rel string) ([]fs.DirEntry, error) {
		entries, err := fsys.ReadDir(filepath.Join(vault, filepath.FromSlash(rel)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("cannot list %s: %w", filepath.Join(vault, rel), err)
		}
		return entries, nil
	}
	years, err := list(rel)
	if err != nil {
		return nil, err
	}
	for _, y := range years {
		if !y.IsDir() || !yearRE().MatchString(y.Name()) {
			continue
		}
		months, err := list(rel + "/" + y.Name())
		if err != nil {
			return nil, err
		}
		for _, m := range months {
			if !m.IsDir() || !monthRE().MatchString(m.Name()) {
				continue
			}
			days, err := list(rel + "/" + y.Name() + "/" + m.Name())
			if err != nil {
				return nil, err
			}
			for _, d := range days {
				if !d.Type().IsRegular() || !dayFileRE().MatchString(d.Name()) {
					continue
				}
				date := y.Name() + "-" + m.Name() + "-" + strings.TrimSuffix(d.Name(), ".md")
				if lf, ok := ledgerFile(d, rel+"/"+y.Name()+"/"+m.Name()+"/"+d.Name(), date, loc); ok {
					out = append(out, lf)
				}
			}
		}
	}
	return out, nil
}

func ledgerFile(e fs.DirEntry, rel, date string, loc model.LedgerLocation) (model.LedgerFile, bool) {
	fi, err := e.Info()
	if err != nil {
		return model.LedgerFile{}, false // vanished since the listing
	}
	id := fileid.Of(fi)
	return model.LedgerFile{Date: date, Rel: rel, Location: loc, Size: id.Size, ModTime: id.ModTime, Inode: id.Inode}, true
}
