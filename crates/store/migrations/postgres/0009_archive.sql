-- The archive: every finished game, played here or read from a record (`ply import --into`),
-- with what a search asks for; and every position of those games, for the opening explorer.
-- A game read from a record is also a row of `games` (mode 'imported', finished), so it opens
-- in the replay and analysis views like any other; its turns are kept here, in `moves`, one
-- text (a large import writes one row a game instead of one a turn).
CREATE TABLE archive (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    game       TEXT NOT NULL,
    variant    TEXT NOT NULL,
    p1_name    TEXT NOT NULL,
    p2_name    TEXT NOT NULL,
    -- the names in lower case, for searches that ignore case
    p1_key     TEXT NOT NULL,
    p2_key     TEXT NOT NULL,
    -- 'P1' or 'P2' (the winner), 'draw', or 'unknown' (a record that does not say)
    result     TEXT NOT NULL,
    -- why it ended: 'rules', 'resigned', 'agreed', 'time', or NULL when the record does not say
    reason     TEXT,
    plies      INTEGER NOT NULL,
    -- when it was played (Unix milliseconds; a record's date at midnight UTC)
    played_ms  BIGINT NOT NULL,
    -- where it comes from: 'ply' for games played here, else the record's site
    source     TEXT NOT NULL,
    -- its name there (a record's game name or file name; a game id here): importing the same
    -- record again finds it and adds nothing
    source_key TEXT NOT NULL,
    -- a game read from a record: its turns, separated by spaces (NULL for a game played here,
    -- whose turns are in the table `moves`)
    moves      TEXT,
    UNIQUE (source, source_key)
);
CREATE INDEX archive_by_date ON archive (played_ms, game_id);
CREATE INDEX archive_by_variant ON archive (game, variant, played_ms);
CREATE INDEX archive_by_p1 ON archive (p1_key, played_ms);
CREATE INDEX archive_by_p2 ON archive (p2_key, played_ms);
CREATE INDEX archive_by_plies ON archive (plies, played_ms);

CREATE INDEX archive_by_result ON archive (result, played_ms);

-- The opening explorer: for every position of the archived games and every turn played from
-- it, how often and how those games ended, with the most recent game that played it. Kept as
-- counts (added to as games are archived) so that a position played in tens of thousands of
-- games is answered by reading a few rows. `position` is ply_core::position_key of the position
-- string: transpositions share it. A position reached twice in one game counts twice.
CREATE TABLE explorer (
    position       BIGINT NOT NULL,
    move           TEXT NOT NULL,
    games          BIGINT NOT NULL,
    p1_wins        BIGINT NOT NULL,
    p2_wins        BIGINT NOT NULL,
    draws          BIGINT NOT NULL,
    last_game_id   TEXT NOT NULL,
    last_played_ms BIGINT NOT NULL,
    PRIMARY KEY (position, move)
);
