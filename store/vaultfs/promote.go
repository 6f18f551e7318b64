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

// promoteAttempts is how often a promote re-reads MEMORY.md when it
// changed between the read and the write (an agent writing it that very
// moment): the insertion is redone on the new text each time.
const promoteAttempts = 3

// Promote adds text, cleaned to a sentence (model.CleanLine), to a section
// of an agent's MEMORY.md, unless the file already holds it
// (model.InsertItem). A missing section (or file) is an error unless
// create is set. The write is Save's: atomic, conflict-checked, the
// previous version kept.
func (s *Space) Promote(agent, section, text string, create bool) (Promoted, error) {
	path, err := s.MemoryFile(agent)
	if err != nil {
		return Promoted{}, err
	}
	for attempt := 1; ; attempt++ {
		doc, err := s.Read(path)
		if err != nil {
			return Promoted{}, err
		}
		if !doc.Version.Exists() && !create {
			return Promoted{}, fmt.Errorf("%s does not exist yet; promote with the option to create the section makes it", path)
		}
		ins, err := model.InsertItem(string(doc.Data), section, text, create)
		if err != nil {
			var nse *model.NoSectionError
			if errors.As(err, &nse) {
				return Promoted{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
			}
			return Promoted{}, err
		}
		out := Promoted{File: path, Section: ins.Section, Line: ins.Line, Added: ins.Added, Text: model.CleanLine(text), SectionCreated: ins.Created}
		if !ins.Added {
			return out, nil
		}
		saved, err := s.save(path, []byte(ins.Text), doc.Version, false)
		if errors.Is(err, ErrConflict) && attempt < promoteAttempts {
			continue
		}
		if err != nil {
			return Promoted{}, err
		}
		out.Backup = saved.Backup
		return out, nil
	}
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
