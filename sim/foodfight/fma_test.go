package foodfight

import (
	"testing"

	"github.com/replaylab/replaylab/internal/fmacheck"
)

// TestNoFusibleProducts holds the engine to internal/fmacheck's rule: a
// product fused into an FMA on arm64 or GOAMD64=v3 would change the
// physics and break the goldens there.
func TestNoFusibleProducts(t *testing.T) { fmacheck.Check(t, 4) }
