package analytics

import (
	"slices"
	"testing"
)

func TestMarkKinds(t *testing.T) {
	// 200 turns: a spawn every turn (weather), 15 eats (under a tenth of
	// the turns: a candidate), one death.
	counts := map[string]int{"spawn": 200, "eat": 15, "death": 1}
	tests := []struct {
		name   string
		counts map[string]int
		turns  int
		limit  int
		want   []string
	}{
		{"weather left out", counts, 200, 100, []string{"death", "eat"}},
		{"limit drops the most frequent kind first", counts, 200, 10, []string{"death"}},
		{"nothing fits", counts, 200, 0, []string{}},
		{"ties by name", map[string]int{"b": 2, "a": 2, "c": 1}, 100, 5, []string{"c", "a", "b"}},
		// A kind seen at most ten times is a candidate even if it happens
		// every turn of a short match.
		{"short match", map[string]int{"spawn": 3}, 3, 100, []string{"spawn"}},
		{"no events", map[string]int{}, 50, 100, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MarkKinds(tt.counts, tt.turns, tt.limit); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
