# boop.: the game's name, its variants, the words its board draws, the help of each click
# and the reasons for a result (a win said from the winner's side).

game-name = boop.
variant-boop = boop.
variant-boooop = Boooop (ghost cats)

label-kittens = { $n ->
    [one] { $n } kitten
   *[other] { $n } kittens
}
label-cats = { $n ->
    [one] { $n } cat
   *[other] { $n } cats
}
label-player = Player { $player }
label-player-to-move = Player { $player } to move
label-player-wins = Player { $player } wins

step-choose-piece = choose a kitten or a cat from your pool
step-piece-or-ghost = choose a kitten or a cat, or your ghost to bring it in first
step-choose-edge = choose the edge where your ghost enters the bed
step-place-piece = place it on an empty cell
step-graduate-line = choose three of your pieces in a row to graduate
step-graduate-single = click one of your pieces twice to take it back as a cat
step-graduate = choose three in a row to graduate, or click one piece twice

end-three-cats = three cats in a row
end-eight-cats = all eight cats on the bed
end-repetition = the same position came three times
