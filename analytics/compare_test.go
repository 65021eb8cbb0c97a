package analytics

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/store"
)

func TestWinRateDifference(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		winsA, nA, winsB, nB int
		diff, low, high      float64
	}{
		// Newcombe (1998), "Interval estimation for the difference between
		// independent proportions", Statistics in Medicine 17, table II,
		// method 10, examples (a), (b) and (h).
		{"newcombe a", 56, 70, 48, 80, 0.2, 0.0524, 0.3339},
		{"newcombe b", 9, 10, 3, 10, 0.6, 0.1705, 0.8090},
		{"newcombe h", 10, 10, 0, 10, 1, 0.6075, 1},
		// By hand: 2 of 4 on both sides. Each Wilson interval is
		// 0.5 ± z/(1+z²/4)·√(1/16 + z²/64) = 0.5 ± 0.34996, and the two
		// distances combine to ±√2·0.34996 = ±0.49492.
		{"even by hand", 2, 4, 2, 4, 0, -0.4949, 0.4949},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, iv, err := WinRateDifference(tc.winsA, tc.nA, tc.winsB, tc.nB)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(d-tc.diff) > 1e-12 {
				t.Errorf("got difference %v, want %v", d, tc.diff)
			}
			if math.Abs(iv.Low-tc.low) > 5e-5 || math.Abs(iv.High-tc.high) > 5e-5 {
				t.Errorf("got interval [%.4f, %.4f], want [%.4f, %.4f]", iv.Low, iv.High, tc.low, tc.high)
			}
		})
	}
	if _, _, err := WinRateDifference(1, 1, 0, 0); !errors.Is(err, ErrNoMatches) {
		t.Errorf("no matches for B: got error %v, want ErrNoMatches", err)
	}
}

// played builds a stored match with the given seed and seats: the bot
// names (all at version v1) and their ranks and scores.
// played is a match of seats that each played alone (see onTeams).
func played(id string, seed uint64, seats ...store.SeatResult) store.Lineup {
	for i := range seats {
		seats[i].Team = i
	}
	return store.Lineup{ID: id, Seed: seed, Config: `{}`, Seats: seats}
}

// onTeams puts the seats of m on the given teams, in seat order.
func onTeams(m store.Lineup, teams ...int) store.Lineup {
	for i, t := range teams {
		m.Seats[i].Team = t
	}
	return m
}

func seatOf(name string, rank int, score float64) store.SeatResult {
	return store.SeatResult{Name: name, Version: "v1", Rank: rank, Score: score}
}

func TestPairs(t *testing.T) {
	a, b := BotVersion{"a", "v1"}, BotVersion{"b", "v1"}
	// Head to head on seed 1: A won both seats, so A did better; on seed
	// 2 each won as seat 0, which is the seat's advantage, not A's.
	h1 := played("h1", 1, seatOf("a", 1, 5), seatOf("b", 2, 1))
	h2 := played("h2", 1, seatOf("b", 2, 2), seatOf("a", 1, 4))
	h3 := played("h3", 2, seatOf("a", 1, 5), seatOf("b", 2, 1))
	h4 := played("h4", 2, seatOf("b", 1, 5), seatOf("a", 2, 1))
	// Against x on seed 3, in seat 1: both came second, B with more points.
	x1 := played("x1", 3, seatOf("x", 1, 9), seatOf("a", 2, 3))
	x2 := played("x2", 3, seatOf("x", 1, 9), seatOf("b", 2, 4))
	// Not pairs: another seed, another seat, another opponent.
	n1 := played("n1", 4, seatOf("x", 1, 9), seatOf("a", 2, 3))
	n2 := played("n2", 5, seatOf("x", 1, 9), seatOf("b", 2, 4))
	n3 := played("n3", 3, seatOf("b", 1, 9), seatOf("x", 2, 4))
	n4 := played("n4", 3, seatOf("y", 1, 9), seatOf("b", 2, 4))
	aMatches := []store.Lineup{h1, h2, h3, h4, x1, n1}
	bMatches := []store.Lineup{h1, h2, h3, h4, x2, n2, n3, n4}

	got := Pairs(a, b, aMatches, bMatches)
	type brief struct {
		a, b   string
		better int
	}
	var gotBrief []brief
	for _, p := range got {
		gotBrief = append(gotBrief, brief{p.A, p.B, p.Better})
	}
	want := []brief{{"h1", "h2", 1}, {"h3", "h4", 0}, {"x1", "x2", -1}}
	if !slices.Equal(gotBrief, want) {
		t.Errorf("got pairs %v, want %v", gotBrief, want)
	}
	if w, l, e := Tally(got); w != 1 || l != 1 || e != 1 {
		t.Errorf("got tally %d, %d, %d, want 1, 1, 1", w, l, e)
	}
	if p := got[2]; p.ARank != 2 || p.BRank != 2 || p.AScore != 3 || p.BScore != 4 || !slices.Equal(p.Seats, []int{1}) {
		t.Errorf("got pair %+v, want seat 1, ranks 2 and 2, scores 3 and 4", p)
	}

	// A match pairs once: a second recording of x2's lineup finds x1
	// taken.
	again := played("x1b", 3, seatOf("x", 1, 9), seatOf("a", 2, 3))
	if got := Pairs(a, b, []store.Lineup{x1, again}, []store.Lineup{x2}); len(got) != 1 {
		t.Errorf("got %d pairs for two A matches and one B match, want 1", len(got))
	}
	// Different configs do not pair.
	other := x2
	other.Config = `{"turns":5}`
	if got := Pairs(a, b, []store.Lineup{x1}, []store.Lineup{other}); len(got) != 0 {
		t.Errorf("got %d pairs across configs, want 0", len(got))
	}
	// A lineup whose names and versions run together as x1's swapped
	// lineup does (x v1 b v1) is still another lineup.
	runTogether := played("r2", 3, seatOf("xv", 1, 9), seatOf("b", 2, 4))
	runTogether.Seats[0].Version = "1"
	if got := Pairs(a, b, []store.Lineup{x1}, []store.Lineup{runTogether}); len(got) != 0 {
		t.Errorf("got %d pairs with other opponents, want 0", len(got))
	}
	// A and B as team-mates against x and y, then in each other's seats:
	// the same team, so the same result, is no comparison of A and B.
	mates := onTeams(played("t1", 6, seatOf("a", 1, 5), seatOf("b", 1, 5), seatOf("x", 2, 1), seatOf("y", 2, 1)), 0, 0, 2, 2)
	swapped := onTeams(played("t2", 6, seatOf("b", 1, 5), seatOf("a", 1, 5), seatOf("x", 2, 1), seatOf("y", 2, 1)), 0, 0, 2, 2)
	if got := Pairs(a, b, []store.Lineup{mates, swapped}, []store.Lineup{mates, swapped}); len(got) != 0 {
		t.Errorf("got %d pairs of team-mates, want 0", len(got))
	}
	// Apart, on the two teams, they are a pair.
	apart := onTeams(played("t3", 7, seatOf("a", 1, 5), seatOf("x", 1, 5), seatOf("b", 2, 1), seatOf("y", 2, 1)), 0, 0, 2, 2)
	apartSwapped := onTeams(played("t4", 7, seatOf("b", 1, 5), seatOf("x", 1, 5), seatOf("a", 2, 1), seatOf("y", 2, 1)), 0, 0, 2, 2)
	if got := Pairs(a, b, []store.Lineup{apart, apartSwapped}, []store.Lineup{apart, apartSwapped}); len(got) != 1 {
		t.Errorf("got %d pairs of opponents, want 1", len(got))
	}
}

func TestSummarize(t *testing.T) {
	// Type-7 quartiles of 1..5: positions 1, 2 and 3 of 0..4.
	got, err := Summarize([]float64{5, 1, math.NaN(), 4, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := Spread{N: 5, Min: 1, Q1: 2, Median: 3, Q3: 4, Max: 5, Mean: 3}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// 1, 2, 4, 10: the first quartile sits 3/4 of the way from 1 to 2.
	got, _ = Summarize([]float64{10, 4, 2, 1})
	if got.Q1 != 1.75 || got.Median != 3 || got.Q3 != 5.5 || got.Mean != 4.25 {
		t.Errorf("got %+v, want quartiles 1.75, 3, 5.5 and mean 4.25", got)
	}
	if _, err := Summarize([]float64{math.NaN()}); !errors.Is(err, ErrNoMatches) {
		t.Errorf("only NaN: got error %v, want ErrNoMatches", err)
	}
}

func TestFinal(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		values []float64
		want   float64
		ok     bool
	}{
		{[]float64{1, 2, 3}, 3, true},
		{[]float64{1, 2, nan}, 2, true},
		{[]float64{nan}, 0, false},
		{nil, 0, false},
	} {
		got, ok := Final(tc.values)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Final(%v): got %v, %v, want %v, %v", tc.values, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCurveBand(t *testing.T) {
	var c Curve
	nan := math.NaN()
	c.Add([]float64{0, 2, 4})
	c.Add([]float64{0, 4, 8, 5})
	c.Add([]float64{0, 6, nan})
	b := c.Band(100)
	// Turn 1: values 2, 4, 6: mean 4, s = 2, half-width z·2/√3.
	// Turn 2: values 4, 8: mean 6, s = 2√2, half-width z·2.
	// Turn 3: one value: no spread.
	half1, half2 := z95*2/math.Sqrt(3), z95*2
	want := Band{
		Turns: []int{0, 1, 2, 3},
		Mean:  []float64{0, 4, 6, 5},
		Low:   []float64{0, 4 - half1, 6 - half2, 5},
		High:  []float64{0, 4 + half1, 6 + half2, 5},
		N:     []int{3, 3, 2, 1},
	}
	near := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) < 1e-12 })
	}
	if !slices.Equal(b.Turns, want.Turns) || !slices.Equal(b.N, want.N) || !near(b.Mean, want.Mean) ||
		!near(b.Low, want.Low) || !near(b.High, want.High) {
		t.Errorf("got %+v, want %+v", b, want)
	}

	// A long curve is bounded, each point at a turn that has values.
	var long Curve
	vs := make([]float64, 10_001)
	for i := range vs {
		vs[i] = float64(i % 17)
		if i%3 == 0 {
			vs[i] = nan
		}
	}
	long.Add(vs)
	lb := long.Band(200)
	if len(lb.Turns) == 0 || len(lb.Turns) > 200 {
		t.Fatalf("got %d points, want 1 to 200", len(lb.Turns))
	}
	for i, turn := range lb.Turns {
		if lb.Mean[i] != vs[turn] || math.IsNaN(lb.Mean[i]) {
			t.Fatalf("point %d: got mean %v at turn %d, want %v", i, lb.Mean[i], turn, vs[turn])
		}
	}
}
