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
	// Version 4 keeps a record of every pair of bot versions that met
	// under a ruleset (pair_records), maintained by triggers as matches
	// are stored and deleted, and fills it from the matches already
	// there.
	`
	CREATE TABLE pair_records (
	    game        TEXT    NOT NULL,
	    ruleset     TEXT    NOT NULL,
	    bot_a       INTEGER NOT NULL REFERENCES bots (id),
	    bot_b       INTEGER NOT NULL REFERENCES bots (id),
	    meetings    INTEGER NOT NULL CHECK (meetings >= 0),
	    a_wins      INTEGER NOT NULL,
	    draws       INTEGER NOT NULL,
	    b_wins      INTEGER NOT NULL,
	    diff_sum    REAL    NOT NULL,
	    diff_sq_sum REAL    NOT NULL,
	    PRIMARY KEY (game, ruleset, bot_a, bot_b),
	    CHECK (bot_a < bot_b)
	) STRICT, WITHOUT ROWID;

	CREATE TRIGGER pair_records_add AFTER INSERT ON match_players
	BEGIN
	    INSERT INTO pair_records (game, ruleset, bot_a, bot_b, meetings, a_wins, draws, b_wins, diff_sum, diff_sq_sum)
	    SELECT m.game, m.ruleset, min(o.bot_id, NEW.bot_id), max(o.bot_id, NEW.bot_id), 1,
	        iif(NEW.bot_id < o.bot_id, NEW.rank < o.rank, o.rank < NEW.rank),
	        NEW.rank = o.rank,
	        iif(NEW.bot_id < o.bot_id, NEW.rank > o.rank, o.rank > NEW.rank),
	        iif(NEW.bot_id < o.bot_id, NEW.score - o.score, o.score - NEW.score),
	        (NEW.score - o.score) * (NEW.score - o.score)
	    FROM match_players o JOIN matches m ON m.seq = o.match_seq
	    WHERE o.match_seq = NEW.match_seq AND o.seat <> NEW.seat AND o.bot_id <> NEW.bot_id
	    ON CONFLICT (game, ruleset, bot_a, bot_b) DO UPDATE SET
	        meetings = meetings + excluded.meetings,
	        a_wins = a_wins + excluded.a_wins,
	        draws = draws + excluded.draws,
	        b_wins = b_wins + excluded.b_wins,
	        diff_sum = diff_sum + excluded.diff_sum,
	        diff_sq_sum = diff_sq_sum + excluded.diff_sq_sum;
	END;

	CREATE TRIGGER pair_records_remove BEFORE DELETE ON matches
	BEGIN
	    UPDATE pair_records SET
	        meetings = pair_records.meetings - d.meetings,
	        a_wins = pair_records.a_wins - d.a_wins,
	        draws = pair_records.draws - d.draws,
	        b_wins = pair_records.b_wins - d.b_wins,
	        diff_sum = pair_records.diff_sum - d.diff_sum,
	        diff_sq_sum = pair_records.diff_sq_sum - d.diff_sq_sum
	    FROM (
	        SELECT a.bot_id AS bot_a, b.bot_id AS bot_b, count(*) AS meetings,
	            sum(a.rank < b.rank) AS a_wins, sum(a.rank = b.rank) AS draws, sum(a.rank > b.rank) AS b_wins,
	            sum(a.score - b.score) AS diff_sum, sum((a.score - b.score) * (a.score - b.score)) AS diff_sq_sum
	        FROM match_players a JOIN match_players b ON b.match_seq = a.match_seq AND b.bot_id > a.bot_id
	        WHERE a.match_seq = OLD.seq
	        GROUP BY a.bot_id, b.bot_id) AS d
	    WHERE pair_records.game = OLD.game AND pair_records.ruleset = OLD.ruleset
	        AND pair_records.bot_a = d.bot_a AND pair_records.bot_b = d.bot_b;
	    DELETE FROM pair_records WHERE game = OLD.game AND ruleset = OLD.ruleset AND meetings = 0;
	END;

	CREATE TRIGGER match_players_keep_pairs BEFORE DELETE ON match_players
	WHEN EXISTS (SELECT 1 FROM matches WHERE seq = OLD.match_seq)
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s players go with their match: delete the match');
	END;

	CREATE TRIGGER match_players_fixed BEFORE UPDATE OF match_seq, bot_id, score, rank ON match_players
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s players are fixed: delete the match and ingest it again');
	END;

	INSERT INTO pair_records (game, ruleset, bot_a, bot_b, meetings, a_wins, draws, b_wins, diff_sum, diff_sq_sum)
	SELECT m.game, m.ruleset, a.bot_id, b.bot_id, count(*),
	    sum(a.rank < b.rank), sum(a.rank = b.rank), sum(a.rank > b.rank),
	    sum(a.score - b.score), sum((a.score - b.score) * (a.score - b.score))
	FROM matches m
	JOIN match_players a ON a.match_seq = m.seq
	JOIN match_players b ON b.match_seq = m.seq AND b.bot_id > a.bot_id
	GROUP BY m.game, m.ruleset, a.bot_id, b.bot_id;`,
}
