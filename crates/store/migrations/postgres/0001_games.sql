-- Games, their seats, their moves and their event log (PostgreSQL: every integer is BIGINT,
-- so one code path reads them as i64 on both databases).
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    variant       TEXT NOT NULL,
    -- 'computer', 'hotseat' or 'invite'
    mode          TEXT NOT NULL,
    -- computer level 1-10, for mode 'computer'
    level         BIGINT,
    -- the seat the computer plays (0 = P1, 1 = P2), for mode 'computer'
    computer_seat BIGINT,
    token_p1      TEXT NOT NULL,
    token_p2      TEXT NOT NULL,
    -- 'live' or 'finished'
    status        TEXT NOT NULL,
    -- 'P1', 'P2' (the winner) or 'draw' once finished
    winner        TEXT,
    -- why it finished: 'rules', 'resigned' or 'agreed'
    reason        TEXT,
    version       BIGINT NOT NULL,
    created_ms    BIGINT NOT NULL,
    updated_ms    BIGINT NOT NULL
);

CREATE INDEX games_by_update ON games (status, updated_ms);

CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        BIGINT NOT NULL,
    notation   TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    -- the event as JSON text
    body    TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
