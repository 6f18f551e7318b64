package main

import (
	"flag"
	"fmt"
	"io"

	"clawvault-tui/store"
)

// cmdConfig prints the config file's path and the defaults, ready to be
// saved there and edited.
func cmdConfig(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	path := fs.Bool("path", false, "print only where the config file is read from")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	where := store.ConfigPath(store.OSEnv())
	if *path {
		_, err := fmt.Fprintln(stdout, where)
		return err
	}
	data, err := store.EncodeConfig(store.DefaultConfig())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# clawvault-tui settings: save as %s and edit.\n# Every setting is optional; these are the defaults.\n\n", where)
	_, err = stdout.Write(data)
	return err
}
