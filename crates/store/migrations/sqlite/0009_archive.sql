-- The archive: every finished game, played here or read from a record (`ply import --into`),
-- with what a search asks for; and every position of those games, for the opening explorer.
-- A game read from a record is also a row of `games` (mode 'imported', finished) with its
-- moves, so it opens in the replay and analysis views like any other.
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
    UNIQUE (source, source_key)
);
CREATE INDEX archive_by_date ON archive (played_ms, game_id);
CREATE INDEX archive_by_variant ON archive (game, variant, played_ms);
CREATE INDEX archive_by_p1 ON archive (p1_key, played_ms);
CREATE INDEX archive_by_p2 ON archive (p2_key, played_ms);
CREATE INDEX archive_by_plies ON archive (plies, played_ms);

-- Every position of every archived game and the turn played from it, with the game's result
-- copied here so that the explorer's question (the turns from a position, their counts and
-- results) is answered from one index alone. `position` is ply_core::position_key of the
-- position string: transpositions share it.
CREATE TABLE archive_positions (
    position BIGINT NOT NULL,
    game_id  TEXT NOT NULL REFERENCES archive (game_id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    move     TEXT NOT NULL,
    result   TEXT NOT NULL
);
CREATE INDEX archive_positions_by_position ON archive_positions (position, move, result);
CREATE INDEX archive_positions_by_game ON archive_positions (game_id);
