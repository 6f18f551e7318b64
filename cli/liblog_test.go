package cli

import (
	"bytes"
	"io"
	"log"
	"testing"
)

// The libraries' log lines (bleve's index engine writes to the standard
// logger) reach stderr only when CLAWVAULT_TUI_DEBUG asks for them.
func TestLibraryLogsAreQuietUnlessAsked(t *testing.T) {
	for _, debug := range []string{"", "1"} {
		t.Setenv(debugEnv, debug)
		var stderr bytes.Buffer
		restore := quietLibraryLogs(&stderr)
		log.Printf("unable to load snapshot, continuing")
		quiet := log.Writer() == io.Discard
		restore()
		if got := stderr.String(); (debug == "") != (got == "") || (debug == "") != quiet {
			t.Errorf("%s=%q: stderr %q", debugEnv, debug, got)
		}
	}
	if _, errOut, code := runCLI(t, "--version"); code != 0 || log.Writer() == io.Discard {
		t.Errorf("the logger is not put back after a command (exit %d, %q)", code, errOut)
	}
}
