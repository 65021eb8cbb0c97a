package foodfight

import (
	"math"

	"github.com/replaylab/replaylab/sim/rng"
)

// fixAngle normalises an angle to [0, 2π) as the engine's Direction does:
// the IEEE remainder by 2π, plus 2π when negative (which can round up to
// 2π itself, as in the engine).
func fixAngle(a float64) float64 {
	r := remainder2Pi(a)
	if r >= 0 {
		return r
	}
	return r + twoPi
}

// remainder2Pi is math.Remainder(a, twoPi), bit for bit, without its
// general reduction when |a| < 3π, as every heading and difference of
// headings here is. The IEEE remainder is a - n·twoPi, exactly, with n the
// integer nearest a/twoPi: n = 0 when |a| < π (twoPi is 2·math.Pi
// exactly), and n = ±1 when a ∓ twoPi, exact by Sterbenz's lemma for
// π <= |a| <= 4π, is below π in magnitude and not zero (a zero remainder
// takes the sign of a). Ties and everything else go to math.Remainder.
func remainder2Pi(a float64) float64 {
	switch {
	case math.Abs(a) < math.Pi:
		return a
	case a >= math.Pi && a <= 4*math.Pi:
		if d := a - twoPi; math.Abs(d) < math.Pi && d != 0 {
			return d
		}
	case a <= -math.Pi && a >= -4*math.Pi:
		if d := a + twoPi; math.Abs(d) < math.Pi && d != 0 {
			return d
		}
	}
	return math.Remainder(a, twoPi)
}

// diff is b - a wrapped into [-π, π) (A.3, Direction.difference).
func diff(a, b float64) float64 {
	r := remainder2Pi(b - a)
	if r < math.Pi {
		return r
	}
	return -math.Pi
}

// The compass headings, normalised as the engine's constants are.
var (
	east  = fixAngle(0)
	north = fixAngle(0.5 * math.Pi)
	west  = fixAngle(math.Pi)
	south = fixAngle(1.5 * math.Pi)
)

// within90 reports whether heading h is within 90° of direction d.
func within90(h, d float64) bool { return math.Abs(diff(h, d)) < halfPi }

// direction is the heading from the origin to v, east for the zero vector.
func direction(v vec) float64 { return fixAngle(rng.Atan2(v.y, v.x)) }

// armDirection is the direction of the player's arm for hand (0 left).
func armDirection(p *player, hand int) float64 {
	if hand == 0 {
		return fixAngle(p.heading + armAngle)
	}
	return fixAngle(p.heading - armAngle)
}

// canPickup reports whether ground food f is in reach of the hand (A.6:
// within 100 and within π/6 of the arm, as the engine's code has it).
func canPickup(p *player, f *food, hand int) bool {
	if f.height > 0 {
		return false
	}
	t := f.loc.sub(p.loc)
	if t.length() > reach {
		return false
	}
	return math.Abs(diff(armDirection(p, hand), direction(t))) < reachHalf
}

// againstTable reports whether the player stands against the table t while
// moving forward (or backward) into it (A.6, isAgainstTable). The heading
// is only compared when the position allows it: most players are far from
// every table, and each comparison costs two remainders.
func againstTable(p *player, t vec, forward bool) bool {
	// moving reports whether the move goes within 90° of direction d.
	moving := func(d float64) bool {
		if forward {
			return within90(p.heading, d)
		}
		return math.Abs(diff(p.heading, d)) > halfPi
	}
	const ext = tableRadius + playerRadius
	northEdge, southEdge := t.y+ext, t.y-ext
	eastEdge, westEdge := t.x+ext, t.x-ext
	x, y := p.loc.x, p.loc.y
	if westEdge < x && x < eastEdge {
		if southEdge <= y && y < t.y && moving(north) {
			return true
		}
		if t.y < y && y <= northEdge && moving(south) {
			return true
		}
	}
	if southEdge < y && y < northEdge {
		if westEdge <= x && x < t.x && moving(east) {
			return true
		}
		if t.x < x && x <= eastEdge && moving(west) {
			return true
		}
	}
	return false
}

// againstAnyTable reports whether the player is against some table.
func (m *match) againstAnyTable(p *player, forward bool) bool {
	for i := range m.teams {
		if againstTable(p, m.teams[i].table, forward) {
			return true
		}
	}
	return false
}

// insideTable reports whether a player at loc overlaps the table square.
func insideTable(loc, t vec) bool {
	return !(loc.y-playerRadius >= t.y+tableRadius || loc.y+playerRadius <= t.y-tableRadius ||
		loc.x-playerRadius >= t.x+tableRadius || loc.x+playerRadius <= t.x-tableRadius)
}

// movePlayer moves a player from loc by d, stopping at table sides and the
// field's walls (A.6, movePlayer). Each check may override the one before.
func (m *match) movePlayer(loc, d vec) vec {
	r := loc.add(d)
	for i := range m.teams {
		t := m.teams[i].table
		if !insideTable(r, t) {
			continue
		}
		if n := t.y + tableRadius; loc.y-playerRadius >= n && r.y-playerRadius < n {
			r = hitWallY(loc, d, n)
		}
		if s := t.y - tableRadius; loc.y+playerRadius <= s && r.y+playerRadius > s {
			r = hitWallY(loc, d, s)
		}
		if e := t.x + tableRadius; loc.x-playerRadius >= e && r.x-playerRadius < e {
			r = hitWallX(loc, d, e)
		}
		if w := t.x - tableRadius; loc.x+playerRadius <= w && r.x+playerRadius > w {
			r = hitWallX(loc, d, w)
		}
	}
	if r.x < playerRadius {
		r = hitWallX(loc, d, 0)
	} else if r.x > fieldWidth-playerRadius {
		r = hitWallX(loc, d, fieldWidth)
	}
	if r.y < playerRadius {
		r = hitWallY(loc, d, 0)
	} else if r.y > fieldDepth-playerRadius {
		r = hitWallY(loc, d, fieldDepth)
	}
	return r
}

// hitWallX is the point where a player moving from loc along d touches the
// vertical line x = wx with its side.
func hitWallX(loc, d vec, wx float64) vec {
	x := wx + playerRadius
	if loc.x < wx {
		x = wx - playerRadius
	}
	if d.x == 0 {
		return vec{x, loc.y}
	}
	return vec{x, loc.y + float64(d.y*((x-loc.x)/d.x))}
}

// hitWallY is hitWallX for the horizontal line y = wy.
func hitWallY(loc, d vec, wy float64) vec {
	y := wy + playerRadius
	if loc.y < wy {
		y = wy - playerRadius
	}
	if d.y == 0 {
		return vec{loc.x, y}
	}
	return vec{loc.x + float64(d.x*((y-loc.y)/d.y)), y}
}

// onTable reports whether a point lies on the table square, edges included.
func onTable(p, t vec) bool {
	return t.x-tableRadius <= p.x && p.x <= t.x+tableRadius && t.y-tableRadius <= p.y && p.y <= t.y+tableRadius
}
