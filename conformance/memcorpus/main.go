// Command memcorpus writes the memory corpus of make conformance
// (store/memsearch/memsearchtest) into a state dir and lists its queries,
// one JSON object a line. Not part of the clawvault-tui binary.
//
// Usage: memcorpus STATE_DIR > queries.jsonl
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"clawvault-tui/store/memsearch/memsearchtest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: memcorpus STATE_DIR")
		os.Exit(2)
	}
	if err := memsearchtest.WriteState(os.Args[1], memsearchtest.BaseURL); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, q := range memsearchtest.Queries {
		enc.Encode(q)
	}
}
