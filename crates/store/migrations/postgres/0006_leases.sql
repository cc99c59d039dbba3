-- Which server node searches a game's computer move, until when: with several nodes on one
-- database, exactly one searches, and another takes over when the lease runs out.
CREATE TABLE computer_leases (
    game_id  TEXT PRIMARY KEY,
    node     TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
