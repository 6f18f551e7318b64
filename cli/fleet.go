package cli

import "github.com/spf13/cobra"

func (a *app) fleetCommand() *cobra.Command {
	return &cobra.Command{Use: "fleet", Hidden: true}
}
