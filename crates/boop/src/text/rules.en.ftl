# boop rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = Place kittens on a 6×6 bed; each one pushes its neighbours away. Three in a row graduate into cats; three cats in a row win.

rules-section-1 = Turn
rules-section-1-1 = Put one kitten or cat from your pool on any empty cell.
rules-section-1-2 = It boops every adjacent piece one cell straight away from it, unless the cell behind is occupied. Pieces booped off the bed go back to their owner's pool.
rules-section-1-3 = A kitten cannot boop a cat. Booped pieces do not boop others.

rules-section-2 = Graduation
rules-section-2-1 = Three of your pieces in a row (at least one kitten) leave the bed: kittens become cats in your pool, cats return to it.
rules-section-2-2 = If all eight of your pieces are on the bed, you must take one back (a kitten graduates to a cat).

rules-section-3 = Winning
rules-section-3-1 = You win with three of your cats in a row, or with all eight of your pieces on the bed as cats.
rules-section-3-2 = A position repeated for the third time is a draw.

rules-section-4 = Boooop (ghost cats)
rules-section-4-1 = Each player also has a ghost. You may put it on a free entry segment at the edge of the bed.
rules-section-4-2 = On each of your later turns it moves one segment along its stitch line and pushes the two pieces beside it apart, jumping them over occupied cells. It leaves the bed at the far end and returns to you.
