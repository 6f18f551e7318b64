package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"clawvault-tui/store"
	"clawvault-tui/store/vaultfs"
)

func (a *app) promoteCommand() *cobra.Command {
	var section string
	var create bool
	c := &cobra.Command{
		Use:   "promote --section TITLE TEXT...",
		Short: "Add a line to a section of an agent's MEMORY.md, once",
		Long: `Adds TEXT as a bullet at the end of a section of the agent's MEMORY.md (the
agent of --agent, else $OPENCLAW_AGENT_ID, else main), the way p does on the
Vault and Search screens. TEXT may be an observation line or a line of a note:
its markup is stripped to the sentence ([type|c=…|i=…] or the emoji, the time,
the source tag, the role, the brackets of [[links]]).

It is idempotent: when MEMORY.md already has a line that says the same (the
same words, ignoring case, spaces, emphasis and end punctuation), nothing is
written and the line where it is is reported. The write is atomic and loses
no other program's change: one made while it is written (an agent appending,
an editor saving) is merged with it, and where both changed the same lines
theirs stays and nothing is promoted. The previous version is kept in the
backups folder
($XDG_DATA_HOME/clawvault-tui/backups). A section that does not exist is an
error that lists the sections, unless --create adds it at the end (and makes
MEMORY.md when there is none). An argument that is not one of the flags below
is part of TEXT; after -- every argument is.`,
		Example: `clawvault-tui promote --section Decisions "We use PostgreSQL for billing."
clawvault-tui promote --agent work --section Lessons --create \
  "- [lesson|c=0.80|i=0.80] 18:53 [cron] user: Long-running cron jobs need a timeout."`,
		// An observation line starts with "- ", which is no flag: flags
		// are told apart from the text before parsing (see parseWords).
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error {
			words, help, err := a.parseWords(c, args)
			if err != nil || help {
				return err
			}
			return a.promote(section, create, strings.Join(words, " "))
		},
	}
	c.Flags().StringVar(&section, "section", "", "the title of the MEMORY.md section (a heading, any level, any case)")
	c.Flags().BoolVar(&create, "create", false, "add the section at the end of MEMORY.md when it has none")
	return c
}

func (a *app) promote(section string, create bool, text string) error {
	switch {
	case strings.TrimSpace(section) == "":
		return usageError(`promote needs --section, as in: clawvault-tui promote --section Decisions "We use PostgreSQL."`)
	case strings.TrimSpace(text) == "":
		return usageError(`promote needs the text to add, as in: clawvault-tui promote --section Decisions "We use PostgreSQL."`)
	case a.common.locate.AllAgents:
		return usageError("promote writes one agent's MEMORY.md: give --agent ID, not --all-agents")
	}
	ws, err := a.common.workspace()
	if err != nil {
		return err
	}
	space := vaultfs.New(ws, vaultfs.Options{BackupDir: vaultfs.DefaultBackupDir(store.OSEnv()), Writer: a.writer()})
	res, err := space.Promote(ws.ObserverAgent, section, text, create)
	if err != nil {
		var outside *store.OutsideError
		if errors.As(err, &outside) {
			return fmt.Errorf("%s's MEMORY.md is not a file clawvault-tui edits: %w", ws.ObserverAgent, err)
		}
		return err
	}
	if a.common.json {
		return writeJSON(a.stdout, res)
	}
	name := ws.ObserverAgent + "'s " + filepath.Base(res.File)
	switch {
	case !res.Added:
		_, err = fmt.Fprintf(a.stdout, "already in %s at line %d (§ %s): nothing added\n%s\n", name, res.Line, res.Section, res.File)
	case res.SectionCreated:
		_, err = fmt.Fprintf(a.stdout, "added to %s, line %d, in a new section %q\n%s\n", name, res.Line, res.Section, res.File)
	default:
		_, err = fmt.Fprintf(a.stdout, "added to %s § %s, line %d\n%s\n", name, res.Section, res.Line, res.File)
	}
	return err
}
