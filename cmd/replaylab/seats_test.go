package main

import (
	"encoding/csv"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim/games"
)

// Every person-facing output calls the first seat "Seat 1" (see the
// "Seats" in docs/cli.md): zeroSeat finds a seat, player or team numbered from
// 0, lowerSeat a seat not named as sim.SeatName names it, seatName every
// seat named.
var (
	zeroSeat  = regexp.MustCompile(`(?i)\b(seat|player|team)\s+#?0\b`)
	lowerSeat = regexp.MustCompile(`\bseat\s+#?\d`)
	seatName  = regexp.MustCompile(`\bSeat (\d+)\b`)
	wormName  = regexp.MustCompile(`\bworm (\d+)\b`)
)

// TestOutputsNumberSeatsFromOne records a match of every game with its
// built-in bots and reads what record, verify, inspect, import, export
// (CSV) and tournament print: no seat is numbered from 0, every seat
// named is one of the match's (1 to N), the outputs that list every seat
// list 1 to N, and Worms' worms are the engine's 11 to 13 and 21 to 23.
func TestOutputsNumberSeatsFromOne(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "seats.db")
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			seats := g.DefaultPlayers
			rpl := filepath.Join(dir, g.Name+".rpl")
			// The first built-in bot is the simplest (often random), so
			// it sends invalid commands and makes seat-naming events.
			code, _, recorded := cli(t, "record", "--game", g.Name, "--seed", "5", "--bot", "builtin:"+g.Bots[0].Name, "-o", rpl)
			if code != 0 {
				t.Fatalf("record: exit %d: %s", code, recorded)
			}
			l, err := readReplay(rpl)
			if err != nil {
				t.Fatal(err)
			}
			verified := mustCLI(t, "verify", rpl)
			outputs := map[string]string{"record": recorded, "verify": verified}
			n := len(l.Turns)
			for _, turn := range []int{0, 1, n / 3, n / 2, n} {
				outputs[fmt.Sprintf("inspect --turn %d", turn)] = mustCLI(t, "inspect", rpl, "--turn", strconv.Itoa(turn))
			}
			outputs["import"] = mustCLI(t, "import", "--db", db, rpl)
			id := regexp.MustCompile(`id ([0-9a-f]{12})`).FindStringSubmatch(verified)[1]
			outputs["export"] = mustCLI(t, "export", "--db", db, "--match", id, "--format", "csv")

			for name, out := range outputs {
				checkSeatMentions(t, name, out, seats)
			}
			all := seatRange(seats)
			if got := namedSeats(verified); !slices.Equal(got, all) {
				t.Errorf("verify names seats %v, want every seat %v:\n%s", got, all, verified)
			}
			if got := inspectSeats(outputs[fmt.Sprintf("inspect --turn %d", n)]); !slices.Equal(got, all) {
				t.Errorf("inspect's table has seats %v, want %v", got, all)
			}
			csvSeats, units := exportedSeats(t, outputs["export"])
			if !slices.Equal(csvSeats, all) {
				t.Errorf("the CSV's seat column holds %v, want %v", csvSeats, all)
			}
			if g.Name == "worms" {
				want := []int{11, 12, 13, 21, 22, 23}
				if !slices.Equal(units, want) {
					t.Errorf("the CSV's worms are %v, want the engine's %v", units, want)
				}
				for name, out := range outputs {
					for _, m := range wormName.FindAllStringSubmatch(out, -1) {
						if w, _ := strconv.Atoi(m[1]); !slices.Contains(want, w) {
							t.Errorf("%s names %q, want a worm of %v", name, m[0], want)
						}
					}
				}
			}
		})
	}
	t.Run("tournament", func(t *testing.T) {
		out := mustCLI(t, "tournament", "--db", filepath.Join(dir, "t.db"), "--game", "worms", "--seeds", "1", "--workers", "1",
			"--bot", "builtin:random", "--bot", "builtin:tactical")
		checkSeatMentions(t, "tournament", out, 2)
	})
}

// checkSeatMentions reports every mention in out of a seat numbered from
// 0, named in another form than "Seat N", or outside 1 to seats.
func checkSeatMentions(t *testing.T, name, out string, seats int) {
	t.Helper()
	for _, m := range zeroSeat.FindAllString(out, -1) {
		t.Errorf("%s numbers a seat from 0: %q in\n%s", name, m, out)
	}
	for _, m := range lowerSeat.FindAllString(out, -1) {
		t.Errorf("%s names a seat %q, want \"Seat N\" in\n%s", name, m, out)
	}
	for _, n := range namedSeats(out) {
		if n < 1 || n > seats {
			t.Errorf("%s names Seat %d, want 1 to %d in\n%s", name, n, seats, out)
		}
	}
}

// namedSeats returns the numbers of the seats out names, sorted, once each.
func namedSeats(out string) []int {
	var seats []int
	for _, m := range seatName.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		seats = append(seats, n)
	}
	slices.Sort(seats)
	return slices.Compact(seats)
}

// inspectSeats returns the seats of inspect's table of numbers, sorted,
// once each.
func inspectSeats(out string) []int {
	var seats []int
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "SEAT"):
			in = true
		case line == "":
			in = false
		case in:
			n, _ := strconv.Atoi(strings.Fields(line)[0])
			seats = append(seats, n)
		}
	}
	slices.Sort(seats)
	return slices.Compact(seats)
}

// exportedSeats returns the values of the seat and unit columns of an
// exported CSV, sorted, once each; a player's own rows have no unit.
func exportedSeats(t *testing.T, out string) (seats, units []int) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 2 || !slices.Equal(rows[0][1:3], []string{"seat", "unit"}) {
		t.Fatalf("export: %v, %d rows, header %v", err, len(rows), rows[0])
	}
	for _, r := range rows[1:] {
		s, err := strconv.Atoi(r[1])
		if err != nil {
			t.Fatalf("export: seat %q: %v", r[1], err)
		}
		seats = append(seats, s)
		if r[2] != "" {
			u, err := strconv.Atoi(r[2])
			if err != nil {
				t.Fatalf("export: unit %q: %v", r[2], err)
			}
			units = append(units, u)
		}
	}
	slices.Sort(seats)
	slices.Sort(units)
	return slices.Compact(seats), slices.Compact(units)
}

// seatRange is 1 to n.
func seatRange(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}
