# boop.: название игры, её варианты, слова на доске, подсказка к каждому щелчку и причины
# исхода (победа — со стороны победителя).

game-name = boop.
variant-boop = boop.
variant-boooop = Boooop (кошки-призраки)

label-kittens = { $n ->
    [one] { $n } котёнок
    [few] { $n } котёнка
    [many] { $n } котят
   *[other] { $n } котёнка
}
label-cats = { $n ->
    [one] { $n } кошка
    [few] { $n } кошки
    [many] { $n } кошек
   *[other] { $n } кошки
}
label-player = Игрок { $player }
label-player-to-move = Ходит игрок { $player }
label-player-wins = Победил игрок { $player }

step-choose-piece = выберите котёнка или кошку из своего запаса
step-piece-or-ghost = выберите котёнка или кошку — или сначала введите своего призрака
step-choose-edge = выберите край, с которого призрак войдёт на кровать
step-place-piece = поставьте фигуру на свободную клетку
step-graduate-line = выберите три свои фигуры в ряд, чтобы они выросли
step-graduate-single = дважды нажмите на свою фигуру, чтобы вернуть её кошкой
step-graduate = выберите три фигуры в ряд или дважды нажмите на одну фигуру

end-three-cats = три кошки в ряд
end-eight-cats = все восемь кошек на кровати
end-repetition = одна и та же позиция повторилась трижды
