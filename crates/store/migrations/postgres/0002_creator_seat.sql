-- The seat of the person who created the game (0 = P1, 1 = P2).
ALTER TABLE games ADD COLUMN creator_seat BIGINT;
