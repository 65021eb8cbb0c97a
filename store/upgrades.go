package store

import (
	"context"
	"database/sql"
	"fmt"
)

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
	// Version 4 adds the aggregates the leaderboards, the overview and the
	// bot pages read instead of counting every match (see schema.sql), the
	// triggers that keep them, and fills them from the stored matches. A
	// bot's recent matches need its index ordered by match.
	`
	DROP INDEX match_players_by_bot;
	CREATE INDEX match_players_by_bot ON match_players (bot_id, match_seq);
	CREATE TABLE bot_records (
	    bot_id    INTEGER NOT NULL REFERENCES bots (id),
	    ruleset   TEXT    NOT NULL,
	    seats     INTEGER NOT NULL CHECK (seats >= 0),
	    wins      INTEGER NOT NULL,
	    draws     INTEGER NOT NULL,
	    losses    INTEGER NOT NULL,
	    score_sum REAL    NOT NULL,
	    PRIMARY KEY (bot_id, ruleset)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE bot_matches (
	    game    TEXT    NOT NULL,
	    name    TEXT    NOT NULL,
	    matches INTEGER NOT NULL CHECK (matches >= 0),
	    PRIMARY KEY (game, name)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE game_matches (
	    game    TEXT    NOT NULL,
	    ruleset TEXT    NOT NULL,
	    matches INTEGER NOT NULL CHECK (matches >= 0),
	    PRIMARY KEY (game, ruleset)
	) STRICT, WITHOUT ROWID;
	CREATE TRIGGER matches_count AFTER INSERT ON matches BEGIN
	    INSERT INTO game_matches (game, ruleset, matches) VALUES (NEW.game, NEW.ruleset, 1)
	    ON CONFLICT (game, ruleset) DO UPDATE SET matches = matches + 1;
	END;
	CREATE TRIGGER matches_uncount_players BEFORE DELETE ON matches BEGIN
	    DELETE FROM match_players WHERE match_seq = OLD.seq;
	END;
	CREATE TRIGGER matches_uncount AFTER DELETE ON matches BEGIN
	    UPDATE game_matches SET matches = matches - 1 WHERE game = OLD.game AND ruleset = OLD.ruleset;
	    DELETE FROM game_matches WHERE game = OLD.game AND ruleset = OLD.ruleset AND matches = 0;
	END;
	CREATE TRIGGER match_players_count AFTER INSERT ON match_players BEGIN
	    INSERT INTO bot_records (bot_id, ruleset, seats, wins, draws, losses, score_sum)
	    SELECT NEW.bot_id, m.ruleset, 1, NEW.outcome = 'win', NEW.outcome = 'draw', NEW.outcome = 'loss', NEW.score
	    FROM matches m WHERE m.seq = NEW.match_seq
	    ON CONFLICT (bot_id, ruleset) DO UPDATE SET seats = seats + 1, wins = wins + excluded.wins,
	        draws = draws + excluded.draws, losses = losses + excluded.losses, score_sum = score_sum + excluded.score_sum;
	    INSERT INTO bot_matches (game, name, matches)
	    SELECT b.game, b.name, 1 FROM bots b
	    WHERE b.id = NEW.bot_id AND NOT EXISTS (
	        SELECT 1 FROM match_players mp JOIN bots o ON o.id = mp.bot_id
	        WHERE mp.match_seq = NEW.match_seq AND mp.seat <> NEW.seat AND o.game = b.game AND o.name = b.name)
	    ON CONFLICT (game, name) DO UPDATE SET matches = matches + 1;
	END;
	CREATE TRIGGER match_players_uncount AFTER DELETE ON match_players BEGIN
	    UPDATE bot_records SET seats = seats - 1, wins = wins - (OLD.outcome = 'win'),
	        draws = draws - (OLD.outcome = 'draw'), losses = losses - (OLD.outcome = 'loss'), score_sum = score_sum - OLD.score
	    WHERE bot_id = OLD.bot_id AND ruleset = (SELECT ruleset FROM matches WHERE seq = OLD.match_seq);
	    DELETE FROM bot_records WHERE bot_id = OLD.bot_id AND seats = 0;
	    UPDATE bot_matches SET matches = matches - 1
	    WHERE (game, name) = (SELECT game, name FROM bots WHERE id = OLD.bot_id) AND NOT EXISTS (
	        SELECT 1 FROM match_players mp JOIN bots o ON o.id = mp.bot_id
	        WHERE mp.match_seq = OLD.match_seq AND o.game = bot_matches.game AND o.name = bot_matches.name);
	    DELETE FROM bot_matches
	    WHERE (game, name) = (SELECT game, name FROM bots WHERE id = OLD.bot_id) AND matches = 0;
	END;
	INSERT INTO bot_records (bot_id, ruleset, seats, wins, draws, losses, score_sum)
	SELECT mp.bot_id, m.ruleset, count(*), sum(mp.outcome = 'win'), sum(mp.outcome = 'draw'),
	    sum(mp.outcome = 'loss'), sum(mp.score)
	FROM match_players mp JOIN matches m ON m.seq = mp.match_seq
	GROUP BY mp.bot_id, m.ruleset;
	INSERT INTO bot_matches (game, name, matches)
	SELECT b.game, b.name, count(DISTINCT mp.match_seq)
	FROM match_players mp JOIN bots b ON b.id = mp.bot_id
	GROUP BY b.game, b.name;
	INSERT INTO game_matches (game, ruleset, matches)
	SELECT game, ruleset, count(*) FROM matches GROUP BY game, ruleset;`,
	// Version 5 keeps a record of every pair of bot versions that met
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

	CREATE TRIGGER pair_records_remove AFTER DELETE ON match_players
	BEGIN
	    UPDATE pair_records SET
	        meetings = pair_records.meetings - d.meetings,
	        a_wins = pair_records.a_wins - d.a_wins,
	        draws = pair_records.draws - d.draws,
	        b_wins = pair_records.b_wins - d.b_wins,
	        diff_sum = pair_records.diff_sum - d.diff_sum,
	        diff_sq_sum = pair_records.diff_sq_sum - d.diff_sq_sum
	    FROM (
	        SELECT m.game AS game, m.ruleset AS ruleset,
	            min(o.bot_id, OLD.bot_id) AS bot_a, max(o.bot_id, OLD.bot_id) AS bot_b, count(*) AS meetings,
	            sum(iif(OLD.bot_id < o.bot_id, OLD.rank < o.rank, o.rank < OLD.rank)) AS a_wins,
	            sum(OLD.rank = o.rank) AS draws,
	            sum(iif(OLD.bot_id < o.bot_id, OLD.rank > o.rank, o.rank > OLD.rank)) AS b_wins,
	            sum(iif(OLD.bot_id < o.bot_id, OLD.score - o.score, o.score - OLD.score)) AS diff_sum,
	            sum((OLD.score - o.score) * (OLD.score - o.score)) AS diff_sq_sum
	        FROM match_players o JOIN matches m ON m.seq = o.match_seq
	        WHERE o.match_seq = OLD.match_seq AND o.seat <> OLD.seat AND o.bot_id <> OLD.bot_id
	        GROUP BY o.bot_id) AS d
	    WHERE pair_records.game = d.game AND pair_records.ruleset = d.ruleset
	        AND pair_records.bot_a = d.bot_a AND pair_records.bot_b = d.bot_b;
	    DELETE FROM pair_records WHERE meetings = 0
	        AND (game, ruleset) = (SELECT game, ruleset FROM matches WHERE seq = OLD.match_seq);
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
	// Version 6 indexes replays by game, ruleset and seed, so a tournament
	// finds the matches it already played on a seed without a scan.
	`CREATE INDEX replays_by_seed ON replays (game, ruleset, seed);`,
	// Version 7 stores bot ratings, fitted in the background: the index
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
	// Version 8 counts the changes to the stored matches and rating fits
	// (data_version, see schema.sql), so that rendered leaderboards can be
	// kept until one happens.
	`
	CREATE TABLE data_version (
	    id INTEGER PRIMARY KEY CHECK (id = 1),
	    n  INTEGER NOT NULL
	) STRICT;
	INSERT INTO data_version (id, n) VALUES (1, 0);
	CREATE TRIGGER data_version_match_added AFTER INSERT ON matches BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	CREATE TRIGGER data_version_match_changed AFTER UPDATE ON matches BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	CREATE TRIGGER data_version_match_deleted AFTER DELETE ON matches BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	CREATE TRIGGER data_version_player_changed AFTER UPDATE ON match_players BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	CREATE TRIGGER data_version_fit_added AFTER INSERT ON rating_fits BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	CREATE TRIGGER data_version_fit_changed AFTER UPDATE ON rating_fits BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	CREATE TRIGGER data_version_fit_deleted AFTER DELETE ON rating_fits BEGIN
	    UPDATE data_version SET n = n + 1;
	END;`,
	// Version 9 indexes each replay's seed and config by its id, so a
	// comparison reads those of thousands of matches without their
	// replays' encoded logs. A seat deleted on its own changes the
	// records it leaves behind, so it counts as a change of the data; an
	// update of any column of a seat (its outcome too, which bot_records
	// counts) is refused, so no trigger needs to count one.
	`
	CREATE INDEX replays_lineup ON replays (id, seed, config);
	DROP TRIGGER data_version_player_changed;
	CREATE TRIGGER data_version_player_deleted AFTER DELETE ON match_players BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	DROP TRIGGER match_players_fixed;
	CREATE TRIGGER match_players_fixed BEFORE UPDATE ON match_players
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s players are fixed: delete the match and ingest it again');
	END;`,
	// Version 10 keeps what external bots wrote besides their answers,
	// per turn and seat, for the inspector's bot output panel. Matches
	// stored before have none.
	`
	CREATE TABLE bot_output (
	    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    turn      INTEGER NOT NULL CHECK (turn >= 0),
	    seat      INTEGER NOT NULL CHECK (seat >= 0),
	    stream    TEXT    NOT NULL CHECK (stream IN ('stdout', 'stderr')),
	    text      TEXT    NOT NULL,
	    PRIMARY KEY (match_seq, turn, seat, stream)
	) STRICT, WITHOUT ROWID;`,

	// Version 11 counts a match once per bot version and keeps team-mates
	// apart (see schema.sql): each seat's team, a row per match and bot
	// version (match_entries, its best seat) that the records, bot_matches
	// and pair_records now count instead of seats, and bot_records' seats
	// renamed matches beside a count of seats. Every aggregate is
	// recounted from the stored seats. Storage knows no game's rules, but
	// the seats already stored need their teams: FoodFight is the one game
	// with teams so far, and its four-seat matches are its TEAM matches
	// (seats 0-1 against 2-3), where every other match type has teams of
	// one. The best seat is ordered as store.Entries orders it.
	`
	DROP TRIGGER matches_uncount_players;
	DROP TRIGGER match_players_count;
	DROP TRIGGER match_players_uncount;
	DROP TRIGGER pair_records_add;
	DROP TRIGGER pair_records_remove;
	DROP TRIGGER match_players_fixed;
	ALTER TABLE match_players ADD COLUMN team INTEGER NOT NULL DEFAULT 0 CHECK (team >= 0 AND team <= seat);
	UPDATE match_players SET team = iif(
	    (SELECT m.game FROM matches m WHERE m.seq = match_players.match_seq) = 'foodfight'
	        AND (SELECT count(*) FROM match_players o WHERE o.match_seq = match_players.match_seq) = 4,
	    seat / 2 * 2, seat);
	CREATE TABLE match_entries (
	    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    bot_id    INTEGER NOT NULL REFERENCES bots (id),
	    seat      INTEGER NOT NULL CHECK (seat >= 0),
	    seats     INTEGER NOT NULL CHECK (seats >= 1),
	    team      INTEGER NOT NULL CHECK (team >= 0),
	    score     REAL    NOT NULL,
	    rank      INTEGER NOT NULL CHECK (rank >= 1),
	    outcome   TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
	    PRIMARY KEY (match_seq, bot_id)
	) STRICT, WITHOUT ROWID;
	CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq);
	INSERT INTO match_entries (match_seq, bot_id, seat, seats, team, score, rank, outcome)
	SELECT match_seq, bot_id, seat, seats, team, score, rank, outcome FROM (
	    SELECT mp.*, count(*) OVER same AS seats, row_number() OVER (same ORDER BY
	        CASE mp.outcome WHEN 'win' THEN 2 WHEN 'draw' THEN 1 ELSE 0 END DESC,
	        mp.rank, mp.score DESC, mp.seat) AS pick
	    FROM match_players mp
	    WINDOW same AS (PARTITION BY mp.match_seq, mp.bot_id))
	WHERE pick = 1;
	DROP TABLE bot_records;
	CREATE TABLE bot_records (
	    bot_id    INTEGER NOT NULL REFERENCES bots (id),
	    ruleset   TEXT    NOT NULL,
	    matches   INTEGER NOT NULL CHECK (matches >= 0),
	    seats     INTEGER NOT NULL CHECK (seats >= matches),
	    wins      INTEGER NOT NULL,
	    draws     INTEGER NOT NULL,
	    losses    INTEGER NOT NULL,
	    score_sum REAL    NOT NULL,
	    PRIMARY KEY (bot_id, ruleset)
	) STRICT, WITHOUT ROWID;
	INSERT INTO bot_records (bot_id, ruleset, matches, seats, wins, draws, losses, score_sum)
	SELECT e.bot_id, m.ruleset, count(*), sum(e.seats), sum(e.outcome = 'win'), sum(e.outcome = 'draw'),
	    sum(e.outcome = 'loss'), sum(e.score)
	FROM match_entries e JOIN matches m ON m.seq = e.match_seq
	GROUP BY e.bot_id, m.ruleset;
	DELETE FROM bot_matches;
	INSERT INTO bot_matches (game, name, matches)
	SELECT b.game, b.name, count(DISTINCT e.match_seq)
	FROM match_entries e JOIN bots b ON b.id = e.bot_id
	GROUP BY b.game, b.name;
	DELETE FROM pair_records;
	INSERT INTO pair_records (game, ruleset, bot_a, bot_b, meetings, a_wins, draws, b_wins, diff_sum, diff_sq_sum)
	SELECT m.game, m.ruleset, a.bot_id, b.bot_id, count(*),
	    sum(a.rank < b.rank), sum(a.rank = b.rank), sum(a.rank > b.rank),
	    sum(a.score - b.score), sum((a.score - b.score) * (a.score - b.score))
	FROM matches m
	JOIN match_entries a ON a.match_seq = m.seq
	JOIN match_entries b ON b.match_seq = m.seq AND b.bot_id > a.bot_id AND b.team <> a.team
	GROUP BY m.game, m.ruleset, a.bot_id, b.bot_id;
	CREATE TRIGGER matches_uncount_players BEFORE DELETE ON matches BEGIN
	    DELETE FROM match_entries WHERE match_seq = OLD.seq;
	    DELETE FROM match_players WHERE match_seq = OLD.seq;
	END;
	CREATE TRIGGER match_entries_count AFTER INSERT ON match_entries BEGIN
	    INSERT INTO bot_records (bot_id, ruleset, matches, seats, wins, draws, losses, score_sum)
	    SELECT NEW.bot_id, m.ruleset, 1, NEW.seats, NEW.outcome = 'win', NEW.outcome = 'draw', NEW.outcome = 'loss', NEW.score
	    FROM matches m WHERE m.seq = NEW.match_seq
	    ON CONFLICT (bot_id, ruleset) DO UPDATE SET matches = matches + 1, seats = seats + excluded.seats,
	        wins = wins + excluded.wins, draws = draws + excluded.draws, losses = losses + excluded.losses,
	        score_sum = score_sum + excluded.score_sum;
	    INSERT INTO bot_matches (game, name, matches)
	    SELECT b.game, b.name, 1 FROM bots b
	    WHERE b.id = NEW.bot_id AND NOT EXISTS (
	        SELECT 1 FROM match_entries e JOIN bots o ON o.id = e.bot_id
	        WHERE e.match_seq = NEW.match_seq AND e.bot_id <> NEW.bot_id AND o.game = b.game AND o.name = b.name)
	    ON CONFLICT (game, name) DO UPDATE SET matches = matches + 1;
	END;
	CREATE TRIGGER match_entries_uncount AFTER DELETE ON match_entries BEGIN
	    UPDATE bot_records SET matches = matches - 1, seats = seats - OLD.seats, wins = wins - (OLD.outcome = 'win'),
	        draws = draws - (OLD.outcome = 'draw'), losses = losses - (OLD.outcome = 'loss'), score_sum = score_sum - OLD.score
	    WHERE bot_id = OLD.bot_id AND ruleset = (SELECT ruleset FROM matches WHERE seq = OLD.match_seq);
	    DELETE FROM bot_records WHERE bot_id = OLD.bot_id AND matches = 0;
	    UPDATE bot_matches SET matches = matches - 1
	    WHERE (game, name) = (SELECT game, name FROM bots WHERE id = OLD.bot_id) AND NOT EXISTS (
	        SELECT 1 FROM match_entries e JOIN bots o ON o.id = e.bot_id
	        WHERE e.match_seq = OLD.match_seq AND o.game = bot_matches.game AND o.name = bot_matches.name);
	    DELETE FROM bot_matches
	    WHERE (game, name) = (SELECT game, name FROM bots WHERE id = OLD.bot_id) AND matches = 0;
	END;
	CREATE TRIGGER pair_records_add AFTER INSERT ON match_entries
	BEGIN
	    INSERT INTO pair_records (game, ruleset, bot_a, bot_b, meetings, a_wins, draws, b_wins, diff_sum, diff_sq_sum)
	    SELECT m.game, m.ruleset, min(o.bot_id, NEW.bot_id), max(o.bot_id, NEW.bot_id), 1,
	        iif(NEW.bot_id < o.bot_id, NEW.rank < o.rank, o.rank < NEW.rank),
	        NEW.rank = o.rank,
	        iif(NEW.bot_id < o.bot_id, NEW.rank > o.rank, o.rank > NEW.rank),
	        iif(NEW.bot_id < o.bot_id, NEW.score - o.score, o.score - NEW.score),
	        (NEW.score - o.score) * (NEW.score - o.score)
	    FROM match_entries o JOIN matches m ON m.seq = o.match_seq
	    WHERE o.match_seq = NEW.match_seq AND o.bot_id <> NEW.bot_id AND o.team <> NEW.team
	    ON CONFLICT (game, ruleset, bot_a, bot_b) DO UPDATE SET
	        meetings = meetings + excluded.meetings,
	        a_wins = a_wins + excluded.a_wins,
	        draws = draws + excluded.draws,
	        b_wins = b_wins + excluded.b_wins,
	        diff_sum = diff_sum + excluded.diff_sum,
	        diff_sq_sum = diff_sq_sum + excluded.diff_sq_sum;
	END;
	CREATE TRIGGER pair_records_remove AFTER DELETE ON match_entries
	BEGIN
	    UPDATE pair_records SET
	        meetings = pair_records.meetings - 1,
	        a_wins = pair_records.a_wins - d.a_wins,
	        draws = pair_records.draws - d.draws,
	        b_wins = pair_records.b_wins - d.b_wins,
	        diff_sum = pair_records.diff_sum - d.diff_sum,
	        diff_sq_sum = pair_records.diff_sq_sum - d.diff_sq_sum
	    FROM (
	        SELECT m.game AS game, m.ruleset AS ruleset,
	            min(o.bot_id, OLD.bot_id) AS bot_a, max(o.bot_id, OLD.bot_id) AS bot_b,
	            iif(OLD.bot_id < o.bot_id, OLD.rank < o.rank, o.rank < OLD.rank) AS a_wins,
	            OLD.rank = o.rank AS draws,
	            iif(OLD.bot_id < o.bot_id, OLD.rank > o.rank, o.rank > OLD.rank) AS b_wins,
	            iif(OLD.bot_id < o.bot_id, OLD.score - o.score, o.score - OLD.score) AS diff_sum,
	            (OLD.score - o.score) * (OLD.score - o.score) AS diff_sq_sum
	        FROM match_entries o JOIN matches m ON m.seq = o.match_seq
	        WHERE o.match_seq = OLD.match_seq AND o.bot_id <> OLD.bot_id AND o.team <> OLD.team) AS d
	    WHERE pair_records.game = d.game AND pair_records.ruleset = d.ruleset
	        AND pair_records.bot_a = d.bot_a AND pair_records.bot_b = d.bot_b;
	    DELETE FROM pair_records WHERE meetings = 0
	        AND (game, ruleset) = (SELECT game, ruleset FROM matches WHERE seq = OLD.match_seq);
	END;
	CREATE TRIGGER match_players_fixed BEFORE UPDATE ON match_players
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s players are fixed: delete the match and ingest it again');
	END;
	CREATE TRIGGER match_entries_fixed BEFORE UPDATE ON match_entries
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s entries are fixed: delete the match and ingest it again');
	END;
	CREATE TRIGGER data_version_entry_deleted AFTER DELETE ON match_entries BEGIN
	    UPDATE data_version SET n = n + 1;
	END;`,
	// Version 12 keeps what went wrong for each seat (seat_trouble: a
	// crash, time-outs, invalid commands, over-long answers, see
	// schema.sql) and its counts per bot version (bot_trouble), and fills
	// them from the events of the stored matches, as store.Troubles counts
	// them in Go; the triggers, created first, count the rows it inserts.
	`
	CREATE TABLE seat_trouble (
	    match_seq      INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    seat           INTEGER NOT NULL CHECK (seat >= 0),
	    bot_id         INTEGER NOT NULL REFERENCES bots (id),
	    crash_turn     INTEGER NOT NULL CHECK (crash_turn >= 0),
	    timeouts       INTEGER NOT NULL CHECK (timeouts >= 0),
	    first_timeout  INTEGER NOT NULL CHECK (first_timeout >= 0),
	    invalid        INTEGER NOT NULL CHECK (invalid >= 0),
	    first_invalid  INTEGER NOT NULL CHECK (first_invalid >= 0),
	    oversize       INTEGER NOT NULL CHECK (oversize >= 0),
	    first_oversize INTEGER NOT NULL CHECK (first_oversize >= 0),
	    PRIMARY KEY (match_seq, seat),
	    CHECK (crash_turn > 0 OR timeouts > 0 OR invalid > 0 OR oversize > 0)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE bot_trouble (
	    bot_id        INTEGER NOT NULL REFERENCES bots (id),
	    ruleset       TEXT    NOT NULL,
	    seats         INTEGER NOT NULL CHECK (seats >= 0),
	    crashed       INTEGER NOT NULL,
	    timed_out     INTEGER NOT NULL,
	    timeouts      INTEGER NOT NULL,
	    invalid_seats INTEGER NOT NULL,
	    invalid       INTEGER NOT NULL,
	    oversized     INTEGER NOT NULL,
	    oversize      INTEGER NOT NULL,
	    PRIMARY KEY (bot_id, ruleset)
	) STRICT, WITHOUT ROWID;
	CREATE TRIGGER seat_trouble_count AFTER INSERT ON seat_trouble BEGIN
	    INSERT INTO bot_trouble (bot_id, ruleset, seats, crashed, timed_out, timeouts, invalid_seats, invalid, oversized, oversize)
	    SELECT NEW.bot_id, m.ruleset, 1, NEW.crash_turn > 0, NEW.timeouts > 0, NEW.timeouts,
	        NEW.invalid > 0, NEW.invalid, NEW.oversize > 0, NEW.oversize
	    FROM matches m WHERE m.seq = NEW.match_seq
	    ON CONFLICT (bot_id, ruleset) DO UPDATE SET seats = seats + 1, crashed = crashed + excluded.crashed,
	        timed_out = timed_out + excluded.timed_out, timeouts = timeouts + excluded.timeouts,
	        invalid_seats = invalid_seats + excluded.invalid_seats, invalid = invalid + excluded.invalid,
	        oversized = oversized + excluded.oversized, oversize = oversize + excluded.oversize;
	END;
	CREATE TRIGGER seat_trouble_uncount AFTER DELETE ON seat_trouble BEGIN
	    UPDATE bot_trouble SET seats = seats - 1, crashed = crashed - (OLD.crash_turn > 0),
	        timed_out = timed_out - (OLD.timeouts > 0), timeouts = timeouts - OLD.timeouts,
	        invalid_seats = invalid_seats - (OLD.invalid > 0), invalid = invalid - OLD.invalid,
	        oversized = oversized - (OLD.oversize > 0), oversize = oversize - OLD.oversize
	    WHERE bot_id = OLD.bot_id AND ruleset = (SELECT ruleset FROM matches WHERE seq = OLD.match_seq);
	    DELETE FROM bot_trouble WHERE bot_id = OLD.bot_id AND seats = 0;
	END;
	CREATE TRIGGER matches_uncount_trouble BEFORE DELETE ON matches BEGIN
	    DELETE FROM seat_trouble WHERE match_seq = OLD.seq;
	END;
	CREATE TRIGGER seat_trouble_fixed BEFORE UPDATE ON seat_trouble
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s trouble is fixed: delete the match and ingest it again');
	END;
	CREATE TRIGGER data_version_trouble_deleted AFTER DELETE ON seat_trouble BEGIN
	    UPDATE data_version SET n = n + 1;
	END;
	INSERT INTO seat_trouble (match_seq, seat, bot_id, crash_turn, timeouts, first_timeout,
	    invalid, first_invalid, oversize, first_oversize)
	SELECT t.match_seq, t.seat, mp.bot_id, t.crash_turn, t.timeouts, t.first_timeout,
	    t.invalid, t.first_invalid, t.oversize, t.first_oversize
	FROM (
	    SELECT match_seq, seat,
	        coalesce(min(turn) FILTER (WHERE kind = 'crash'), 0) AS crash_turn,
	        count(*) FILTER (WHERE kind = 'timeout') AS timeouts,
	        coalesce(min(turn) FILTER (WHERE kind = 'timeout'), 0) AS first_timeout,
	        count(DISTINCT turn) FILTER (WHERE kind = 'invalid') AS invalid,
	        coalesce(min(turn) FILTER (WHERE kind = 'invalid'), 0) AS first_invalid,
	        count(*) FILTER (WHERE kind = 'oversize') AS oversize,
	        coalesce(min(turn) FILTER (WHERE kind = 'oversize'), 0) AS first_oversize
	    FROM events WHERE kind IN ('crash', 'timeout', 'invalid', 'oversize') AND seat >= 0
	    GROUP BY match_seq, seat) t
	JOIN match_players mp ON mp.match_seq = t.match_seq AND mp.seat = t.seat;`,
	// Version 13 keeps the fingerprint of the code that played each seat
	// (the replay header's), so a tournament can tell a bot version that
	// was edited without a new version. Stored matches keep '': their
	// replays were recorded before fingerprints.
	`
	ALTER TABLE match_players ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
	CREATE INDEX match_players_fingerprints ON match_players (bot_id, fingerprint) WHERE fingerprint <> '';`,
	// Version 14 keeps each fork's parent (store.Lineage). No stored
	// match has one: replay headers gained the parent field in the same
	// release, so no replay stored before this version names a parent.
	`
	CREATE TABLE match_parents (
	    match_seq INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
	    parent    TEXT    NOT NULL CHECK (length(parent) = 64 AND parent NOT GLOB '*[^0-9a-f]*'),
	    turn      INTEGER NOT NULL CHECK (turn >= 1)
	) STRICT;
	CREATE INDEX match_parents_by_parent ON match_parents (parent, turn);`,
	// Version 15 keeps the forks of critical sweeps, so an interrupted
	// sweep resumes and the match page charts its decisive turns. No
	// sweep was stored before it.
	`
	CREATE TABLE critical_sweeps (
	    id           INTEGER PRIMARY KEY,
	    match_seq    INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    seat         INTEGER NOT NULL CHECK (seat >= 0),
	    bot          TEXT    NOT NULL CHECK (bot <> ''),
	    fingerprint  TEXT    NOT NULL,
	    name         TEXT    NOT NULL,
	    version      TEXT    NOT NULL,
	    alternatives INTEGER NOT NULL CHECK (alternatives >= 0),
	    UNIQUE (match_seq, seat, bot, fingerprint, alternatives)
	) STRICT;
	CREATE TABLE critical_forks (
	    sweep      INTEGER NOT NULL REFERENCES critical_sweeps (id) ON DELETE CASCADE,
	    turn       INTEGER NOT NULL CHECK (turn >= 1),
	    command    TEXT    NOT NULL,
	    turn_forks INTEGER NOT NULL CHECK (turn_forks >= 1),
	    outcome    TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
	    rank       INTEGER NOT NULL CHECK (rank >= 1),
	    score      REAL    NOT NULL,
	    PRIMARY KEY (sweep, turn, command)
	) STRICT, WITHOUT ROWID;`,
	// Version 16 adds tournament jobs (see schema.sql), which workers on
	// any machine claim and play. No job existed before it: a tournament
	// planned by an older build queues its unplayed matches when it runs
	// again.
	`
	CREATE TABLE jobs (
	    id            INTEGER PRIMARY KEY,
	    key           TEXT    NOT NULL UNIQUE CHECK (key <> ''),
	    tournament    TEXT    NOT NULL,
	    game          TEXT    NOT NULL CHECK (game <> ''),
	    ruleset       TEXT    NOT NULL,
	    revision      INTEGER NOT NULL CHECK (revision >= 1),
	    config        TEXT    NOT NULL CHECK (json_valid(config)),
	    seed          INTEGER NOT NULL,
	    players       TEXT    NOT NULL CHECK (json_valid(players)),
	    specs         TEXT    NOT NULL CHECK (json_valid(specs)),
	    settings      TEXT    NOT NULL CHECK (json_valid(settings)),
	    state         TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
	    lease_owner   TEXT    NOT NULL,
	    lease_expires INTEGER NOT NULL,
	    attempts      INTEGER NOT NULL CHECK (attempts >= 0),
	    reason        TEXT    NOT NULL,
	    match_seq     INTEGER UNIQUE REFERENCES matches (seq) ON DELETE SET NULL
	) STRICT;
	CREATE INDEX jobs_by_state ON jobs (state, lease_expires, id);
	CREATE INDEX jobs_by_tournament ON jobs (tournament, state);`,
	// Version 17 keeps a match's lines and its events as one row each
	// (match_lines, match_events; see schema.sql) instead of a row per
	// line and per event. Packing the stored rows needs Go
	// (packStoredRows), which Open runs after this, in the same
	// transaction, and which drops the old tables.
	`
	CREATE TABLE match_lines (
	    match_seq INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
	    data      BLOB    NOT NULL
	) STRICT;
	CREATE TABLE match_events (
	    match_seq INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
	    data      BLOB    NOT NULL
	) STRICT;`,
	// Version 18 makes match_entries_by_bot cover the filtered lists:
	// with team, rank and outcome in the index, a bot's list by result,
	// rank or opponent no longer reads a row per entry it walks.
	`
	DROP INDEX match_entries_by_bot;
	CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq, team, rank, outcome);`,
	// Version 19 keeps each external bot's answer time per turn
	// (bot_times, beside bot_output). Stored matches have none.
	`
	CREATE TABLE bot_times (
	    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    seat      INTEGER NOT NULL CHECK (seat >= 0),
	    limit_us  INTEGER NOT NULL CHECK (limit_us >= 0),
	    data      BLOB    NOT NULL,
	    PRIMARY KEY (match_seq, seat)
	) STRICT, WITHOUT ROWID;`,
	// Version 20 keeps what each external bot drew over the board per
	// turn (bot_debug, beside bot_output). Stored matches have none.
	`
	CREATE TABLE bot_debug (
	    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
	    turn      INTEGER NOT NULL CHECK (turn >= 1),
	    seat      INTEGER NOT NULL CHECK (seat >= 0),
	    shapes    TEXT    NOT NULL,
	    PRIMARY KEY (match_seq, turn, seat)
	) STRICT, WITHOUT ROWID;`,
	// Version 21 saves a rating fit's state with it (rating_fits.state),
	// so that a server that starts takes new matches in without reading
	// every old one. Stored fits have none: each is fitted once more.
	`
	ALTER TABLE rating_fits ADD COLUMN state BLOB;`,
	// Version 22 keeps each entry's seed (the replay's) and ruleset (the
	// match's) in match_entries and match_entries_by_bot, and the seed in
	// match_entries_by_seed, so that a comparison pairs two bots' matches
	// by seed with a walk of A's entries and one search per seed in B's,
	// instead of four searches through matches and replays per match of
	// A. Entries are fixed (match_entries_fixed): the trigger steps aside
	// while they get their seeds.
	`
	DROP TRIGGER match_entries_fixed;
	DROP INDEX match_entries_by_bot;
	ALTER TABLE match_entries ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE match_entries ADD COLUMN ruleset TEXT NOT NULL DEFAULT '';
	UPDATE match_entries SET seed = s.seed, ruleset = s.ruleset
	FROM (SELECT m.seq, r.seed, m.ruleset FROM matches m JOIN replays r ON r.id = m.id) s
	WHERE s.seq = match_entries.match_seq;
	CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq, team, rank, outcome, seed, ruleset);
	CREATE INDEX match_entries_by_seed ON match_entries (bot_id, seed, match_seq);
	CREATE TRIGGER match_entries_fixed BEFORE UPDATE ON match_entries
	BEGIN
	    SELECT RAISE(ABORT, 'a match''s entries are fixed: delete the match and ingest it again');
	END;`,
}

// packedVersion is the schema version whose upgrade packStoredRows
// completes.
const packedVersion = 17

// packStoredRows moves the rows of series and events, the tables before
// packedVersion, into match_lines and match_events, a match at a time
// (only the matches that have any: a database of summaries alone is
// upgraded at once), and drops the old tables. A line's blob is kept as
// it was written: its first byte names its encoding. Events keep their
// order (turn, then position), which is all their position meant.
func packStoredRows(ctx context.Context, tx *sql.Tx) error {
	var seqs []int64
	rows, err := tx.QueryContext(ctx, `SELECT match_seq FROM series UNION SELECT match_seq FROM events ORDER BY 1`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			rows.Close()
			return err
		}
		seqs = append(seqs, seq)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, seq := range seqs {
		if err := packStoredLines(ctx, tx, seq); err != nil {
			return fmt.Errorf("lines of match %d: %w", seq, err)
		}
		if err := packStoredEvents(ctx, tx, seq); err != nil {
			return fmt.Errorf("events of match %d: %w", seq, err)
		}
	}
	_, err = tx.ExecContext(ctx, `DROP TABLE series; DROP TABLE events`)
	return err
}

// packStoredLines packs the series rows of one match into its match_lines
// row.
func packStoredLines(ctx context.Context, tx *sql.Tx, seq int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT metric, seat, unit, data FROM series WHERE match_seq = ? ORDER BY metric, seat, unit`, seq)
	if err != nil {
		return err
	}
	var (
		body []byte
		n    int
	)
	for rows.Next() {
		var (
			metric, seat, unit int
			data               []byte
		)
		if err := rows.Scan(&metric, &seat, &unit, &data); err != nil {
			rows.Close()
			return err
		}
		body = appendPackedLine(body, metric, seat, unit, data)
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO match_lines (match_seq, data) VALUES (?, ?)`, seq, compressPack(append(packHeader(nil, n), body...)))
	return err
}

// packStoredEvents packs the events rows of one match into its
// match_events row.
func packStoredEvents(ctx context.Context, tx *sql.Tx, seq int64) error {
	rows, err := tx.QueryContext(ctx, `
		SELECT turn, seat, unit, kind, target, amount, x, y, detail FROM events WHERE match_seq = ? ORDER BY turn, pos`, seq)
	if err != nil {
		return err
	}
	var evs []TurnEvent
	for rows.Next() {
		var e TurnEvent
		if err := rows.Scan(&e.Turn, &e.Seat, &e.Unit, &e.Kind, &e.Target, &e.Amount, &e.X, &e.Y, &e.Detail); err != nil {
			rows.Close()
			return err
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil || len(evs) == 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO match_events (match_seq, data) VALUES (?, ?)`, seq, compressPack(packEvents(nil, evs)))
	return err
}

// upgradeInGo completes the upgrade to version v, on either backend, with
// what its SQL cannot do.
func upgradeInGo(ctx context.Context, tx *sql.Tx, v int) error {
	if v != packedVersion {
		return nil
	}
	if err := packStoredRows(ctx, tx); err != nil {
		return fmt.Errorf("migrate schema to version %d: %w", v, err)
	}
	return nil
}
