-- How many times turns were taken back in a game (undos are limited per game).
ALTER TABLE games ADD COLUMN undos BIGINT NOT NULL DEFAULT 0;
