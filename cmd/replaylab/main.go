// Command replaylab records bot matches as compact replays, regenerates
// them with deterministic simulators, stores every turn in SQLite and (soon)
// serves a dashboard over them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitError carries a specific exit status out of a subcommand whose
// problems it has already reported (import with some bad files).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run is the whole program with its environment passed in, so tests call it
// like a user would.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(stderr, "replaylab:", err)
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "replaylab",
		Short:         "Record, regenerate, store and inspect bot-game replays",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newGamesCmd(),
		newRecordCmd(),
		newTournamentCmd(),
		newWorkerCmd(),
		newForkCmd(),
		newAskCmd(),
		newCriticalCmd(),
		newVerifyCmd(),
		newImportCmd(),
		newInspectCmd(),
		newViewCmd(),
		newExportCmd(),
		newDeleteCmd(),
		newServeCmd(),
	)
	return root
}
