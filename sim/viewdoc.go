package sim

import "slices"

// ViewDoc explains a game's bot view, Match.View as JSON, to the people who
// write bots: what every field means and, for a game that draws its board
// as text, what every symbol means. It sits beside each game's View so the
// two change together, and each game's tests walk real views against it
// (internal/viewdoc), so a field without a meaning or a meaning without a
// field fails there. `replaylab view --fields` prints it.
type ViewDoc struct {
	// Fields lists every field of the view's JSON, containers included,
	// in reading order.
	Fields []ViewField
	// Board is the path of the field drawn in Glyphs ("" for a view
	// without a text board).
	Board string
	// Glyphs is the legend of Board: each symbol it may hold.
	Glyphs []Glyph
}

// ViewField is the meaning of one field of a view.
type ViewField struct {
	// Path names the field in the view's JSON: the keys of nested objects
	// joined by dots, "[]" for every element of an array ("map[][]" is
	// every cell of an array of rows) and "*" for every member of an
	// object whose keys are data, not names ("company_info.*").
	Path    string
	Meaning string
	// Rulesets lists the rulesets whose views have the field; nil means
	// every ruleset.
	Rulesets []string
	// Like names another field whose subfields this one has too (an
	// opponent shown like the bot's own player): each of them means here
	// what it means there, so shared shapes are explained once.
	Like string
}

// Glyph is the meaning of one symbol of a text board.
type Glyph struct {
	Glyph   string
	Meaning string
	// Rulesets lists the rulesets whose boards may show the glyph; nil
	// means every ruleset.
	Rulesets []string
}

// In reports whether the field is in the views of ruleset.
func (f ViewField) In(ruleset string) bool { return inRulesets(f.Rulesets, ruleset) }

// In reports whether the glyph may appear on the boards of ruleset.
func (g Glyph) In(ruleset string) bool { return inRulesets(g.Rulesets, ruleset) }

func inRulesets(rulesets []string, ruleset string) bool {
	return rulesets == nil || slices.Contains(rulesets, ruleset)
}
