-- How many times turns were taken back in a game: undos are limited per game, so a
-- move/undo loop cannot grow a game's log without end.
ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
