package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/sim/games"
)

func newGamesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games, their rulesets, player counts and built-in bots",
		Long: `List the games, their rulesets (the first is the default), player counts
and built-in bots. A ruleset past its first rules revision shows the
revision this build plays, as in "final (r2)".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "GAME\tTITLE\tRULESETS (first = default)\tPLAYERS\tBOTS")
			for _, g := range games.All() {
				players := fmt.Sprint(g.MinPlayers)
				if g.MaxPlayers != g.MinPlayers {
					players = fmt.Sprintf("%d-%d (default %d)", g.MinPlayers, g.MaxPlayers, g.DefaultPlayers)
				}
				bots := make([]string, len(g.Bots))
				for i, b := range g.Bots {
					bots[i] = "builtin:" + b.Name
				}
				rulesets := make([]string, len(g.Rulesets))
				for i, rs := range g.Rulesets {
					rulesets[i] = rs
					if rev := g.Revision(rs); rev > 1 {
						rulesets[i] += fmt.Sprintf(" (r%d)", rev)
					}
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", g.Name, g.Title, strings.Join(rulesets, ", "), players, strings.Join(bots, ", "))
			}
			return w.Flush()
		},
	}
}
