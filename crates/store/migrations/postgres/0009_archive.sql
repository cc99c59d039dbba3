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

-- Every position of every archived game and the turn played from it, with the game's result
-- copied here, so that the explorer's question (the turns from a position, their counts and
-- results) is answered from one index alone. `position` is ply_core::position_key of the
-- position string: transpositions share it. Rows are only ever added with their archive row
-- (no foreign key: checking one per turn would slow large imports for nothing).
CREATE TABLE archive_positions (
    position BIGINT NOT NULL,
    move     TEXT NOT NULL,
    result   TEXT NOT NULL,
    game_id  TEXT NOT NULL,
    ply      INTEGER NOT NULL,
    PRIMARY KEY (position, move, result, game_id, ply)
);
