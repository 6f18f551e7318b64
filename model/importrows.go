package model

import "path/filepath"

// importRows indexes an agent's import checks by file, and makes a status
// row for each transcript in the importer's archive folder (those in the
// sessions folder are rows already).
func importRows(snap AgentSnapshot) (map[string]*ImportCheck, []SessionRow) {
	if len(snap.Imports) == 0 {
		return nil, nil
	}
	by := make(map[string]*ImportCheck, len(snap.Imports))
	var rows []SessionRow
	for i := range snap.Imports {
		ch := &snap.Imports[i]
		by[ch.File] = ch
		if !ch.Archived {
			continue
		}
		key := ch.Key
		if key == "" {
			key = "agent:" + snap.AgentID + ":unknown:" + ch.SessionID
		}
		rows = append(rows, SessionRow{Agent: snap.AgentID, Key: key, SessionID: ch.SessionID, File: ch.File,
			Name: FileName{Kind: FilePrimary, SessionID: ch.SessionID}, Origin: OriginImportArchive, Exists: true,
			Size: ch.Size, ModTime: ch.ModTime, CursorID: ch.SessionID, Label: SourceLabel(key), Import: ch})
	}
	return by, rows
}

// applyImport gives a transcript of the sessions folder what comparing it
// with the store found: the session key the store gives it, and no sweep
// of its bytes when the store holds every entry (the store's session is
// observed instead).
func (p *StatusPlan) applyImport(row *SessionRow) {
	ch := p.imports[row.File]
	if ch == nil {
		return
	}
	row.Import = ch
	if row.Key == "" && ch.Key != "" {
		row.Key = ch.Key
	}
	if ch.Verdict == CodeImportVerified && ch.Err == "" {
		row.Candidate, row.Selection.Candidate = false, false
	}
}

// diagnoseImport is the diagnosis of a JSONL transcript compared with the
// agent's store; done says nothing else is to be said of it (every entry
// is in the store, or it is in the importer's archive folder, which no
// sweep reads).
func diagnoseImport(out []Diagnosis, row *SessionRow, snap AgentSnapshot) (_ []Diagnosis, done bool) {
	if row.Import == nil {
		return out, row.Origin == OriginImportArchive
	}
	name := filepath.Base(snap.SQLitePath)
	if name == "." || name == "" {
		name = "the agent's store"
	}
	out = append(out, row.Import.Diagnosis(name))
	return out, row.Origin == OriginImportArchive || row.Import.Verdict == CodeImportVerified && row.Import.Err == ""
}
