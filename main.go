// Command clawvault-tui inspects and edits the memory of OpenClaw agents
// kept by ClawVault: sessions, transcript trees, observation cursors and
// thresholds, with a plain-language diagnosis of why a session was never
// observed. Without a command it opens the terminal UI.
package main

import (
	"os"

	"clawvault-tui/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
