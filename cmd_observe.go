package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

func cmdObserve(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("observe", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	dryRun := fs.Bool("dry-run", false, "list what the next sweep would observe, as ClawVault prints it")
	minNew := fs.Int64("min-new", 0, "minimum new bytes, overriding the scaled threshold")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *minNew < 0 {
		return exitError{2, errors.New("--min-new must be a positive number of bytes")}
	}
	if !*dryRun {
		return exitError{2, errors.New("observation sweeps are not built yet: run `clawvault-tui observe --dry-run` to see what a sweep would take")}
	}
	ws, err := common.workspace()
	if err != nil {
		return err
	}
	if err := store.CheckVault(ws.Vault); err != nil {
		return err
	}
	snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{MinNewBytes: *minNew})
	if err != nil {
		return err
	}
	// Like ClawVault, one agent: --agent, else $OPENCLAW_AGENT_ID, else main.
	agents := []string{ws.ObserverAgent}
	if common.locate.AllAgents {
		agents = agents[:0]
		for _, a := range ws.Agents {
			agents = append(agents, a.ID)
		}
	}
	var selections []observer.Selection
	for _, id := range agents {
		selections = append(selections, observer.Select(snap, id, *minNew))
	}
	if common.json {
		doc := observeDoc{DryRun: true, Candidates: []observer.Candidate{}, Observed: []any{}, Errors: []string{}}
		for _, s := range selections {
			doc.Checked += s.Checked
			doc.Candidates = append(doc.Candidates, s.Candidates...)
			doc.NewBytes += s.NewBytes()
		}
		return writeJSON(stdout, doc)
	}
	for i, s := range selections {
		if len(selections) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "Agent: %s\n", s.Agent)
		}
		if err := observer.WriteDryRun(stdout, s); err != nil {
			return err
		}
	}
	return nil
}

type observeDoc struct {
	DryRun     bool                 `json:"dryRun"`
	Checked    int                  `json:"checked"`
	Candidates []observer.Candidate `json:"candidates"`
	Observed   []any                `json:"observed"`
	Errors     []string             `json:"errors"`
	NewBytes   int64                `json:"newBytes"`
}
