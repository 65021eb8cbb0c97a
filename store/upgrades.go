package store

// upgrades[i] takes a database from user_version i+1 to i+2. A schema
// change edits schema.sql, which fresh databases get whole, and appends
// here the statements that bring a database of the previous version to
// the same schema, never editing an earlier entry, so every existing
// database can be brought forward.
var upgrades = []string{
	// Version 2 keeps the per-turn numbers as lines (series) instead of a
	// turn_stats row per turn with a column per metric slot. The old rows
	// cannot become lines in SQL (which rows a metric applies to is the
	// game's declaration, and storage knows no game), so every match goes
	// with the rows derived from it. The replays stay: importing them
	// again regenerates their matches.
	`
	DELETE FROM matches;
	DROP TABLE turn_stats;
	CREATE TABLE series (
	    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    metric    INTEGER NOT NULL CHECK (metric >= -1),
	    seat      INTEGER NOT NULL CHECK (seat >= 0),
	    unit      INTEGER NOT NULL CHECK (unit >= -1),
	    data      BLOB    NOT NULL,
	    PRIMARY KEY (match_seq, metric, seat, unit)
	) STRICT, WITHOUT ROWID;`,
	// Version 3 stores no inspector frames: regen.Frames regenerates any
	// turn from the stored replay on demand, bit-identically and in
	// milliseconds, and the frames were most of a stored match. Nothing
	// else is lost.
	`DROP TABLE frames;`,
	// Version 4 stores bot ratings, fitted in the background: the index
	// the fit reads matches by, and tables for the latest ratings and
	// their history. They start empty; the first refit fills them.
	`
	CREATE INDEX matches_by_ruleset ON matches (game, ruleset);
	CREATE TABLE rating_fits (
	    game      TEXT    NOT NULL,
	    ruleset   TEXT    NOT NULL,
	    matches   INTEGER NOT NULL CHECK (matches >= 0),
	    last_seq  INTEGER NOT NULL CHECK (last_seq >= 0),
	    fitted_at INTEGER NOT NULL,
	    problem   TEXT    NOT NULL,
	    PRIMARY KEY (game, ruleset)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE ratings (
	    bot_id  INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
	    ruleset TEXT    NOT NULL,
	    rating  REAL    NOT NULL,
	    ci_low  REAL    NOT NULL,
	    ci_high REAL    NOT NULL,
	    matches INTEGER NOT NULL CHECK (matches >= 0),
	    PRIMARY KEY (bot_id, ruleset)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE rating_history (
	    bot_id  INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
	    ruleset TEXT    NOT NULL,
	    upto    INTEGER NOT NULL CHECK (upto >= 1),
	    rating  REAL    NOT NULL,
	    ci_low  REAL    NOT NULL,
	    ci_high REAL    NOT NULL,
	    matches INTEGER NOT NULL CHECK (matches >= 0),
	    PRIMARY KEY (bot_id, ruleset, upto)
	) STRICT, WITHOUT ROWID;`,
}
