package worms

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/replaylab/replaylab/sim"
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

// viewDoc explains View to bot authors, with the numbers of the rules'
// constants.
var viewDoc = sim.ViewDoc{Fields: []sim.ViewField{
	{Path: "currentRound", Meaning: "The round about to be played, from 1."},
	{Path: "maxRounds", Meaning: fmt.Sprintf("The round limit: %d in base, %d in final, or the config's rounds.", defaultBaseRounds, defaultFinalRounds)},
	{Path: "pushbackDamage", Meaning: fmt.Sprintf("Damage (%d) each worm takes when two worms move to the same cell.", pushbackDamage)},
	{Path: "lavaDamage", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Damage (%d) a worm standing on lava takes each round. Lava spreads over the air cells from the edge inwards from round maxRounds·%g to maxRounds·%g.", lavaDamage, lavaStart, lavaEnd)},
	{Path: "mapSize", Meaning: fmt.Sprintf("Width and height of the map (%d).", mapSize)},
	{Path: "currentWormId", Meaning: "Id of the bot's worm that acts this round (as myPlayer.currentWormId)."},
	{Path: "consecutiveDoNothingCount", Meaning: fmt.Sprintf("The bot's rounds in a row of nothing, an invalid command or no answer; the %dth in a row disqualifies it.", maxDoNothings+1)},
	{Path: "myPlayer", Meaning: "The bot's own player."},
	{Path: "myPlayer.id", Meaning: "Player id: 1 for Seat 1, 2 for Seat 2."},
	{Path: "myPlayer.score", Meaning: "Score so far: the points of every command played plus a third (rounded down) of the health of the player's living worms."},
	{Path: "myPlayer.health", Meaning: "Sum of the health of the player's living worms (shown for the bot's own player only)."},
	{Path: "myPlayer.currentWormId", Meaning: "Id of the player's worm that acts this round."},
	{Path: "myPlayer.remainingWormSelections", Meaning: fmt.Sprintf("select commands left (%d at the start in final; always 0 in base, which has no select).", selectTokens)},
	{Path: "myPlayer.previousCommand", Meaning: "The player's command of the last round as the engine played it: \"move 20 9\", \"shoot N\", \"select 2; shoot N\", \"invalid\", \"nothing\" (also before the first round)..."},
	{Path: "myPlayer.worms", Meaning: "The player's three worms, dead ones included (health 0 or less, at their last position)."},
	{Path: "myPlayer.worms[]", Meaning: "A worm."},
	{Path: "myPlayer.worms[].id", Meaning: "Worm id within its player, 1 to 3."},
	{Path: "myPlayer.worms[].health", Meaning: "Health; 0 or less is dead."},
	{Path: "myPlayer.worms[].position", Meaning: "Where the worm is."},
	{Path: "myPlayer.worms[].position.x", Meaning: "Column, 0 (left) to mapSize−1."},
	{Path: "myPlayer.worms[].position.y", Meaning: "Row, 0 (top) to mapSize−1."},
	{Path: "myPlayer.worms[].diggingRange", Meaning: fmt.Sprintf("How far away the worm digs (%d: one of the 8 cells around it).", digRange)},
	{Path: "myPlayer.worms[].movementRange", Meaning: fmt.Sprintf("How far the worm moves (%d: one of the 8 cells around it).", moveRange)},
	{Path: "myPlayer.worms[].roundsUntilUnfrozen", Meaning: "Snowball freeze counter, 0 when free (always in base). It counts down by 1 a round; a worm showing 2 or more ignores this round's command (select still works)."},
	{Path: "myPlayer.worms[].profession", Meaning: "Commando (every worm in base), Agent (worm 2 in final: banana bombs) or Technologist (worm 3 in final: snowballs)."},
	{Path: "myPlayer.worms[].weapon", Meaning: "The worm's gun (shown for the bot's own worms only)."},
	{Path: "myPlayer.worms[].weapon.damage", Meaning: fmt.Sprintf("Damage of a shot (%d).", weaponDamage)},
	{Path: "myPlayer.worms[].weapon.range", Meaning: fmt.Sprintf("Range of a shot (%d), the Euclidean distance rounded down, along the 8 directions.", weaponRange)},
	{Path: "myPlayer.worms[].bananaBombs", Rulesets: []string{"final"}, Meaning: "An Agent's banana bombs (shown for the bot's own Agent only)."},
	{Path: "myPlayer.worms[].bananaBombs.damage", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Damage at the centre of the blast (%d), less further out.", bananaDamage)},
	{Path: "myPlayer.worms[].bananaBombs.range", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Throwing range (%d), the Euclidean distance rounded down.", bananaRange)},
	{Path: "myPlayer.worms[].bananaBombs.count", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Bombs left (%d at the start).", bananaCount)},
	{Path: "myPlayer.worms[].bananaBombs.damageRadius", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Radius of the blast (%d), which also turns dirt to air and destroys health packs.", bananaRadius)},
	{Path: "myPlayer.worms[].snowballs", Rulesets: []string{"final"}, Meaning: "A Technologist's snowballs (shown for the bot's own Technologist only)."},
	{Path: "myPlayer.worms[].snowballs.freezeDuration", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Rounds a hit worm stays frozen (%d).", snowballFreeze)},
	{Path: "myPlayer.worms[].snowballs.range", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Throwing range (%d), the Euclidean distance rounded down.", snowballRange)},
	{Path: "myPlayer.worms[].snowballs.count", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Snowballs left (%d at the start).", snowballCount)},
	{Path: "myPlayer.worms[].snowballs.freezeRadius", Rulesets: []string{"final"}, Meaning: fmt.Sprintf("Radius of the freeze (%d: the 3×3 square around the target).", snowballRadius)},
	{Path: "opponents", Meaning: "The other player, the only entry."},
	{Path: "opponents[]", Like: "myPlayer", Meaning: "The opponent, shown without health, its worms without weapons."},
	{Path: "map", Meaning: fmt.Sprintf("The map as rows: map[y][x], %d rows of %d cells, row 0 at the top, x to the right.", mapSize, mapSize)},
	{Path: "map[]", Meaning: "A row of the map."},
	{Path: "map[][]", Meaning: "A cell."},
	{Path: "map[][].x", Meaning: "The cell's column."},
	{Path: "map[][].y", Meaning: "The cell's row."},
	{Path: "map[][].type", Meaning: "AIR (open), DIRT (blocks moves and shots; dig it to make it air), DEEP_SPACE (blocks everything, for ever) or LAVA (final: open, but hurts; see lavaDamage)."},
	{Path: "map[][].occupier", Like: "myPlayer.worms[]", Meaning: "The living worm on the cell and its playerId, with weapons only if it is the bot's own."},
	{Path: "map[][].occupier.playerId", Meaning: "Id of the worm's player."},
	{Path: "map[][].powerup", Meaning: "A health pack on the cell, picked up by the worm that moves there."},
	{Path: "map[][].powerup.type", Meaning: "HEALTH_PACK."},
	{Path: "map[][].powerup.value", Meaning: fmt.Sprintf("Health it gives (%d).", packHP)},
	{Path: "visualizerEvents", Meaning: "Always empty: the official engine fills it only for its visualizer."},
}}

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
	return json.Marshal(mp.Rows())
}

// Rows spells the map out as rows of ViewCell, rows[y][x], as its JSON
// has it (nil for the map of a zero View). The cells' occupiers point
// into the map; they are read, never written.
func (mp Map) Rows() [][]ViewCell {
	if mp.grid == nil {
		return nil
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
	return rows
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

// HealthPackValue is the health a health pack gives, which the original
// text state file lists among its special items.
const HealthPackValue = packHP

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

// Alternatives lists what the seat's active worm may do: nothing, a move
// to each open free neighbouring cell or a dig of each neighbouring dirt
// cell, and a shot in each of the 8 directions. Bananas, snowballs and
// selects are left out: their targets and worms would multiply the list
// for a critical sweep. A seat whose active worm is dead gets nothing.
func (m *match) Alternatives(seat int) []string {
	out := []string{"nothing"}
	w := &m.worms[seat*wormsPerPlayer+m.players[seat].active]
	if !w.alive() {
		return out
	}
	for _, d := range directions {
		x, y := w.x+d.dx, w.y+d.dy
		if !onMap(x, y) {
			continue
		}
		switch c := y*mapSize + x; {
		case m.grid[c].open() && m.occ[c] == 0:
			out = append(out, coord("move", x, y))
		case m.grid[c] == dirt:
			out = append(out, coord("dig", x, y))
		}
	}
	for _, d := range directions {
		out = append(out, "shoot "+d.name)
	}
	return out
}
