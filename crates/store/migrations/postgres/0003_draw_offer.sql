-- The seat ('P1' or 'P2') with a pending offer of a draw, so an offer outlives a restart.
ALTER TABLE games ADD COLUMN draw_offer TEXT;
