# The server's own messages with arguments or plurals, and those the game page formats
# (crates/server/src/messages.rs). Each game adds its own (the game crate's text/*.ftl).

step-choose = choose one of the highlighted items
help-wait = Wait for your opponent’s turn.
help-step-back = Esc or right-click: one step back.
help-confirm = Click a highlighted item to go on, or confirm below.
turns = { $n ->
    [one] { $n } turn
   *[other] { $n } turns
}
moves-legal = { $n ->
    [one] { $n } legal turn
   *[other] { $n } legal turns
}
player-P1 = Player 1
player-P2 = Player 2
to-move = { $player } to move
result-you-won = You won
result-you-lost = You lost
result-wins = { $player } wins
result-draw = Draw
reason-resigned = { $player } resigned
reason-agreed = by agreement
turn-number = Turn { $n }
coordinates = Coordinates
flip-board = Flip board
new-game = New game
game-over = Game over
live = live
finished = finished
you = you
computer-level = computer, level { $level }
opponent-friend = a friend (invite link)
opponent-hotseat = at one screen
waiting-for-you = your turn
waiting-for-them = their turn
started = started { $date }
board-item = { $id }
board = Board
rematch = Rematch (colours swapped)
nav-first = the start
nav-previous = the turn before
nav-next = the turn after
nav-last = the last turn
invite-link = invite link
analysis = analysis
analyse-game = Analyse
analysis-after-the-game = A game opens for analysis once it is over.
back-to-game = Back to the game
back-to-game-line = Back to the game’s turns
side-line = Side line
review = Review
review-start = Review the whole game
review-running = Reviewing… { $done } of { $total }
evaluation = evaluation
evaluation-graph = evaluation over the game
engine-line = depth { $depth } · { $score } · { $line }
engine-thinking = The engine is looking…
game-over-here = The game is over in this position.
mark-inaccuracy = inaccuracy
mark-mistake = mistake
mark-blunder = blunder
summary-row = { $player }: { $inaccuracies } ?! · { $mistakes } ? · { $blunders } ?? · average loss { $loss }
help-explore = Click the highlighted items to try a turn of your own; ← and → step through the game.
