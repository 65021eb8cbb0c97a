package snake

import (
	"encoding/json"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// rates plays n 5-seat matches of one greedy bot against four random ones,
// the greedy seat rotating, and returns the greedy bot's win rate and the
// mean final scores of the greedy bot and of a random bot.
func rates(t testing.TB, n int) (winRate, greedyScore, randomScore float64) {
	wins := 0
	for k := range n {
		bots := []string{"random", "random", "random", "random", "random"}
		seat := k % 5
		bots[seat] = "greedy"
		m := playMatch(t, "", uint64(1000+k), bots, nil, 0, nil)
		r := m.Result()
		if r.Winner == seat {
			wins++
		}
		for i, p := range r.Players {
			if i == seat {
				greedyScore += p.Score
			} else {
				randomScore += p.Score / 4
			}
		}
	}
	return float64(wins) / float64(n), greedyScore / float64(n), randomScore / float64(n)
}

// TestGreedyBeatsRandom: one greedy bot against four random ones wins far
// more than the fair 1 in 5. BenchmarkGreedyVsRandom runs 100 matches.
func TestGreedyBeatsRandom(t *testing.T) {
	n := 25
	if testing.Short() {
		n = 5
	}
	win, gs, rs := rates(t, n)
	t.Logf("greedy vs 4 random over %d matches: greedy wins %.0f%%, mean score greedy %.1f, random %.1f", n, 100*win, gs, rs)
	if win < 0.6 || gs < 2*rs {
		t.Errorf("greedy wins %.2f with mean score %.1f against %.1f; want at least 0.6 and twice the random score", win, gs, rs)
	}
}

// TestBotsReadJSONViews: a bot given the view's JSON (what an external
// process gets) answers as it does from the *View.
func TestBotsReadJSONViews(t *testing.T) {
	m := newDefault(t, 5)
	for range 40 {
		step(t, m, "", "", "", "", "")
	}
	for _, name := range []string{"random", "greedy"} {
		def, _ := Game.Bot(name)
		a, _ := def.New(sim.Setup{Players: 5}, 0, 9)
		b, _ := def.New(sim.Setup{Players: 5}, 0, 9)
		raw, _ := json.Marshal(m.View(0))
		if got, want := b.Act(json.RawMessage(raw)), a.Act(m.View(0)); got != want {
			t.Errorf("%s: %q from JSON, %q from the view", name, got, want)
		}
	}
}

// BenchmarkGreedyVsRandom reports the rates of TestGreedyBeatsRandom over
// 100 matches per iteration (run with -benchtime 1x).
func BenchmarkGreedyVsRandom(b *testing.B) {
	for b.Loop() {
		win, gs, rs := rates(b, 100)
		b.ReportMetric(100*win, "greedy-win-%")
		b.ReportMetric(gs, "greedy-score")
		b.ReportMetric(rs, "random-score")
	}
}

// TestPeekReadsAsView: at every tick of a match, the view Peek lends
// encodes as the View of the same seat, and every bot answers the same
// from it, so built-in bots play the same in a recorder that lends views.
func TestPeekReadsAsView(t *testing.T) {
	var peeked, viewed [2][5]sim.Bot
	for k, name := range []string{"random", "greedy"} {
		def, _ := Game.Bot(name)
		for s := range 5 {
			peeked[k][s], _ = def.New(sim.Setup{Players: 5}, s, uint64(s))
			viewed[k][s], _ = def.New(sim.Setup{Players: 5}, s, uint64(s))
		}
	}
	playMatch(t, "", 7, []string{"greedy", "random", "greedy", "random", "greedy"}, nil, 0, func(m *match, _ []string) {
		for s := range 5 {
			got, err := json.Marshal(m.Peek(s))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(m.View(s))
			if string(got) != string(want) {
				t.Fatalf("turn %d seat %d: got peeked view %s, want %s", m.turn, s, got, want)
			}
			for k := range peeked {
				if got, want := peeked[k][s].Act(m.Peek(s)), viewed[k][s].Act(m.View(s)); got != want {
					t.Fatalf("turn %d seat %d bot %d: got %q from the peeked view, want %q", m.turn, s, k, got, want)
				}
			}
		}
	})
}

// TestGreedyKeepsPlanWhileValid: the greedy bot follows the path it found
// to an apple while the apple is there, even when a closer one appears,
// and searches again when it is gone, going to the one there now.
func TestGreedyKeepsPlanWhileValid(t *testing.T) {
	const first = "" +
		"☼☼☼☼☼☼☼☼☼" +
		"☼       ☼" +
		"☼       ☼" +
		"☼       ☼" +
		"☼ ╘►   ○☼" +
		"☼       ☼" +
		"☼       ☼" +
		"☼       ☼" +
		"☼☼☼☼☼☼☼☼☼"
	tests := []struct {
		name, board, want string
	}{
		{"apple still there", "" +
			"☼☼☼☼☼☼☼☼☼" +
			"☼       ☼" +
			"☼   ○   ☼" +
			"☼       ☼" +
			"☼  ╘►  ○☼" +
			"☼       ☼" +
			"☼       ☼" +
			"☼       ☼" +
			"☼☼☼☼☼☼☼☼☼", "RIGHT"},
		{"apple gone", "" +
			"☼☼☼☼☼☼☼☼☼" +
			"☼       ☼" +
			"☼   ○   ☼" +
			"☼       ☼" +
			"☼  ╘►   ☼" +
			"☼       ☼" +
			"☼       ☼" +
			"☼       ☼" +
			"☼☼☼☼☼☼☼☼☼", "UP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def, _ := Game.Bot("greedy")
			bot, _ := def.New(sim.Setup{Players: 1}, 0, 1)
			if got := bot.Act(&View{Board: newBoard([]rune(first))}); got != "RIGHT" {
				t.Fatalf("first move: got %q, want %q", got, "RIGHT")
			}
			if got := bot.Act(&View{Board: newBoard([]rune(tt.board))}); got != tt.want {
				t.Errorf("second move: got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGreedySearchFindsCheapest: at every turn of a 5-greedy match of
// each ruleset, for every seat, the A* search finds a target of the
// least cost (distance less value) that a breadth-first walk over the
// same passable cells finds, and none when that finds none.
func TestGreedySearchFindsCheapest(t *testing.T) {
	for _, rs := range Game.Rulesets {
		t.Run(rs, func(t *testing.T) {
			bots := make([]*greedyBot, 5)
			for s := range bots {
				bots[s] = &greedyBot{}
			}
			playMatch(t, rs, 31, []string{"greedy", "greedy", "greedy", "greedy", "greedy"}, nil, 0, func(m *match, _ []string) {
				for s, b := range bots {
					head := b.look(m.Peek(s))
					if head < 0 {
						continue
					}
					got, want := int32(none), walkCheapest(b, head)
					if c := b.search(head); c >= 0 {
						got = b.visits[c].dist - b.value(b.board.kind(c))
					}
					if got != want {
						t.Fatalf("turn %d seat %d: got a target of cost %d, want %d (%d for none)", m.turn, s, got, want, none)
					}
				}
			})
		})
	}
}

// none is walkCheapest's cost when no target is in reach.
const none = 1 << 30

// walkCheapest walks breadth-first from head over the cells the greedy
// bot may pass and returns the least cost of a target it reaches, or none.
func walkCheapest(b *greedyBot, head int) int32 {
	dist := map[int]int32{head: 0}
	queue, best := []int{head}, int32(none)
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		k := b.board.kind(c)
		if v := b.value(k); v > -100 && c != head && dist[c]-v < best {
			best = dist[c] - v
		}
		if k == kEnemyBody || k == kStone {
			continue
		}
		for d := int8(0); d < 4; d++ {
			if nc := b.board.step(c, d); b.passable(nc, dist[c]) {
				if _, seen := dist[nc]; !seen {
					dist[nc] = dist[c] + 1
					queue = append(queue, nc)
				}
			}
		}
	}
	return best
}
