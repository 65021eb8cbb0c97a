package rng

import (
	"testing"

	"github.com/replaylab/replaylab/internal/fmacheck"
)

// TestNoFusibleProducts holds this package's code to internal/fmacheck's
// rule: every float product rounded on its own, so no build fuses it into
// an FMA.
func TestNoFusibleProducts(t *testing.T) { fmacheck.Check(t, 5) }
