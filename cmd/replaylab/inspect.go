package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

func newInspectCmd() *cobra.Command {
	var turn int
	cmd := &cobra.Command{
		Use:   "inspect FILE [--turn N]",
		Short: "Print the board and state of a replay at one turn",
		Long: `Regenerate a replay up to turn N and print the board in the original game's
symbols, each player's command that turn, the per-player (and per-unit)
numbers and the turn's events. Turn 0 is the initial state; the default is
the last turn.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return inspect(cmd.Context(), cmd.OutOrStdout(), args[0], turn)
		},
	}
	cmd.Flags().IntVar(&turn, "turn", -1, "turn to show (0 = initial state, default the last)")
	return cmd
}

var errStop = errors.New("stop")

func inspect(ctx context.Context, w io.Writer, path string, turn int) error {
	l, err := readReplay(path)
	if err != nil {
		return err
	}
	if turn < 0 {
		turn = len(l.Turns)
	}
	if turn > len(l.Turns) {
		return fmt.Errorf("turn %d is past the end: the replay has turns 0 to %d", turn, len(l.Turns))
	}
	g, err := games.Lookup(l.Header.Game)
	if err != nil {
		return err
	}
	_, err = replay.Run(ctx, l, func(tv *replay.TurnView) error {
		if tv.Turn < turn {
			return nil
		}
		printTurn(w, g, l, tv)
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	return nil
}

func printTurn(w io.Writer, g *sim.Game, l *replay.Log, tv *replay.TurnView) {
	h := l.Header
	rules := fmt.Sprintf("rules r%d", h.RulesRevision())
	if now := g.Revision(h.Ruleset); now != h.RulesRevision() {
		rules += fmt.Sprintf(", replayed under r%d", now)
	}
	fmt.Fprintf(w, "%s/%s (%s) seed %d, turn %d of %d\n", h.Game, h.Ruleset, rules, h.Seed, tv.Turn, len(l.Turns))
	if tv.Turn > 0 {
		for s, c := range tv.Commands {
			fmt.Fprintf(w, "%-7s %-12s command %q\n", sim.SeatName(s), h.Players[s].Name, c)
		}
	}
	if r, ok := tv.Match.(sim.Renderer); ok {
		fmt.Fprintln(w)
		fmt.Fprintln(w, strings.TrimRight(r.Render(), "\n"))
		fmt.Fprintln(w)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "SEAT\tUNIT\tALIVE")
	for _, m := range g.Metrics {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(m.Name))
	}
	fmt.Fprintln(tw)
	for _, s := range tv.Match.AppendStats(nil) {
		unit := "-"
		if s.Unit != sim.NoUnit {
			unit = fmt.Sprint(g.Units.Number(s.Seat, s.Unit))
		}
		fmt.Fprintf(tw, "%d\t%s\t%v", sim.SeatNumber(s.Seat), unit, s.Alive)
		for _, v := range s.Values {
			fmt.Fprintf(tw, "\t%g", v)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(tv.Events) > 0 {
		fmt.Fprintln(w, "\nevents:")
		for _, e := range tv.Events {
			who := "game"
			if e.Seat >= 0 {
				who = sim.SeatName(e.Seat)
				if e.Unit != sim.NoUnit {
					who += " " + g.Units.Name(e.Seat, e.Unit)
				}
			}
			fmt.Fprintf(w, "  %-15s %-10s", who, e.Kind)
			if e.Amount != 0 {
				fmt.Fprintf(w, " amount %g", e.Amount)
			}
			if e.Detail != "" {
				fmt.Fprintf(w, " %s", e.Detail)
			}
			fmt.Fprintln(w)
		}
	}
	if tv.Match.Over() {
		fmt.Fprintf(w, "\nresult: %s\n", describeResult(tv.Match.Result(), h.Players))
	}
}
