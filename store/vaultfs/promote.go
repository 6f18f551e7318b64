package vaultfs

import (
	"errors"
	"fmt"
	"path/filepath"

	"clawvault-tui/model"
)

// Promoted is what a promote did, as `promote --json` prints it.
type Promoted struct {
	File    string `json:"file"`
	Section string `json:"section"`
	// Line is the 1-based line of the item in the file: where it was
	// added, or where it already was.
	Line  int    `json:"line"`
	Added bool   `json:"added"`
	Text  string `json:"text"`
	// SectionCreated says the section was made for it.
	SectionCreated bool `json:"sectionCreated"`
	// Backup is where the file's previous version was kept.
	Backup string `json:"backup,omitempty"`
}

// Promote adds text, cleaned to a sentence (model.CleanLine), to a section
// of an agent's MEMORY.md, unless the file already holds it
// (model.InsertItem). A missing section (or file) is an error unless
// create is set. The write is Save's, atomic, with the previous version
// kept; a change another program makes meanwhile is kept too, merged
// with ours (store.Replace).
func (s *Space) Promote(agent, section, text string, create bool) (Promoted, error) {
	path, err := s.MemoryFile(agent)
	if err != nil {
		return Promoted{}, err
	}
	pl, doc, err := s.openForWrite(path)
	if err != nil {
		return Promoted{}, err
	}
	if !doc.Version.Exists() && !create {
		return Promoted{}, fmt.Errorf("%s does not exist yet; promote with the option to create the section makes it", path)
	}
	ins, err := insertInto(path, doc.Data, section, text, create)
	if err != nil {
		return Promoted{}, err
	}
	out := Promoted{File: path, Section: ins.Section, Line: ins.Line, Added: ins.Added, Text: model.CleanLine(text), SectionCreated: ins.Created}
	if !ins.Added {
		return out, nil
	}
	if doc.Version.Exists() {
		if out.Backup, err = s.backup(pl.Real, doc.Data, ""); err != nil {
			return Promoted{}, fmt.Errorf("cannot keep the previous version, so nothing was promoted: %w", err)
		}
	}
	res, err := s.replace(pl, doc, []byte(ins.Text))
	switch {
	case err != nil:
		return Promoted{}, err
	case res.Gone:
		return Promoted{}, fmt.Errorf("%s was deleted while the line was promoted: nothing was written", path)
	case res.HeldOpen:
		return Promoted{}, fmt.Errorf("%s is open for writing in another program, which went on writing it: nothing was promoted; try again", path)
	case res.Clash:
		return Promoted{}, fmt.Errorf("%s changed where the line goes while it was promoted: nothing was promoted; try again", path)
	}
	if res.Merged { // another writer's lines came in too: where is ours now?
		if at, err := model.InsertItem(string(res.Final), section, text, create); err == nil && !at.Added {
			out.Line = at.Line
		}
	}
	return out, nil
}

// insertInto is model.InsertItem with the file named in a missing
// section's error.
func insertInto(path string, data []byte, section, text string, create bool) (model.Insertion, error) {
	ins, err := model.InsertItem(string(data), section, text, create)
	var nse *model.NoSectionError
	if errors.As(err, &nse) {
		return ins, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return ins, err
}

// ReadLine returns the 1-based line n of a memory file, without its ending.
func (s *Space) ReadLine(p string, n int) (string, error) {
	d, err := s.Read(p)
	if err != nil {
		return "", err
	}
	line, ok := model.LineAt(string(d.Data), n)
	if !ok {
		return "", fmt.Errorf("%s has no line %d (it has changed since it was read?)", p, n)
	}
	return line, nil
}
