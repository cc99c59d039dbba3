-- Games between people: who holds each seat (a player id, see 0008), whether the game is
-- rated, and its clock. `clock` is the time control as text: 'fischer:<initial ms>:<increment
-- ms>' or 'days:<days per move>'; `p1_ms`/`p2_ms` the time each seat has left at the start of
-- the current turn, `turn_started_ms` when that turn began, and `deadline_ms` when the player
-- to move runs out of time (indexed: a node looks for games past their deadline and flags
-- them, even when nobody follows them).
ALTER TABLE games ADD COLUMN p1_player TEXT;
ALTER TABLE games ADD COLUMN p2_player TEXT;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN p1_ms BIGINT;
ALTER TABLE games ADD COLUMN p2_ms BIGINT;
ALTER TABLE games ADD COLUMN turn_started_ms BIGINT;
ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
-- The game its players went on to, when they agreed to a rematch.
ALTER TABLE games ADD COLUMN rematch_id TEXT;
CREATE INDEX games_by_deadline ON games (status, deadline_ms);
CREATE INDEX games_by_p1_player ON games (p1_player, updated_ms);
CREATE INDEX games_by_p2_player ON games (p2_player, updated_ms);

-- Open challenges of the lobby. A seek is open while its creator's page holds it
-- (`held_ms`, renewed every few seconds; a seek not held for a while is gone: its creator
-- left). Accepting one claims it (`game_id`), makes the game and leaves the creator's way in
-- (`creator_url`) for the creator's page to follow.
CREATE TABLE seeks (
    id          TEXT PRIMARY KEY,
    -- the secret that holds or cancels it
    token       TEXT NOT NULL,
    -- the player who made it (players table), when known
    player      TEXT,
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    clock       TEXT,
    rated       BIGINT NOT NULL DEFAULT 0,
    -- the seat the creator wants: 'P1', 'P2' or 'random'
    colour      TEXT NOT NULL,
    created_ms  BIGINT NOT NULL,
    held_ms     BIGINT NOT NULL,
    game_id     TEXT,
    creator_url TEXT
);
