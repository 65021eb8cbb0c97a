package entelect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim/worms"
)

// The state files the runner writes each round, in the form of the
// engine release of the ruleset: base is phase 1's 2019.1.0, final is
// 2019.3.2. Each is built from the seat's worms.View, which holds all a
// player of either release is shown; the fields base lacks are left out.
// Key names and order are the engine's (its JSON writer, Gson, writes
// the fields in declaration order and leaves nulls out).

// state is state.json. The pointer fields are final's.
type state struct {
	CurrentRound              int      `json:"currentRound"`
	MaxRounds                 int      `json:"maxRounds"`
	PushbackDamage            int      `json:"pushbackDamage"`
	LavaDamage                *int     `json:"lavaDamage,omitempty"`
	MapSize                   int      `json:"mapSize"`
	CurrentWormID             int      `json:"currentWormId"`
	ConsecutiveDoNothingCount int      `json:"consecutiveDoNothingCount"`
	MyPlayer                  player   `json:"myPlayer"`
	Opponents                 []player `json:"opponents"`
	Map                       cells    `json:"-"` // written by JSON, then visualizerEvents in final
	final                     bool     // the ruleset is final
}

type player struct {
	ID                      int     `json:"id"`
	Score                   int     `json:"score"`
	Health                  *int    `json:"health,omitempty"`
	CurrentWormID           int     `json:"currentWormId"`
	RemainingWormSelections *int    `json:"remainingWormSelections,omitempty"`
	PreviousCommand         *string `json:"previousCommand,omitempty"`
	Worms                   []worm  `json:"worms"`
}

type worm struct {
	ID                  int                `json:"id"`
	PlayerID            *int               `json:"playerId,omitempty"`
	Health              int                `json:"health"`
	Position            worms.Point        `json:"position"`
	Weapon              *worms.ViewWeapon  `json:"weapon,omitempty"`
	BananaBombs         *worms.ViewBananas `json:"bananaBombs,omitempty"`
	Snowballs           *worms.ViewSnow    `json:"snowballs,omitempty"`
	DiggingRange        int                `json:"diggingRange"`
	MovementRange       int                `json:"movementRange"`
	RoundsUntilUnfrozen *int               `json:"roundsUntilUnfrozen,omitempty"`
	Profession          *string            `json:"profession,omitempty"`
}

// cells is the map, rows of cells, written by hand: a thousand cells
// through reflection would cost a bot's turn more than its answer.
type cells struct {
	rows  [][]worms.ViewCell
	final bool
}

// appendJSON writes each cell as the engine's PrintableMapCell: x, y,
// type, then the occupier and the powerup when there are.
func (c cells) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	for y, row := range c.rows {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x, vc := range row {
			if x > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"x":`...)
			b = strconv.AppendInt(b, int64(vc.X), 10)
			b = append(b, `,"y":`...)
			b = strconv.AppendInt(b, int64(vc.Y), 10)
			b = append(b, `,"type":"`...)
			b = append(b, vc.Type...) // an upper-case terrain name
			b = append(b, '"')
			if o := vc.Occupier; o != nil {
				w := newWorm(&o.ViewWorm, c.final)
				w.PlayerID = &o.PlayerID
				js, err := json.Marshal(w)
				if err != nil {
					return nil, err
				}
				b = append(b, `,"occupier":`...)
				b = append(b, js...)
			}
			if p := vc.Powerup; p != nil {
				b = append(b, `,"powerup":{"type":"`...)
				b = append(b, p.Type...)
				b = append(b, `","value":`...)
				b = strconv.AppendInt(b, int64(p.Value), 10)
				b = append(b, '}')
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// newState returns the state of view in the form of the ruleset's engine.
func newState(v *worms.View, final bool) *state {
	s := &state{
		CurrentRound: v.CurrentRound, MaxRounds: v.MaxRounds, PushbackDamage: v.PushbackDamage,
		MapSize: v.MapSize, CurrentWormID: v.CurrentWormID, ConsecutiveDoNothingCount: v.ConsecutiveDoNothingCount,
		MyPlayer: newPlayer(&v.MyPlayer, final), final: final,
	}
	for i := range v.Opponents {
		s.Opponents = append(s.Opponents, newPlayer(&v.Opponents[i], final))
	}
	if final {
		s.LavaDamage = &v.LavaDamage
	}
	s.Map = cells{rows: v.Map.Rows(), final: final}
	return s
}

func newPlayer(vp *worms.ViewPlayer, final bool) player {
	p := player{ID: vp.ID, Score: vp.Score, Health: vp.Health, CurrentWormID: vp.CurrentWormID}
	if final {
		p.RemainingWormSelections, p.PreviousCommand = &vp.RemainingWormSelections, &vp.PreviousCommand
	}
	for i := range vp.Worms {
		p.Worms = append(p.Worms, newWorm(&vp.Worms[i], final))
	}
	return p
}

func newWorm(vw *worms.ViewWorm, final bool) worm {
	w := worm{ID: vw.ID, Health: vw.Health, Position: vw.Position, Weapon: vw.Weapon,
		DiggingRange: vw.DiggingRange, MovementRange: vw.MovementRange}
	if final {
		w.BananaBombs, w.Snowballs = vw.BananaBombs, vw.Snowballs
		w.RoundsUntilUnfrozen, w.Profession = &vw.RoundsUntilUnfrozen, &vw.Profession
	}
	return w
}

// JSON returns state.json: one line, no final newline, as Gson writes.
// The map, by far the largest part, is appended to the rest by hand:
// through json.Marshal, even a Marshaler's bytes would be scanned again.
func (s *state) JSON() ([]byte, error) {
	head, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(head)+96<<10)
	b = append(b, head[:len(head)-1]...) // without its "}"
	b = append(b, `,"map":`...)
	if b, err = s.Map.appendJSON(b); err != nil {
		return nil, err
	}
	if s.final {
		b = append(b, `,"visualizerEvents":[]`...)
	}
	return append(b, '}'), nil
}

// glyphs are the text map's two characters per terrain.
var glyphs = map[string]string{"AIR": "░░", "DIRT": "▓▓", "DEEP_SPACE": "██", "LAVA": "XX"}

// Text returns textMap.txt, the engine's text state file: six sections,
// each with its line count, lines ending in "\n", no final newline.
func (s *state) Text() string {
	var b strings.Builder
	var sec []string // the section being written
	line := func(format string, a ...any) { sec = append(sec, fmt.Sprintf(format, a...)) }
	flush := func(after string) {
		head := append([]string{sec[0], fmt.Sprintf("Section lines count: %d", len(sec)+1)}, sec[1:]...)
		b.WriteString(strings.Join(head, "\n"))
		b.WriteString(after)
		sec = sec[:0]
	}

	line("@01 Match Details")
	line("Current round: %d", s.CurrentRound)
	line("Max rounds: %d", s.MaxRounds)
	line("Map size: %d", s.MapSize)
	line("Current worm id: %d", s.CurrentWormID)
	line("Consecutive do nothing count: %d", s.ConsecutiveDoNothingCount)
	line("Players count: %d", 1+len(s.Opponents))
	line("Worms per player: %d", len(s.MyPlayer.Worms))
	if s.final {
		line("Pushback damage: %d", s.PushbackDamage)
		line("Lava damage: %d", *s.LavaDamage)
	} else {
		line("Pushback Damage: %d", s.PushbackDamage)
	}
	flush("\n\n")

	line("@02 My Player")
	s.playerText(line, &s.MyPlayer)
	line("Health: %s", orNull(s.MyPlayer.Health))
	line("Current Worm: %d", s.MyPlayer.CurrentWormID)
	line("Worms: ")
	for i := range s.MyPlayer.Worms {
		w := &s.MyPlayer.Worms[i]
		s.wormText(line, w)
		line("Weapon damage: %s", orNull(field(w.Weapon, func(x *worms.ViewWeapon) int { return x.Damage })))
		line("Weapon range: %s", orNull(field(w.Weapon, func(x *worms.ViewWeapon) int { return x.Range })))
		if s.final {
			bb, sb := w.BananaBombs, w.Snowballs
			line("Banana bomb damage: %s", orNull(field(bb, func(x *worms.ViewBananas) int { return x.Damage })))
			line("Banana bomb range: %s", orNull(field(bb, func(x *worms.ViewBananas) int { return x.Range })))
			line("Banana bombs count: %s", orNull(field(bb, func(x *worms.ViewBananas) int { return x.Count })))
			line("Banana bomb damage radius: %s", orNull(field(bb, func(x *worms.ViewBananas) int { return x.DamageRadius })))
			line("Snowballs freeze duration: %s", orNull(field(sb, func(x *worms.ViewSnow) int { return x.FreezeDuration })))
			line("Snowballs range: %s", orNull(field(sb, func(x *worms.ViewSnow) int { return x.Range })))
			line("Snowballs count: %s", orNull(field(sb, func(x *worms.ViewSnow) int { return x.Count })))
			line("Snowballs freeze radius: %s", orNull(field(sb, func(x *worms.ViewSnow) int { return x.FreezeRadius })))
		}
	}
	flush("\n\n")

	line("@03 Opponents")
	for i := range s.Opponents {
		p := &s.Opponents[i]
		s.playerText(line, p)
		line("Current Worm: %d", p.CurrentWormID)
		line("Worms: ")
		for j := range p.Worms {
			s.wormText(line, &p.Worms[j])
		}
		line("")
		line("")
	}
	flush("\n")

	line("@04 Special Items")
	line("HEALTH_PACK: %d", worms.HealthPackValue)
	flush("\n\n")

	line("@05 Legend")
	line("DEEP_SPACE: ██ ASCII:219")
	line("DIRT: ▓▓ ASCII:178")
	line("AIR: ░░ ASCII:176")
	if s.final {
		line("LAVA: XX")
	}
	line("HEALTH_PACK: ╠╣ ASCII:204, 185")
	line("WORM_MARKER: 13 Example for:Player1, Worm3")
	flush("\n\n")

	line("@06 World Map")
	for _, row := range s.Map.rows {
		var r strings.Builder
		for _, c := range row {
			switch {
			case c.Powerup != nil:
				r.WriteString("╠╣")
			case c.Occupier != nil:
				fmt.Fprintf(&r, "%d%d", c.Occupier.PlayerID, c.Occupier.ID)
			default:
				r.WriteString(glyphs[c.Type])
			}
		}
		line("%s", r.String())
	}
	flush("")
	return b.String()
}

func (s *state) playerText(line func(string, ...any), p *player) {
	line("Player id: %d", p.ID)
	line("Score: %d", p.Score)
	if s.final {
		line("Selection Tokens: %s", orNull(p.RemainingWormSelections))
		line("Previous Command: %s", *p.PreviousCommand)
	}
}

func (s *state) wormText(line func(string, ...any), w *worm) {
	line("")
	line("Worm id: %d", w.ID)
	line("Health: %d", w.Health)
	line("Position x: %d", w.Position.X)
	line("Position y: %d", w.Position.Y)
	line("Digging range: %d", w.DiggingRange)
	line("Movement range: %d", w.MovementRange)
	if s.final {
		line("Rounds until unfrozen: %s", orNull(w.RoundsUntilUnfrozen))
		line("Profession: %s", *w.Profession)
	}
}

// field returns get(p), or nil when p is nil.
func field[T any](p *T, get func(*T) int) *int {
	if p == nil {
		return nil
	}
	v := get(p)
	return &v
}

// orNull writes a number the engine may lack as Kotlin does: "null".
func orNull(n *int) string {
	if n == nil {
		return "null"
	}
	return fmt.Sprint(*n)
}
