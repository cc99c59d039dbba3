# GIPF: название игры, её варианты, слова на доске, подсказка к каждому щелчку и причины
# победы (со стороны победителя).

game-name = GIPF
variant-standard = Стандартная
variant-basic = Базовая
variant-tournament = Турнирная

label-white-info = Белые: в запасе { $reserve } · взято { $captured }
label-black-info = Чёрные: в запасе { $reserve } · взято { $captured }
label-to-move = ходят
label-winner = победа
label-entry-start = сначала фишка GIPF
label-entry-gipf = фишки GIPF или простые
label-entry-singles = только простые
label-gipf-piece = фишка GIPF
label-single = простая
label-done = готово
label-end-turn = конец хода

step-choose-kind = выберите, что ввести: фишку GIPF или простую
step-choose-dot = выберите точку, с которой войдёт фишка
step-choose-push = выберите направление толчка
step-choose-row = выберите ряд для снятия: нажмите на один из его концов
step-choose-row-end = нажмите на другой конец ряда
step-keep-gipf = выберите фишки GIPF, которые останутся, и нажмите «готово»
step-done = нажмите «готово», чтобы снять ряд
step-end-turn = завершите ход
step-row-or-push = снимите ряд или выберите точку, с которой войдёт фишка
step-row-or-end = снимите ещё один ряд или завершите ход

end-no-reserve = у соперника не осталось фишек в запасе
end-no-gipf = соперник потерял последнюю фишку GIPF

player-P1 = Белые
player-P2 = Чёрные
