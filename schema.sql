-- replaylab SQLite schema, version 2.
--
-- store.Open applies this file to a fresh database inside one transaction
-- and then sets PRAGMA user_version to 2 and PRAGMA application_id to
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

-- A bot is a name and version within one game; versions of a bot are
-- compared against each other, so each is its own row.
CREATE TABLE bots (
    id      INTEGER PRIMARY KEY,
    game    TEXT    NOT NULL,
    name    TEXT    NOT NULL CHECK (name <> ''),
    version TEXT    NOT NULL,
    UNIQUE (game, name, version)
) STRICT;

-- Who sat where and how it ended for them.
CREATE TABLE match_players (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    bot_id    INTEGER NOT NULL REFERENCES bots (id),
    score     REAL    NOT NULL DEFAULT 0,
    rank      INTEGER NOT NULL CHECK (rank >= 1),
    outcome   TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    PRIMARY KEY (match_seq, seat)
) STRICT, WITHOUT ROWID;

-- Per-bot filters and leaderboards start from the bot.
CREATE INDEX match_players_by_bot ON match_players (bot_id, outcome);

-- Per-turn numbers, one row per line: one metric of one player (unit -1)
-- or unit over the whole match. metric is the metric's index in the list
-- its game declares (sim.Game.Metrics), or -1 for whether the player or
-- unit is alive; storage never names a metric or a game's fields. data
-- holds the line's value at every turn 0..turns (store.encodeLine: runs of
-- equal steps between whole values, bit-exact runs otherwise), so a chart
-- reads one row per line instead of one per turn, and a line that rarely
-- changes costs a few bytes. WITHOUT ROWID: rows are small and always read
-- by their key.
CREATE TABLE series (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    metric    INTEGER NOT NULL CHECK (metric >= -1),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    unit      INTEGER NOT NULL CHECK (unit >= -1),
    data      BLOB    NOT NULL,
    PRIMARY KEY (match_seq, metric, seat, unit)
) STRICT, WITHOUT ROWID;

-- What happened in each turn. pos is the event's position in the match, so
-- events keep the order the game emitted them in; the key serves turn-range
-- reads directly.
CREATE TABLE events (
    match_seq INTEGER NOT NULL REFERENCES matches (seq) ON DELETE CASCADE,
    turn      INTEGER NOT NULL CHECK (turn >= 0),
    pos       INTEGER NOT NULL,
    seat      INTEGER NOT NULL CHECK (seat >= -1), -- -1: the game itself
    unit      INTEGER NOT NULL CHECK (unit >= -1),
    kind      TEXT    NOT NULL CHECK (kind <> ''),
    target    INTEGER NOT NULL CHECK (target >= -1),
    amount    REAL    NOT NULL,
    x         INTEGER NOT NULL,
    y         INTEGER NOT NULL,
    detail    TEXT    NOT NULL,
    PRIMARY KEY (match_seq, turn, pos)
) STRICT, WITHOUT ROWID;

-- The last rating fit of each game and ruleset (analytics.Refitter): over
-- how many matches, up to which seq, and when. problem says why there are
-- no ratings (for example, no match had two seats); it is '' when the fit
-- succeeded.
CREATE TABLE rating_fits (
    game      TEXT    NOT NULL,
    ruleset   TEXT    NOT NULL,
    matches   INTEGER NOT NULL CHECK (matches >= 0),
    last_seq  INTEGER NOT NULL CHECK (last_seq >= 0), -- 0: no match
    fitted_at INTEGER NOT NULL,
    problem   TEXT    NOT NULL,
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
