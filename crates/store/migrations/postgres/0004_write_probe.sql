-- One row the store rewrites to find out whether it can write at all.
CREATE TABLE write_probe (
    id    BIGINT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
