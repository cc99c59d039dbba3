# zertz rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = Place shared marbles and remove rings; jumps capture. Collect 4 white, 5 grey, 6 black or 3 of each to win.

rules-section-1 = Turn
rules-section-1-1 = If any marble can jump, you must capture: jump a marble over an adjacent one onto an empty ring behind it, and keep jumping with the same marble while you can.
rules-section-1-2 = Otherwise place a marble of any colour from the shared pool on an empty ring, then remove one free ring from the edge (one you can slide out without moving others).
rules-section-1-3 = When the pool is empty, you place from your own captures.

rules-section-2 = Isolation
rules-section-2-1 = A group of rings cut off from the rest with no empty ring is yours: you take its marbles.

rules-section-3 = Winning
rules-section-3-1 = Win with 4 white, or 5 grey, or 6 black, or 3 of each colour (blitz: 3, 4, 5 or 2 of each).
rules-section-3-2 = A player with no legal turn loses.
