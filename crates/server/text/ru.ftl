# Собственные сообщения сервера (с аргументами и формами множественного числа) и те, что
# оформляет страница партии.

step-choose = выберите один из выделенных элементов
help-wait = Дождитесь хода соперника.
help-step-back = Esc или правый щелчок: шаг назад.
help-confirm = Щёлкните выделенный элемент, чтобы продолжить, или подтвердите ниже.
turns = { $n ->
    [one] { $n } ход
    [few] { $n } хода
    [many] { $n } ходов
   *[other] { $n } хода
}
moves-legal = { $n ->
    [one] { $n } допустимый ход
    [few] { $n } допустимых хода
    [many] { $n } допустимых ходов
   *[other] { $n } допустимого хода
}
player-P1 = Игрок 1
player-P2 = Игрок 2
to-move = Ход: { $player }
result-you-won = Вы выиграли
result-you-lost = Вы проиграли
result-wins = Победа: { $player }
result-draw = Ничья
reason-resigned = { $player } сдаётся
reason-agreed = по соглашению
turn-number = Ход { $n }
coordinates = Координаты
flip-board = Перевернуть доску
new-game = Новая партия
game-over = Партия окончена
live = идёт
finished = окончена
you = вы
computer-level = компьютер, уровень { $level }
opponent-friend = друг (по ссылке)
opponent-hotseat = за одним экраном
waiting-for-you = ваш ход
waiting-for-them = ход соперника
started = начата { $date }
board-item = { $id }
board = Доска
rematch = Реванш (цвета меняются)
nav-first = к началу
nav-previous = ход назад
nav-next = ход вперёд
nav-last = к последнему ходу
invite-link = ссылка-приглашение
analysis = анализ
analyse-game = Анализ
analysis-after-the-game = Партию можно анализировать, когда она окончена.
back-to-game = К партии
back-to-game-line = К ходам партии
side-line = Вариант
review = Разбор
review-start = Разобрать всю партию
review-running = Разбор… { $done } из { $total }
evaluation = оценка
evaluation-graph = оценка по ходу партии
engine-line = глубина { $depth } · { $score } · { $line }
engine-thinking = Движок думает…
game-over-here = В этой позиции партия окончена.
mark-inaccuracy = неточность
mark-mistake = ошибка
mark-blunder = грубая ошибка
summary-row = { $player }: { $inaccuracies } ?! · { $mistakes } ? · { $blunders } ?? · средняя потеря { $loss }
help-explore = Щёлкайте по выделенному, чтобы попробовать свой ход; ← и → листают партию.
