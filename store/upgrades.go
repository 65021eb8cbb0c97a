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
	// Version 4 indexes replays by game, ruleset and seed, so a tournament
	// finds the matches it already played on a seed without a scan.
	`CREATE INDEX replays_by_seed ON replays (game, ruleset, seed);`,
}
