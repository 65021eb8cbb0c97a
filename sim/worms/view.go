package worms

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
	Map                       [][]ViewCell `json:"map"` // map[y][x]
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

// ViewCell is a map cell in a View.
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
	if seat < 0 || seat >= numSeats {
		seat = 0
	}
	v := &View{
		CurrentRound: m.round + 1, MaxRounds: m.maxRounds, PushbackDamage: pushbackDamage, MapSize: mapSize,
		CurrentWormID: m.players[seat].active + 1, ConsecutiveDoNothingCount: m.players[seat].streak,
		MyPlayer: m.viewPlayer(seat, true), Opponents: []ViewPlayer{m.viewPlayer(1-seat, false)},
		VisualizerEvents: []struct{}{},
	}
	if m.rules.final {
		v.LavaDamage = lavaDamage
	}
	cells := make([]ViewCell, numCells)
	v.Map = make([][]ViewCell, mapSize)
	for y := range mapSize {
		v.Map[y] = cells[y*mapSize : (y+1)*mapSize : (y+1)*mapSize]
		for x := range mapSize {
			c := y*mapSize + x
			cell := &cells[c]
			cell.X, cell.Y, cell.Type = x, y, m.grid[c].String()
			if m.pack[c] {
				cell.Powerup = &ViewPowerup{Type: "HEALTH_PACK", Value: packHP}
			}
			if g := int(m.occ[c]) - 1; g >= 0 && m.worms[g].alive() {
				cell.Occupier = &ViewOccupier{ViewWorm: m.viewWorm(g, g/wormsPerPlayer == seat), PlayerID: g/wormsPerPlayer + 1}
			}
		}
	}
	return v
}

func (m *match) viewPlayer(s int, own bool) ViewPlayer {
	p := &m.players[s]
	vp := ViewPlayer{ID: s + 1, Score: m.score(s), CurrentWormID: p.active + 1, PreviousCommand: m.previousCommand(s)}
	if m.rules.final {
		vp.RemainingWormSelections = p.tokens
	}
	if own {
		h := m.health(s)
		vp.Health = &h
	}
	for i := range wormsPerPlayer {
		vp.Worms = append(vp.Worms, m.viewWorm(s*wormsPerPlayer+i, own))
	}
	return vp
}

func (m *match) viewWorm(g int, own bool) ViewWorm {
	w := &m.worms[g]
	vw := ViewWorm{ID: g%wormsPerPlayer + 1, Health: w.hp, Position: Point{w.x, w.y}, DiggingRange: digRange,
		MovementRange: moveRange, RoundsUntilUnfrozen: w.frozen, Profession: w.prof.String()}
	if own {
		vw.Weapon = &ViewWeapon{Damage: weaponDamage, Range: weaponRange}
		if w.prof == agent {
			vw.BananaBombs = &ViewBananas{Damage: bananaDamage, Range: bananaRange, Count: w.bananas, DamageRadius: bananaRadius}
		}
		if w.prof == technologist {
			vw.Snowballs = &ViewSnow{FreezeDuration: snowballFreeze, Range: snowballRange, Count: w.snowballs, FreezeRadius: snowballRadius}
		}
	}
	return vw
}
