-- replaylab SQLite schema, version 22.
--
-- store.Open applies this file to a fresh database inside one transaction
-- and then sets PRAGMA user_version to 22 and PRAGMA application_id to
-- 0x52504c42 ("RPLB"), which marks the file as replaylab's: Open refuses an
-- SQLite file with another application_id and tables of its own. A schema
-- change edits this file and appends to store/upgrades.go the statements
-- that bring a database of the previous version to the same schema, so
-- every older database can be brought forward.
--
-- Conventions:
--   * A replay's id, and the id of the match regenerated from it, is the
--     lower-case hex SHA-256 of the canonical binary replay (64 characters).
--   * Times are Unix milliseconds, UTC (INTEGER): they sort as numbers and
--     convert with datetime(x / 1000, 'unixepoch') in the sqlite3 shell.
--   * A seed is a Go uint64 stored as the INTEGER with the same 64 bits
--     (int64(seed)), so it stays exact and compact; seeds of 2^63 and above
--     read as negative numbers in SQL and are turned back into uint64 in Go.
--   * Rows derived from a match refer to it by matches.seq, a small integer,
--     not by its 64-character id: per-turn tables hold thousands of rows
--     per match, and repeating the text key in each of them doubled the
--     size of the database and made ingest a third slower.
--   * Seats count from 0. Unit -1 is the player as a whole (sim.NoUnit).
--   * Tables are STRICT so a value of the wrong type is an error instead of
--     being silently stored as something else.
--   * Child rows cascade from their match and replay, so deleting a replay
--     removes everything derived from it.

-- The uploaded replays: the source of truth everything else is regenerated
-- from.
CREATE TABLE replays (
    id          TEXT    PRIMARY KEY CHECK (length(id) = 64 AND id NOT GLOB '*[^0-9a-f]*'),
    game        TEXT    NOT NULL CHECK (game <> ''),
    ruleset     TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    config      TEXT    NOT NULL CHECK (json_valid(config)),
    encoded     BLOB    NOT NULL,
    uploaded_at INTEGER NOT NULL
) STRICT;

-- Replays of one game, ruleset and seed: a tournament looks up which
-- lineups it has already played on each of its seeds (store.MatchesOnSeed).
CREATE INDEX replays_by_seed ON replays (game, ruleset, seed);

-- A replay's seed and config by its id, without its encoded log: a
-- comparison reads its pairs' lineups by them (store.PairLineups).
CREATE INDEX replays_lineup ON replays (id, seed, config);

-- One regenerated match per replay. game and ruleset repeat the replay's so
-- that listing and counting matches need no join. seq numbers matches in the
-- order they were stored, so "newest first" is the table's own order.
CREATE TABLE matches (
    seq            INTEGER PRIMARY KEY,
    id             TEXT    NOT NULL UNIQUE REFERENCES replays (id) ON DELETE CASCADE,
    game           TEXT    NOT NULL,
    ruleset        TEXT    NOT NULL,
    turns          INTEGER NOT NULL CHECK (turns >= 0),
    winner         INTEGER CHECK (winner >= 0), -- seat; NULL for a draw or no winner
    reason         TEXT    NOT NULL,
    engine_version TEXT    NOT NULL,
    regen_ms       REAL    NOT NULL,
    created_at     INTEGER NOT NULL
) STRICT;

-- Matches of one game, newest first (an index ends with the rowid, seq).
CREATE INDEX matches_by_game ON matches (game);

-- Matches of one game under one ruleset in the order they were stored:
-- the rating fit reads all of them in seq order, and counts them.
CREATE INDEX matches_by_ruleset ON matches (game, ruleset);

-- The match a fork was played from (the replay header's parent): its full
-- id and the last turn taken from it. parent is kept as the header gives
-- it, not as a reference: a fork may be uploaded without its parent, and
-- deleting a parent leaves its forks naming it. Only forks have a row.
CREATE TABLE match_parents (
    match_seq INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
    parent    TEXT    NOT NULL CHECK (length(parent) = 64 AND parent NOT GLOB '*[^0-9a-f]*'),
    turn      INTEGER NOT NULL CHECK (turn >= 1)
) STRICT;

-- A match's forks, by the turn they left it.
CREATE INDEX match_parents_by_parent ON match_parents (parent, turn);

-- Critical sweeps (replaylab critical --db): a match forked at many turns
-- with each alternative command of one seat in place of the recorded one,
-- the seat then played on by one bot. A sweep is its match, seat, bot (the
-- spec as given, with the fingerprint of an external bot's code: edited
-- code is another sweep) and how many alternatives a turn tries (0: all),
-- so a rerun of the same sweep finds the forks it already played. name
-- and version are the bot's player entry, for people.
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

-- One played fork of a sweep: the seat played command at turn instead of
-- the recorded one, and the fork ended with the seat's outcome, rank and
-- score. turn_forks is how many forks the sweep plays at that turn, so a
-- turn half played (a sweep killed) tells itself from a whole one. Each
-- row is written as its fork finishes.
CREATE TABLE critical_forks (
    sweep      INTEGER NOT NULL REFERENCES critical_sweeps (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL CHECK (turn >= 1),
    command    TEXT    NOT NULL,
    turn_forks INTEGER NOT NULL CHECK (turn_forks >= 1),
    outcome    TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    rank       INTEGER NOT NULL CHECK (rank >= 1),
    score      REAL    NOT NULL,
    PRIMARY KEY (sweep, turn, command)
) STRICT, WITHOUT ROWID;

-- Tournament jobs: the planned matches of tournaments, which workers
-- (replaylab worker, and tournament's own) claim, play and store. key
-- names the match (its game, ruleset, config, seed and the name and
-- version in each seat), so one planned match is one job whoever plans
-- it; tournament is the plan that last queued it. revision is the rules
-- revision the planner's build plays: a worker claims only the jobs of
-- the revisions it plays. players, specs and settings are the replay
-- header's players, each seat's bot spec and how to play (timeouts,
-- hash interval), as JSON. A running job belongs to lease_owner until
-- lease_expires (Unix milliseconds), which its worker pushes on while it
-- plays; a job whose lease ran out is claimed again. match_seq is the
-- stored match, set in the transaction that stores it, and unique: no
-- job is stored twice.
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

-- The next job to claim: a running one whose lease ran out first, else
-- the oldest queued one (queued jobs have lease_expires 0).
CREATE INDEX jobs_by_state ON jobs (state, lease_expires, id);

-- A tournament's jobs, counted by state (tournament --status).
CREATE INDEX jobs_by_tournament ON jobs (tournament, state);

-- A bot is a name and version within one game; versions of a bot are
-- compared against each other, so each is its own row.
CREATE TABLE bots (
    id      INTEGER PRIMARY KEY,
    game    TEXT    NOT NULL,
    name    TEXT    NOT NULL CHECK (name <> ''),
    version TEXT    NOT NULL,
    UNIQUE (game, name, version)
) STRICT;

-- Who sat where and how it ended for them. team is the lowest seat of
-- the seat's team (sim.Result.TeamOf): seats with the same team played
-- together (FoodFight TEAM: seats 0 and 1, 2 and 3); a seat alone is its
-- own team. fingerprint is the replay header's fingerprint of the code
-- that played the seat ('' for a built-in bot or a replay without one):
-- a tournament refuses to play a bot version whose stored matches were
-- played by other code (store.Fingerprints).
CREATE TABLE match_players (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    bot_id    INTEGER NOT NULL REFERENCES bots (id),
    score     REAL    NOT NULL DEFAULT 0,
    rank      INTEGER NOT NULL CHECK (rank >= 1),
    outcome   TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    team      INTEGER NOT NULL CHECK (team >= 0 AND team <= seat),
    fingerprint TEXT  NOT NULL DEFAULT '',
    PRIMARY KEY (match_seq, seat)
) STRICT, WITHOUT ROWID;

-- A bot's recent matches are the last entries of its range.
CREATE INDEX match_players_by_bot ON match_players (bot_id, match_seq);

-- The fingerprints each bot version was played with, read without
-- visiting its matches; partial, so seats without one cost nothing.
CREATE INDEX match_players_fingerprints ON match_players (bot_id, fingerprint) WHERE fingerprint <> '';

-- A match as each bot version in it counts it: one row per match and bot
-- version, holding its best seat (a win beats a draw beats a loss, then
-- the better rank, the higher score, the lower seat; store.Entries) with
-- that seat's team, and how many seats the version held. Ingest writes
-- them beside the seats; every record below counts these, so a bot in
-- three of Snake's five seats plays one match, with its best seat's
-- result.
CREATE TABLE match_entries (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    bot_id    INTEGER NOT NULL REFERENCES bots (id),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    seats     INTEGER NOT NULL CHECK (seats >= 1),
    team      INTEGER NOT NULL CHECK (team >= 0),
    score     REAL    NOT NULL,
    rank      INTEGER NOT NULL CHECK (rank >= 1),
    outcome   TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    seed      INTEGER NOT NULL, -- the replay's, for pairing matches by seed
    ruleset   TEXT    NOT NULL, -- the match's, for a comparison's walk
    PRIMARY KEY (match_seq, bot_id)
) STRICT, WITHOUT ROWID;

-- Per-bot filters start from the bot, and a bot's recent matches are the
-- last entries of its range. The index holds every column the filtered
-- lists read of an entry (store.MatchFilter.entrySeqs: team, rank,
-- outcome) and the seed and ruleset a comparison pairs on
-- (store.PairLineups), so they walk it without reading the rows.
CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq, team, rank, outcome, seed, ruleset);

-- A bot version's matches on one seed: a comparison looks up B's matches
-- on each of A's seeds with one search (store.PairLineups).
CREATE INDEX match_entries_by_seed ON match_entries (bot_id, seed, match_seq);

-- Per-turn numbers: the lines of a match, one per metric of each player
-- (unit -1) or unit, packed into one blob (store.packLines), one row per
-- match that has any. metric is the metric's index in the list its game
-- declares (sim.Game.Metrics), or -1 for whether the player or unit is
-- alive; storage never names a metric or a game's fields. Each line holds
-- its value at every turn 0..turns (store.encodeLine: runs of equal steps,
-- or packed blocks of varying steps, between whole values or decimals of a
-- few digits, a metric rounded to its resolution; bit-exact runs
-- otherwise; the first byte says which), so a line that rarely changes
-- costs a few bytes. One row a match, not one a line: a row and its index
-- entry cost more than most lines (over 100 bytes on PostgreSQL), and
-- every reader wants a match's lines together. A rowid table: SQLite
-- stores a long blob in whole overflow pages, where an index's (WITHOUT
-- ROWID) leaves most of its last overflow page empty.
CREATE TABLE match_lines (
    match_seq INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
    data      BLOB    NOT NULL
) STRICT;

-- What happened in each turn: the events of a match in the order the game
-- emitted them, by turn, packed into one blob (store.packEvents: each kind
-- and detail once, then each event as varints), one row per match that
-- has any. An event is its turn, seat (-1: the game itself), unit, kind,
-- target, amount, x, y and detail; pages of events (store.Events) count
-- an event by its turn and its position in the turn.
CREATE TABLE match_events (
    match_seq INTEGER PRIMARY KEY REFERENCES matches (seq) ON DELETE CASCADE,
    data      BLOB    NOT NULL
) STRICT;

-- What went wrong for the bot of a seat (store.Troubles): the turn its
-- process exited (0: it did not), how many time-outs, commands the game
-- rejected and over-long answers it had, with the turn of the first of
-- each (0: none). Ingest writes a row only for a seat that had any, from
-- the match's events, so a list of the matches with trouble reads these
-- few rows instead of every event. bot_id repeats the seat's bot, so the
-- counts below need not find a seat that a deleted match took first.
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

-- What an external bot wrote besides its answers in a turn: its standard
-- error and stray standard output, as the recorder saved them (record's
-- FILE.output.jsonl, which import reads beside FILE). The turn is the one
-- whose command the bot was answering; what a bot wrote while it was
-- being ended goes to the last turn. Each text is at most
-- store.MaxBotOutput bytes.
CREATE TABLE bot_output (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    turn      INTEGER NOT NULL CHECK (turn >= 0),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    stream    TEXT    NOT NULL CHECK (stream IN ('stdout', 'stderr')),
    text      TEXT    NOT NULL,
    PRIMARY KEY (match_seq, turn, seat, stream)
) STRICT, WITHOUT ROWID;

-- How long each external bot took to answer, per turn (Answer.Time): one
-- row per timed seat of a match, data the times in microseconds from
-- turn 1, each a uvarint, 0 for a turn not timed; limit_us the turn
-- limit the bot had, 0 when not known. Stored with the bot output, never
-- in the replay.
CREATE TABLE bot_times (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    limit_us  INTEGER NOT NULL CHECK (limit_us >= 0),
    data      BLOB    NOT NULL,
    PRIMARY KEY (match_seq, seat)
) STRICT, WITHOUT ROWID;

-- What each external bot drew over the board, per turn (Answer.Debug):
-- shapes, the normalised JSON array of replay.ParseDebug, at most 4 KiB,
-- and at most 1 MiB per seat of a match. Stored with the bot output, never
-- in the replay.
CREATE TABLE bot_debug (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    turn      INTEGER NOT NULL CHECK (turn >= 1),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    shapes    TEXT    NOT NULL,
    PRIMARY KEY (match_seq, turn, seat)
) STRICT, WITHOUT ROWID;

-- Aggregates. The leaderboards, the overview and the bot pages read these
-- small tables instead of counting matches, so they cost the same at ten
-- matches or a million. Triggers keep them in the transaction that inserts
-- or deletes a match, so they always equal a recount (store's tests check
-- that against the GROUP BY they replace). Matches and their players are
-- inserted and deleted, never updated; a row whose count reaches 0 goes.

-- The record of a bot version under one ruleset, over its entries
-- (match_entries): matches counts the matches it played, once each
-- however many seats it held, so matches = wins + draws + losses, and
-- score_sum / matches is the mean score of its best seats; seats counts
-- the seats it held in them.
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

-- The matches a bot of one name played, whatever its version, seats or
-- ruleset: what a bot page says it played.
CREATE TABLE bot_matches (
    game    TEXT    NOT NULL,
    name    TEXT    NOT NULL,
    matches INTEGER NOT NULL CHECK (matches >= 0),
    PRIMARY KEY (game, name)
) STRICT, WITHOUT ROWID;

-- The matches of each game and ruleset.
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

-- A cascade deletes the entries and players after their match, where the
-- entry triggers could no longer find its ruleset, so the match deletes
-- them first itself.
CREATE TRIGGER matches_uncount_players BEFORE DELETE ON matches BEGIN
    DELETE FROM match_entries WHERE match_seq = OLD.seq;
    DELETE FROM match_players WHERE match_seq = OLD.seq;
END;

CREATE TRIGGER matches_uncount AFTER DELETE ON matches BEGIN
    UPDATE game_matches SET matches = matches - 1 WHERE game = OLD.game AND ruleset = OLD.ruleset;
    DELETE FROM game_matches WHERE game = OLD.game AND ruleset = OLD.ruleset AND matches = 0;
END;

-- A match's bot_matches count goes up with the first of its entries of a
-- bot of that name (any version), and down with the last of them deleted.
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

-- How often a bot version's seats went wrong under one ruleset, over its
-- seat_trouble rows: seats counts its seats with any trouble, crashed,
-- timed_out, invalid_seats and oversized those with each kind, and
-- timeouts, invalid and oversize add up their counts. A bot page divides
-- them by the seats of its bot_records row. A version with no trouble has
-- no row.
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

-- As with the entries, a cascade would delete a match's trouble after the
-- match, when its ruleset can no longer be read: the match deletes it
-- first.
CREATE TRIGGER matches_uncount_trouble BEFORE DELETE ON matches BEGIN
    DELETE FROM seat_trouble WHERE match_seq = OLD.seq;
END;

-- How each pair of bot versions did against each other under one ruleset,
-- kept by the triggers below as matches come and go, so a head-to-head
-- matrix reads one row per pair instead of every match. bot_a is the lower
-- bot id. A match holds a meeting for every pair of its entries
-- (match_entries) on different teams: one meeting per pair of bot
-- versions per match, between their best seats; the better rank wins,
-- equal ranks draw. Team-mates never meet, and a version never meets
-- itself. diff_sum and diff_sq_sum add up bot_a's score minus bot_b's and
-- its square, for the mean difference and its interval. game and ruleset
-- repeat the match's so that one board is one range of the key.
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

-- An entry meets every entry of another team stored before it: by the
-- last entry each such pair has met once.
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

-- An entry that goes takes its meetings with it: it un-meets every entry
-- of another team of its match still stored. A deleted match deletes its
-- entries first (matches_uncount_players), while its game and ruleset can
-- still be read.
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

-- A match's players and entries are never updated: the records above
-- count them as they were inserted.
CREATE TRIGGER match_players_fixed BEFORE UPDATE ON match_players
BEGIN
    SELECT RAISE(ABORT, 'a match''s players are fixed: delete the match and ingest it again');
END;
CREATE TRIGGER match_entries_fixed BEFORE UPDATE ON match_entries
BEGIN
    SELECT RAISE(ABORT, 'a match''s entries are fixed: delete the match and ingest it again');
END;
CREATE TRIGGER seat_trouble_fixed BEFORE UPDATE ON seat_trouble
BEGIN
    SELECT RAISE(ABORT, 'a match''s trouble is fixed: delete the match and ingest it again');
END;

-- The last rating fit of each game and ruleset (analytics.Refitter): over
-- how many matches, up to which seq, and when. problem says why there are
-- no ratings (for example, no match had two seats); it is '' when the fit
-- succeeded. state is what the fit needs to take new matches in without
-- reading the old ones again (analytics' encoding of its last full fit,
-- whose first byte is the layout's version), written with the ratings; it
-- is NULL when the fit has a problem or was saved before version 21.
CREATE TABLE rating_fits (
    game      TEXT    NOT NULL,
    ruleset   TEXT    NOT NULL,
    matches   INTEGER NOT NULL CHECK (matches >= 0),
    last_seq  INTEGER NOT NULL CHECK (last_seq >= 0), -- 0: no match
    fitted_at INTEGER NOT NULL,
    problem   TEXT    NOT NULL,
    state     BLOB,
    PRIMARY KEY (game, ruleset)
) STRICT, WITHOUT ROWID;

-- The latest rating of each bot version under each ruleset of its game,
-- from the fit in rating_fits: the rating, its 95% interval and the
-- matches it played. A refit replaces a ruleset's rows.
CREATE TABLE ratings (
    bot_id  INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
    ruleset TEXT    NOT NULL,
    rating  REAL    NOT NULL,
    ci_low  REAL    NOT NULL,
    ci_high REAL    NOT NULL,
    matches INTEGER NOT NULL CHECK (matches >= 0),
    PRIMARY KEY (bot_id, ruleset)
) STRICT, WITHOUT ROWID;

-- Rating history: the ratings of the fit over the first upto matches of
-- the ruleset (in seq order), at a few dozen checkpoints; matches is how
-- many of those the bot version played. A refit replaces a ruleset's rows.
CREATE TABLE rating_history (
    bot_id  INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
    ruleset TEXT    NOT NULL,
    upto    INTEGER NOT NULL CHECK (upto >= 1),
    rating  REAL    NOT NULL,
    ci_low  REAL    NOT NULL,
    ci_high REAL    NOT NULL,
    matches INTEGER NOT NULL CHECK (matches >= 0),
    PRIMARY KEY (bot_id, ruleset, upto)
) STRICT, WITHOUT ROWID;

-- A counter of the changes to what the leaderboards, the overview, the
-- bot, head-to-head and ratings pages show, all of which derive from the
-- stored matches and rating fits: the triggers below add one on every
-- match stored, changed or deleted and every fit saved or removed (a
-- fit's ratings and history are only written with its rating_fits row).
-- The web server keeps rendered pages for as long as it is unchanged
-- (DB.DataVersion), by any process writing the file.
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
CREATE TRIGGER data_version_player_deleted AFTER DELETE ON match_players BEGIN
    UPDATE data_version SET n = n + 1;
END;
CREATE TRIGGER data_version_entry_deleted AFTER DELETE ON match_entries BEGIN
    UPDATE data_version SET n = n + 1;
END;
CREATE TRIGGER data_version_trouble_deleted AFTER DELETE ON seat_trouble BEGIN
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
END;
