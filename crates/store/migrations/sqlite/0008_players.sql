-- Players and ratings. A player is a person at a browser: a guest with a random friendly
-- name (known by a signed cookie) or, once registered, an account with a login name (kept in
-- lower case, so unique whatever the case) and an argon2 password hash (a PHC string).
CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    account    TEXT UNIQUE,
    password   TEXT,
    created_ms BIGINT NOT NULL
);

-- Values the server makes once and every node shares (the key that signs player cookies).
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- A player's Glicko-2 rating in one game (1500/350/0.06 before their first rated game).
CREATE TABLE ratings (
    player     TEXT NOT NULL,
    game       TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX ratings_by_game ON ratings (game, rating);

-- Each rating after each rated game, for the player page's plot.
CREATE TABLE rating_history (
    player    TEXT NOT NULL,
    game      TEXT NOT NULL,
    game_id   TEXT NOT NULL,
    at_ms     BIGINT NOT NULL,
    rating    REAL NOT NULL,
    deviation REAL NOT NULL,
    PRIMARY KEY (player, game_id)
);
CREATE INDEX rating_history_by_player ON rating_history (player, game, at_ms);

-- The games whose result changed the ratings: inserted in the same transaction as the new
-- ratings, so a result counts once however many nodes apply it.
CREATE TABLE rated_games (
    game_id TEXT PRIMARY KEY,
    at_ms   BIGINT NOT NULL
);
