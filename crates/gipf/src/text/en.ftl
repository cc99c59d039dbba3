# GIPF: the game's name, its variants, the words its board draws, the help of each click and
# the reasons for a win (said from the winner's side).

game-name = GIPF
variant-standard = Standard
variant-basic = Basic
variant-tournament = Tournament

label-white-info = White: reserve { $reserve } · captured { $captured }
label-black-info = Black: reserve { $reserve } · captured { $captured }
label-to-move = to move
label-winner = wins
label-entry-start = must enter a GIPF piece
label-entry-gipf = GIPF pieces or singles
label-entry-singles = singles only
label-gipf-piece = GIPF piece
label-single = single
label-done = done
label-end-turn = end turn

step-choose-kind = choose what enters: a GIPF piece or a single
step-choose-dot = choose the dot where your piece enters
step-choose-push = choose the direction of the push
step-choose-row = choose a row to remove: click one of its ends
step-choose-row-end = click the other end of the row
step-keep-gipf = choose GIPF pieces to keep, then click done
step-done = click done to remove the row
step-end-turn = end the turn
step-row-or-push = remove a row, or choose where your piece enters
step-row-or-end = remove another row, or end the turn

end-no-reserve = the opponent has no pieces left in reserve
end-no-gipf = the opponent lost their last GIPF piece

player-P1 = White
player-P2 = Black
