# ZÈRTZ: the game's name, its variants, the words its board draws, the help of each click
# and the reasons for a result (a win said from the winner's side).

game-name = ZÈRTZ
variant-37 = 37 rings
variant-40 = 40 rings
variant-43 = 43 rings
variant-44 = 44 rings
variant-48 = 48 rings
variant-61 = 61 rings
variant-blitz = Blitz

label-pool = pool
label-captures = Player { $player } captured
label-to-move = to move
label-winner = wins

step-choose-colour = choose the colour of the marble to place
step-place-marble = place the marble on an empty ring
step-remove-ring = remove a free ring from the edge
step-choose-jumper = capture: choose the marble that jumps
step-jump = jump over a marble to the empty ring behind it

end-full-board = the last ring was filled
end-white-4 = four white marbles captured
end-grey-5 = five grey marbles captured
end-black-6 = six black marbles captured
end-each-3 = three marbles of each colour captured
end-white-3 = three white marbles captured
end-grey-4 = four grey marbles captured
end-black-5 = five black marbles captured
end-each-2 = two marbles of each colour captured
end-no-move = the opponent cannot move
end-repetition = the same position came three times
