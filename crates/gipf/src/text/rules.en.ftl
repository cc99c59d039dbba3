# gipf rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = Push your pieces in from the edge of a hexagonal board; four in a row capture. Run the opponent out of pieces (or GIPF pieces) to win.

rules-section-1 = Turn
rules-section-1-1 = Enter one piece from your reserve at a dot on the edge and push it one step onto the board along a line. Pieces in the way move along, unless the line is full.
rules-section-1-2 = White begins. Standard: each player starts with three GIPF pieces (double pieces) on the board.

rules-section-2 = Rows
rules-section-2-1 = Four or more of your pieces in a row on one line are removed together with every piece extending that row: your own return to your reserve, the opponent's are captured.
rules-section-2-2 = You may keep your own GIPF pieces on the board instead of removing them.
rules-section-2-3 = Rows made for the opponent are removed by them at the start of their turn.

rules-section-3 = Winning
rules-section-3-1 = A player who must push with an empty reserve loses.
rules-section-3-2 = Standard and tournament: a player with no GIPF piece left on the board loses.
