package cli

import (
	"io"
	"log"
	"os"
)

// debugEnv, when set to anything, lets the libraries' log lines through to
// stderr.
const debugEnv = "CLAWVAULT_TUI_DEBUG"

// quietLibraryLogs sends the standard logger, which libraries write to
// (bleve's index engine logs a snapshot it cannot load, a file it cannot
// remove), nowhere, unless CLAWVAULT_TUI_DEBUG asks for them on stderr:
// they are not sentences a user can act on, and in the TUI they would
// draw over the screen. It returns the function that puts the logger
// back.
func quietLibraryLogs(stderr io.Writer) (restore func()) {
	was, flags := log.Writer(), log.Flags()
	if os.Getenv(debugEnv) != "" {
		log.SetOutput(stderr)
	} else {
		log.SetOutput(io.Discard)
	}
	return func() {
		log.SetOutput(was)
		log.SetFlags(flags)
	}
}
