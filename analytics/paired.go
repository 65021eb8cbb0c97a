package analytics

import (
	"errors"
	"fmt"
	"math"
)

// Errors of SignTest and PairsNeeded.
var (
	ErrNoPairs      = errors.New("no paired matches: the two bots share no seed")
	ErrNoDifference = errors.New("the paired results are even: no number of matches would show a difference")
)

// Sizes of paired comparisons.
const (
	// significance is the two-sided level PairsNeeded aims for, and
	// power the chance it gives the test of reaching it.
	significance = 0.05
	zPower       = 0.8416212335729143 // standard normal quantile of 0.8
	// maxPairsNeeded bounds PairsNeeded: beyond it the difference is too
	// small to show in any tournament.
	maxPairsNeeded = 1_000_000_000
)

// SignTest returns the exact two-sided p-value of the sign test for paired
// matches: on each seed both bots played, with seats swapped, A did better
// in wins pairs and B in losses; even pairs are left out, as the test
// does. The p-value is the chance, were the bots equal, of a split at
// least as uneven: 2·P(X ≤ min(wins, losses)) for X ~ Binomial(n, ½),
// capped at 1.
func SignTest(wins, losses int) (float64, error) {
	if wins < 0 || losses < 0 {
		return 0, fmt.Errorf("sign test: negative counts %d and %d", wins, losses)
	}
	n := wins + losses
	if n == 0 {
		return 0, fmt.Errorf("sign test: %w", ErrNoPairs)
	}
	k := min(wins, losses)
	// Sum the binomial terms from the largest, k, down; each is the one
	// above times j/(n-j+1). Starting from the log of the largest keeps
	// 2^-n from underflowing for large n.
	lgN, _ := math.Lgamma(float64(n + 1))
	lgK, _ := math.Lgamma(float64(k + 1))
	lgNK, _ := math.Lgamma(float64(n - k + 1))
	term := math.Exp(lgN - lgK - lgNK - float64(n)*math.Ln2)
	var tail float64
	for j := k; j >= 0 && term > tail*1e-17; j-- {
		tail += term
		term *= float64(j) / float64(n-j+1)
	}
	return min(1, 2*tail), nil
}

// PairsNeeded estimates how many more paired seeds A and B must play
// before the sign test shows their difference at the 5% level, were A to
// keep doing better in the same share of decisive pairs and the same share
// of pairs to be even. It is the usual sample size of a one-sample
// binomial test with 80% power: with q the share A wins of the decisive
// pairs, n = ((z·½ + z_power·√(q(1-q))) / (q - ½))² decisive pairs, scaled
// up by the share of pairs that were decisive, and at least enough for
// the split A would expect to pass the exact test. A result already
// significant needs 0 more; an even record needs infinitely many, and the
// error wraps ErrNoDifference.
func PairsNeeded(wins, losses, ties int) (int, error) {
	if wins < 0 || losses < 0 || ties < 0 {
		return 0, fmt.Errorf("pairs needed: negative counts %d, %d and %d", wins, losses, ties)
	}
	played := wins + losses + ties
	if played == 0 {
		return 0, fmt.Errorf("pairs needed: %w", ErrNoPairs)
	}
	if wins == losses {
		return 0, fmt.Errorf("pairs needed: %w", ErrNoDifference)
	}
	p, err := SignTest(wins, losses)
	if err != nil {
		return 0, fmt.Errorf("pairs needed: %w", err)
	}
	if p < significance {
		return 0, nil
	}
	decisive := float64(wins + losses)
	q := float64(wins) / decisive
	n := math.Ceil(math.Pow((z95/2+zPower*math.Sqrt(q*(1-q)))/(q-0.5), 2))
	// The normal approximation is poor for a few lopsided pairs (4-0 is
	// not significant, 6-0 is): grow n until the split A would expect
	// passes the exact test.
	for ; n <= maxPairsNeeded; n++ {
		w := math.Round(q * n)
		if p, _ := SignTest(int(w), int(n-w)); p < significance {
			break
		}
	}
	total := math.Ceil(n * float64(played) / decisive)
	if total > maxPairsNeeded {
		return 0, fmt.Errorf("pairs needed: %w within %d pairs", ErrNoDifference, maxPairsNeeded)
	}
	// What was played may already exceed the estimate while the exact
	// test is not yet significant: then one more is the honest bound.
	return max(1, int(total)-played), nil
}
