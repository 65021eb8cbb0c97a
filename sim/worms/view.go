package worms

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// View is what a bot sees before a round, with the field names of the
// official state.json (rules §11). Null fields are omitted, as Gson does:
// only the bot's own worms carry their weapons, only its own player its
// health.
type View struct {
	CurrentRound              int          `json:"currentRound"`
	MaxRounds                 int          `json:"maxRounds"`
	PushbackDamage            int          `json:"pushbackDamage"`
	LavaDamage                int          `json:"lavaDamage,omitempty"`
	MapSize                   int          `json:"mapSize"`
	CurrentWormID             int          `json:"currentWormId"`
	ConsecutiveDoNothingCount int          `json:"consecutiveDoNothingCount"`
	MyPlayer                  ViewPlayer   `json:"myPlayer"`
	Opponents                 []ViewPlayer `json:"opponents"`
	Map                       Map          `json:"map"`
	VisualizerEvents          []struct{}   `json:"visualizerEvents"`
}

// ViewPlayer is a player in a View.
type ViewPlayer struct {
	ID                      int        `json:"id"` // 1 or 2
	Score                   int        `json:"score"`
	Health                  *int       `json:"health,omitempty"`
	CurrentWormID           int        `json:"currentWormId"`
	RemainingWormSelections int        `json:"remainingWormSelections"`
	PreviousCommand         string     `json:"previousCommand"`
	Worms                   []ViewWorm `json:"worms"`
}

// ViewWorm is a worm in a View.
type ViewWorm struct {
	ID                  int          `json:"id"`
	Health              int          `json:"health"`
	Position            Point        `json:"position"`
	DiggingRange        int          `json:"diggingRange"`
	MovementRange       int          `json:"movementRange"`
	RoundsUntilUnfrozen int          `json:"roundsUntilUnfrozen"`
	Profession          string       `json:"profession"`
	Weapon              *ViewWeapon  `json:"weapon,omitempty"`
	BananaBombs         *ViewBananas `json:"bananaBombs,omitempty"`
	Snowballs           *ViewSnow    `json:"snowballs,omitempty"`
}

// ViewWeapon is a worm's gun.
type ViewWeapon struct {
	Damage int `json:"damage"`
	Range  int `json:"range"`
}

// ViewBananas is an Agent's banana bombs.
type ViewBananas struct {
	Damage       int `json:"damage"`
	Range        int `json:"range"`
	Count        int `json:"count"`
	DamageRadius int `json:"damageRadius"`
}

// ViewSnow is a Technologist's snowballs.
type ViewSnow struct {
	FreezeDuration int `json:"freezeDuration"`
	Range          int `json:"range"`
	Count          int `json:"count"`
	FreezeRadius   int `json:"freezeRadius"`
}

// Map is the map of a View, map[y][x] of ViewCell in JSON. In memory it
// is a copy of the match's terrain, health packs and occupied cells, so a
// view costs a built-in bot a few copies of the board; only a view sent to
// an external bot is spelled out cell by cell.
type Map struct {
	grid      *mapGrid // nil in a zero View
	occupiers []ViewOccupier
}

// mapGrid holds the cells of a Map, each at y*mapSize + x.
type mapGrid struct {
	terrain [numCells]cellType
	pack    [numCells]bool // a health pack lies here
	occ     [numCells]int8 // 1 + index in Map.occupiers, 0 for none
}

// ErrMap reports a view's map that no match of this game shows: not
// mapSize by mapSize, cells out of place, unknown terrain or power-ups.
var ErrMap = errors.New("not a map of this game")

// MarshalJSON spells the map out as rows of ViewCell.
func (mp Map) MarshalJSON() ([]byte, error) {
	if mp.grid == nil {
		return []byte("null"), nil
	}
	cells := make([]ViewCell, numCells)
	rows := make([][]ViewCell, mapSize)
	for y := range rows {
		rows[y] = cells[y*mapSize : (y+1)*mapSize : (y+1)*mapSize]
		for x := range rows[y] {
			c, vc := y*mapSize+x, &rows[y][x]
			vc.X, vc.Y, vc.Type = x, y, mp.grid.terrain[c].String()
			if mp.grid.pack[c] {
				vc.Powerup = &ViewPowerup{Type: "HEALTH_PACK", Value: packHP}
			}
			if o := mp.grid.occ[c]; o > 0 {
				vc.Occupier = &mp.occupiers[o-1]
			}
		}
	}
	return json.Marshal(rows)
}

// UnmarshalJSON reads the rows of ViewCell MarshalJSON writes, and returns
// an error wrapping ErrMap for a map no match shows.
func (mp *Map) UnmarshalJSON(data []byte) error {
	var rows [][]ViewCell
	if err := json.Unmarshal(data, &rows); err != nil {
		return err
	}
	if rows == nil {
		*mp = Map{}
		return nil
	}
	if len(rows) != mapSize {
		return fmt.Errorf("%w: %d rows, want %d", ErrMap, len(rows), mapSize)
	}
	m := Map{grid: &mapGrid{}}
	for y, row := range rows {
		if len(row) != mapSize {
			return fmt.Errorf("%w: row %d has %d cells, want %d", ErrMap, y, len(row), mapSize)
		}
		for x, vc := range row {
			c := y*mapSize + x
			if vc.X != x || vc.Y != y {
				return fmt.Errorf("%w: cell (%d, %d) at [%d][%d]", ErrMap, vc.X, vc.Y, y, x)
			}
			t := slices.Index(cellNames[:], vc.Type)
			if t < 0 {
				return fmt.Errorf("%w: terrain %q at (%d, %d)", ErrMap, vc.Type, x, y)
			}
			m.grid.terrain[c] = cellType(t)
			if p := vc.Powerup; p != nil {
				if *p != (ViewPowerup{Type: "HEALTH_PACK", Value: packHP}) {
					return fmt.Errorf("%w: power-up %+v at (%d, %d)", ErrMap, *p, x, y)
				}
				m.grid.pack[c] = true
			}
			if vc.Occupier != nil {
				if len(m.occupiers) == numWorms {
					return fmt.Errorf("%w: more than %d occupied cells", ErrMap, numWorms)
				}
				m.occupiers = append(m.occupiers, *vc.Occupier)
				m.grid.occ[c] = int8(len(m.occupiers))
			}
		}
	}
	*mp = m
	return nil
}

// ViewCell is a map cell in a View's JSON.
type ViewCell struct {
	X        int           `json:"x"`
	Y        int           `json:"y"`
	Type     string        `json:"type"` // AIR, DIRT, DEEP_SPACE or LAVA
	Occupier *ViewOccupier `json:"occupier,omitempty"`
	Powerup  *ViewPowerup  `json:"powerup,omitempty"`
}

// ViewOccupier is the living worm on a cell, with its player id.
type ViewOccupier struct {
	ViewWorm
	PlayerID int `json:"playerId"`
}

// ViewPowerup is a health pack.
type ViewPowerup struct {
	Type  string `json:"type"` // HEALTH_PACK
	Value int    `json:"value"`
}

// View returns a *View for seat (0 or 1; anything else gets seat 0's).
func (m *match) View(seat int) any {
	v := &View{}
	m.fill(v, seat)
	return v
}

// Peek returns a *View for seat like View, lent until the match's next
// Step: every Peek refills the same one, so a built-in bot's turn
// allocates no view.
func (m *match) Peek(seat int) any {
	if seat < 0 || seat >= numSeats {
		seat = 0
	}
	m.fill(&m.lent[seat], seat)
	return &m.lent[seat]
}

// fill makes v the view of seat, reusing the storage v holds.
func (m *match) fill(v *View, seat int) {
	if seat < 0 || seat >= numSeats {
		seat = 0
	}
	*v = View{
		CurrentRound: m.round + 1, MaxRounds: m.maxRounds, PushbackDamage: pushbackDamage, MapSize: mapSize,
		CurrentWormID: m.players[seat].active + 1, ConsecutiveDoNothingCount: m.players[seat].streak,
		MyPlayer: v.MyPlayer, Opponents: v.Opponents[:cap(v.Opponents)],
		Map: v.Map, VisualizerEvents: []struct{}{},
	}
	if len(v.Opponents) != 1 {
		v.Opponents = make([]ViewPlayer, 1)
	}
	m.fillPlayer(&v.MyPlayer, seat, true)
	m.fillPlayer(&v.Opponents[0], 1-seat, false)
	if m.rules.final {
		v.LavaDamage = lavaDamage
	}
	if m.viewGrid == nil || m.viewRound != m.round {
		g := &mapGrid{terrain: m.grid, pack: m.pack, occ: m.occ}
		for i := range m.worms {
			if w := &m.worms[i]; !w.alive() {
				if c := &g.occ[w.y*mapSize+w.x]; int(*c) == i+1 {
					*c = 0
				}
			}
		}
		m.viewGrid, m.viewRound = g, m.round
	}
	// occ holds 1 + the index of the living worm on a cell, so the match's
	// own indexes serve as indexes in occupiers. Both seats' views of a
	// round share its grid (views are read, never written).
	v.Map.grid = m.viewGrid
	if len(v.Map.occupiers) != numWorms {
		v.Map.occupiers = make([]ViewOccupier, numWorms)
	}
	for g := range m.worms {
		o := &v.Map.occupiers[g]
		if !m.worms[g].alive() {
			*o = ViewOccupier{}
			continue
		}
		m.fillWorm(&o.ViewWorm, g, g/wormsPerPlayer == seat)
		o.PlayerID = g/wormsPerPlayer + 1
	}
}

// fillPlayer makes vp the view of seat s's player, as its own player's
// when own, reusing the storage vp holds.
func (m *match) fillPlayer(vp *ViewPlayer, s int, own bool) {
	p := &m.players[s]
	health, worms := vp.Health, vp.Worms
	if len(worms) != wormsPerPlayer {
		worms = make([]ViewWorm, wormsPerPlayer)
	}
	*vp = ViewPlayer{ID: s + 1, Score: m.score(s), CurrentWormID: p.active + 1, PreviousCommand: m.previousCommand(s), Worms: worms}
	if m.rules.final {
		vp.RemainingWormSelections = p.tokens
	}
	if own {
		vp.Health = reuse(health, m.health(s))
	}
	for i := range worms {
		m.fillWorm(&worms[i], s*wormsPerPlayer+i, own)
	}
}

// fillWorm makes vw the view of worm g, with its weapons when own,
// reusing the storage vw holds.
func (m *match) fillWorm(vw *ViewWorm, g int, own bool) {
	w := &m.worms[g]
	weapon, bananas, snow := vw.Weapon, vw.BananaBombs, vw.Snowballs
	*vw = ViewWorm{ID: g%wormsPerPlayer + 1, Health: w.hp, Position: Point{w.x, w.y}, DiggingRange: digRange,
		MovementRange: moveRange, RoundsUntilUnfrozen: w.frozen, Profession: w.prof.String()}
	if !own {
		return
	}
	vw.Weapon = reuse(weapon, ViewWeapon{Damage: weaponDamage, Range: weaponRange})
	if w.prof == agent {
		vw.BananaBombs = reuse(bananas, ViewBananas{Damage: bananaDamage, Range: bananaRange, Count: w.bananas, DamageRadius: bananaRadius})
	}
	if w.prof == technologist {
		vw.Snowballs = reuse(snow, ViewSnow{FreezeDuration: snowballFreeze, Range: snowballRange, Count: w.snowballs, FreezeRadius: snowballRadius})
	}
}

// reuse stores v at p, or at a new pointer when p is nil, and returns it.
func reuse[T any](p *T, v T) *T {
	if p == nil {
		p = new(T)
	}
	*p = v
	return p
}
