# PÜNCT: the game's name, its variants, the words its board draws, the help of each click
# and the reasons for a result (a win said from the winner's side).

game-name = PÜNCT
variant-standard = Standard
variant-basic = Basic

label-white = White
label-black = Black
label-white-to-move = White to move
label-black-to-move = Black to move
label-white-wins = White wins
label-black-wins = Black wins
label-pass = pass

step-place-or-move = choose a piece from your supply, or one of yours on the board to move
step-choose-piece = choose a piece from your supply
step-choose-move = choose one of your pieces on the board to move
step-choose-point = choose the point for the piece's PÜNCT dot
step-choose-destination = choose where its PÜNCT dot goes (the same point turns it in place)
step-choose-orientation = choose the orientation: click the point of another dot
step-finish-piece = click the point of the last dot
step-pass = you cannot place or move: pass

end-connection = a connection between opposite sides
end-central = more central points covered when the pieces ran out
end-central-tie = the pieces ran out with as many central points each
end-pieces-out = the pieces ran out without a connection
end-passes = both players passed
end-repetition = the same position came three times

player-P1 = White
player-P2 = Black
