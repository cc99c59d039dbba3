-- The seat of the person who created the game (0 = P1, 1 = P2): only they are shown the
-- invite link, which carries the other seat's token.
ALTER TABLE games ADD COLUMN creator_seat INTEGER;
