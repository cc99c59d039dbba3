-- One row the store rewrites to find out whether it can write at all: at start (a read-only
-- file or folder refuses to start) and when `/health` is asked after a failed write.
CREATE TABLE write_probe (
    id    INTEGER PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
