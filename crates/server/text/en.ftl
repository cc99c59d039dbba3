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
sound = Sound on your turn
clock-days = { $d }d { $h }h
reason-time = { $player } ran out of time
lobby = Lobby: play someone now
lobby-empty = Nobody is waiting. Make a seek and someone can take it.
seek-game = Game
seek-time = Time
seek-colour = You play
seek-make = Seek an opponent
seek-cancel = Cancel
seek-accept = Play
seek-yours = your seek: waiting for an opponent…
seek-waiting = Waiting for an opponent… (keep this page open)
seek-gone = That seek was taken or withdrawn.
seek-colour-P1 = creator plays first
seek-colour-P2 = creator plays second
rated = rated
casual = casual
no-clock = no clock
clock-per-turn-days = { $d ->
    [one] { $d } day a turn
   *[other] { $d } days a turn
}
rematch-offer = Offer a rematch
rematch-accept = Accept the rematch
rematch-decline = Decline
rematch-offered = You offered a rematch.
rematch-offered-you = Your opponent offers a rematch, colours swapped.
rematch-agreed = Rematch agreed: on to the next game.

# Players and ratings
players-nav = Players
players-leaderboard = Leaderboard
players-leaderboard-of = Leaderboard: { $game }
players-leaderboard-empty = Nobody has finished a rated game of this yet.
players-rank = Rank
players-player = Player
players-rating = Rating
players-games = { $n ->
    [one] { $n } rated game
   *[other] { $n } rated games
}
players-games-column = Rated games
players-provisional = provisional: still few games
players-ratings = Ratings
players-no-ratings = No rated games yet.
players-recent-games = Recent games
players-no-games = No games yet.
players-history = Rating over time
players-history-of = { $game }: rating after each rated game, with its uncertainty
players-versus = against { $name }
players-nobody = nobody yet
players-computer = the computer
players-won = won
players-lost = lost
players-drew = draw
players-playing = playing
players-rated = rated
players-unknown = There is no such player.
players-me = You
players-me-intro = You play as { $name }. Others see this name beside your moves and in the lists.
players-name = Display name
players-save = Save
players-account = Account
players-guest = You play as a guest: your name and ratings belong to this browser. An account keeps them on any browser; no e-mail needed.
players-signed-in = Signed in as { $account }.
players-register = Create an account
players-login = Sign in
players-logout = Sign out
players-login-name = Login name
players-password = Password
players-your-page = Your player page
players-error-name = A name has 1 to 24 characters, and no control characters.
players-error-login-name = A login name has 3 to 24 characters: a–z, 0–9, _ and -.
players-error-password = A password has 8 to 128 characters.
players-error-taken = That login name is taken.
players-error-has-account = You already have an account; sign out first to make another.
players-error-login = Wrong login name or password.
players-error-too-many = Too many attempts from your address; try again in { $s } s.
players-error-origin = This form was sent from another site.
players-error-store = The server cannot save this right now; try again in a moment.
tv = Being played now

## The game library: the archive and the opening explorer
opponent-record = from a record
reason-record = as the record says
archive-title = Archive
archive-player = Player
archive-game = Game
archive-variant = Variant
archive-any = any
archive-result = Result
archive-result-p1 = first player won
archive-result-p2 = second player won
archive-result-draw = draw
archive-result-won = the player won
archive-result-lost = the player lost
archive-from = From
archive-to = To
archive-min-turns = At least turns
archive-max-turns = At most turns
archive-search = Search
archive-unavailable = The archive cannot be read right now.
archive-empty = No game matches.
archive-date = Date
archive-turns = Turns
archive-source = Source
archive-newer = Newer
archive-older = Older
archive-page = Page { $page }
explorer = Opening explorer
explorer-turn = Turn
explorer-games = Games
explorer-none = No archived game reached this position.
explorer-total = { $games ->
    [one] { $games } game from here
   *[other] { $games } games from here
}
explorer-reached = Games that reached it
