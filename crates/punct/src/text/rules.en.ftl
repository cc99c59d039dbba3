# punct rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = Place and shift three-dot pieces on a hexagonal grid, climbing onto others, to connect two opposite sides of the board.

rules-section-1 = Turn
rules-section-1-1 = Either place a piece from your supply flat on empty points, or shift one of your free pieces: its PÜNCT dot (the marked one) jumps any distance along a line, and the piece may turn.
rules-section-1-2 = Standard: new pieces may never touch the central hexagon (basic: only White's first piece may not).

rules-section-2 = Climbing
rules-section-2-1 = A shifted piece may rest on other pieces if it lies level and its PÜNCT dot rests on one of your own dots. Covered pieces cannot move.

rules-section-3 = Winning
rules-section-3-1 = Connect two opposite sides with a chain of your visible dots. If a move connects both players, the mover wins.
rules-section-3-2 = If the supply runs out without a connection: basic is a draw; in standard the player showing more central points wins.
